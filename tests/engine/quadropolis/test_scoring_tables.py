"""Every row of every scoring table of the rulebook, in both modes, through whole cities
scored by the allocation (each table is typed here from the rulebook, not read from the
data)."""

from __future__ import annotations

import pytest

from engine.quadropolis.allocation import allocate, evaluate
from engine.quadropolis.scoring import Building as B
from engine.quadropolis.scoring import make_city

# L278-282, L519-524: tower blocks by floors.
TOWER = {"classic": [1, 3, 6, 10], "expert": [1, 3, 6, 10, 15]}
# L300-304, L560-565: shops by customers.
SHOP = {"classic": [1, 2, 4, 7], "expert": [1, 2, 4, 7, 11]}
# L322-326, L571-576: public services by districts holding one.
SERVICE = {"classic": [2, 5, 9, 14], "expert": [2, 5, 9, 14, 20]}
# L342-346, L550-554: parks by adjacent tower blocks (and offices in expert).
PARK = [2, 4, 7, 11]
# L386-390, L539-544: harbors by run length.
HARBOR = {"classic": [0, 3, 7, 12], "expert": [0, 3, 7, 12, 18]}
# L458-463: offices, rows by group size, columns by floors.
OFFICE = [[0, 1, 3, 6, 10], [1, 3, 6, 10, 15], [2, 5, 9, 14, 20], [3, 7, 12, 18, 25],
          [4, 9, 15, 22, 30]]
MODES = ["classic", "expert"]


@pytest.mark.parametrize("mode", MODES)
def test_tower_blocks_by_floors(mode: str) -> None:
    for floors, points in enumerate(TOWER[mode], start=1):
        a = allocate(make_city(mode, [B(1, 1, "tower_block", floors)], 0, 1))
        assert a.score["tower_blocks"] == points and a.total == points


@pytest.mark.parametrize("mode", MODES)
def test_shops_by_customers(mode: str) -> None:
    for customers, points in enumerate(SHOP[mode], start=1):
        a = allocate(make_city(mode, [B(1, 1, "shop")], customers, 1))
        assert a.customers == (customers,)
        assert a.score["shops"] == points and a.total == points


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_a_shop_takes_no_more_customers_than_its_room(mode: str) -> None:
    room = len(SHOP[mode])
    a = allocate(make_city(mode, [B(1, 1, "shop")], room + 2, 1))
    assert a.customers == (room,) and a.score["penalty_inhabitants"] == -2


@pytest.mark.parametrize("mode", MODES)
def test_public_services_by_districts(mode: str) -> None:
    # One public service in the top-left space of each district, district by district.
    corners = {"classic": [(1, 1), (1, 3), (3, 1), (3, 3)],
               "expert": [(1, 1), (1, 4), (3, 4), (1, 3), (3, 1)]}[mode]
    for count, points in enumerate(SERVICE[mode], start=1):
        services = [B(r, c, "public_service") for r, c in corners[:count]]
        a = allocate(make_city(mode, services, count, 0))
        assert a.score["public_services"] == points


def test_two_public_services_in_one_district_count_it_once() -> None:
    a = allocate(make_city("classic", [B(1, 1, "public_service"), B(1, 2, "public_service")],
                           2, 0))
    assert a.score["public_services"] == 2


@pytest.mark.parametrize("mode", MODES)
def test_a_district_counts_once_whichever_of_its_spaces_hold_the_services(mode: str) -> None:
    board = make_city(mode, [], 0, 0).board
    spaces = [(r, c) for r in range(1, board.rows + 1) for c in range(1, board.cols + 1)]
    districts = {board.districts[r - 1][c - 1] for r, c in spaces}
    assert len(districts) == len(SERVICE[mode])
    for district in districts:
        mine = [B(r, c, "public_service") for r, c in spaces
                if board.districts[r - 1][c - 1] == district]
        assert len({s.row for s in mine}) > 1  # a district spans rows and columns
        a = allocate(make_city(mode, mine, len(mine), 0))
        assert a.score["public_services"] == SERVICE[mode][0], district
    everywhere = [B(r, c, "public_service") for r, c in spaces]
    a = allocate(make_city(mode, everywhere, len(everywhere), 0))
    assert a.score["public_services"] == SERVICE[mode][-1]


@pytest.mark.parametrize("mode", MODES)
def test_parks_by_adjacent_tower_blocks(mode: str) -> None:
    around = [(1, 2), (3, 2), (2, 1), (2, 3)]
    for count, points in enumerate(PARK, start=1):
        towers = [B(r, c, "tower_block", 1 + k) for k, (r, c) in enumerate(around[:count])]
        a = allocate(make_city(mode, [B(2, 2, "park", 0), *towers], 0, count))
        assert a.score["parks"] == points


def test_expert_parks_count_adjacent_offices_too() -> None:
    city = make_city("expert", [B(2, 2, "park", 0), B(1, 2, "office"), B(2, 1, "tower_block")],
                     1, 2)
    assert allocate(city).score["parks"] == 4


def test_classic_parks_do_not_count_what_is_not_a_tower_block() -> None:
    city = make_city("classic", [B(2, 2, "park", 0), B(1, 2, "shop"), B(2, 1, "factory")], 1, 1)
    assert allocate(city).score["parks"] == 0


@pytest.mark.parametrize(("mode", "neighbour", "points"), [
    ("classic", "shop", 2), ("classic", "harbor", 3),
    ("expert", "shop", 2), ("expert", "harbor", 3), ("expert", "office", 4),
])
def test_factories_by_adjacent_building(mode: str, neighbour: str, points: int) -> None:
    city = make_city(mode, [B(1, 1, "factory"), B(1, 2, neighbour)], 2, 1)
    a = allocate(city)
    assert a.score["factories"] == points
    two = make_city(mode, [B(1, 1, "factory"), B(1, 2, neighbour), B(2, 1, neighbour)], 3, 2)
    assert allocate(two).score["factories"] == 2 * points


@pytest.mark.parametrize("mode", MODES)
def test_harbors_by_run_length(mode: str) -> None:
    for length, points in enumerate(HARBOR[mode], start=1):
        row = [B(1, c, "harbor") for c in range(1, length + 1)]
        a = allocate(make_city(mode, row, length, 0))
        assert a.score["harbors"] == points
    for length, points in enumerate(HARBOR[mode][:4], start=1):
        col = [B(r, 1, "harbor") for r in range(1, length + 1)]
        assert allocate(make_city(mode, col, length, 0)).score["harbors"] == points


def test_only_the_longest_row_and_the_longest_column_score() -> None:
    # An L of harbors: row 1 run of 3, column 1 run of 3 (sharing the corner), and a
    # second row run of 2 that scores nothing (Q10).
    harbors = [B(1, 1, "harbor"), B(1, 2, "harbor"), B(1, 3, "harbor"), B(2, 1, "harbor"),
               B(3, 1, "harbor"), B(4, 3, "harbor"), B(4, 4, "harbor")]
    a = allocate(make_city("classic", harbors, 7, 0))
    assert a.score["harbors"] == 7 + 7


def test_printed_points_of_harbors_count() -> None:
    a = allocate(make_city("classic", [B(1, 1, "harbor", vp=3)], 1, 0))
    assert a.score["harbors"] == 3


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("floors", [1, 2, 3, 4, 5])
def test_offices_by_group_size_and_floors(size: int, floors: int) -> None:
    spaces = [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5)][:size]
    offices = [B(r, c, "office", floors if k == 0 else 1) for k, (r, c) in enumerate(spaces)]
    a = allocate(make_city("expert", offices, size, size))
    assert a.points[0] == OFFICE[size - 1][floors - 1]
    assert all(p == OFFICE[size - 1][0] for p in a.points[1:])


def test_a_group_of_six_offices_reads_the_last_row() -> None:
    spaces = [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (2, 5)]
    a = allocate(make_city("expert", [B(r, c, "office", 2) for r, c in spaces], 6, 6))
    assert a.score["offices"] == 6 * OFFICE[4][1]


@pytest.mark.parametrize(("neighbour", "points"), [
    ("factory", -5), ("harbor", -5), ("tower_block", 0), ("office", 0), ("monument", 0),
    ("public_service", 2), ("shop", 3), ("park", 5),
])
def test_monuments_by_adjacent_building(neighbour: str, points: int) -> None:
    """L488-495; a factory or harbor is left on here (more inhabitants than needed would
    otherwise be unplaced) to read the -5 row."""
    monument = B(2, 2, "monument", 0)
    other = B(2, 3, neighbour, 1 if neighbour in ("tower_block", "office") else 0)
    city = make_city("expert", [monument, other], 0, 0)
    a = evaluate(city, 0b11)
    if a is None:  # the neighbour needs resources: give them exactly
        city = make_city("expert", [monument, other], other.cost_inhabitants, other.cost_energy)
        a = evaluate(city, 0b11)
    assert a is not None
    assert a.points[0] == points
