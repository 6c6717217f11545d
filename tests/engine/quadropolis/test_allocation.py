"""The exact allocation: equal to brute force on small cities, and well behaved."""

from __future__ import annotations

from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.quadropolis import search
from engine.quadropolis.allocation import allocate, brute_force, evaluate
from engine.quadropolis.scoring import Building, City, make_city

CLASSIC_TYPES = ["tower_block", "shop", "public_service", "park", "factory", "harbor"]
EXPERT_TYPES = [*CLASSIC_TYPES, "office", "monument"]


@st.composite
def cities(draw: st.DrawFn, max_buildings: int = 10, kinds: list[str] | None = None) -> City:
    mode = draw(st.sampled_from(["classic", "expert"] if kinds is None else ["expert"]))
    rows, cols = 4, 4 if mode == "classic" else 5
    spaces = draw(st.lists(st.tuples(st.integers(1, rows), st.integers(1, cols)),
                           unique=True, min_size=0, max_size=max_buildings))
    types = kinds or (CLASSIC_TYPES if mode == "classic" else EXPERT_TYPES)
    top = 4 if mode == "classic" else 5
    buildings = []
    for r, c in spaces:
        kind = draw(st.sampled_from(types))
        floors = draw(st.integers(1, top)) if kind in ("tower_block", "office") else 1
        vp = draw(st.integers(0, 3)) if kind in ("public_service", "harbor") else 0
        square = kind == "park" and draw(st.booleans())
        buildings.append(Building(r, c, kind, floors, vp, square))
    return make_city(mode, buildings, draw(st.integers(0, 12)), draw(st.integers(0, 12)))


@settings(max_examples=150, deadline=None)
@given(city=cities())
def test_the_search_equals_brute_force(city: City) -> None:
    fast, slow = allocate(city), brute_force(city)
    assert fast.key == slow.key
    assert fast.active == slow.active  # the same allocation, tie rules included
    assert fast.to_json() == slow.to_json()


@settings(max_examples=60, deadline=None)
@given(city=cities(max_buildings=12))
def test_conditioning_on_a_cut_equals_brute_force(city: City) -> None:
    """Large parts are split by fixing a cut (search.SMALL); force it on small cities."""
    with patch.object(search, "SMALL", 2):
        fast = allocate.__wrapped__(city)  # past the cache
    slow = brute_force(city)
    assert fast.key == slow.key and fast.active == slow.active


@settings(max_examples=60, deadline=None)
@given(city=cities(max_buildings=12, kinds=["office", "office", "office", "factory", "park",
                                            "tower_block"]),
       small=st.integers(1, 3), cut=st.integers(1, 6))
def test_office_groups_survive_conditioning(city: City, small: int, cut: int) -> None:
    """An office of the cut that is on still joins the groups around it: the pieces
    either side of it are not independent then (a bug found by a stress run)."""
    with patch.object(search, "SMALL", small), patch.object(search, "MAX_CUT", cut):
        fast = allocate.__wrapped__(city)
    slow = brute_force(city)
    assert fast.key == slow.key and fast.active == slow.active


@settings(max_examples=60, deadline=None)
@given(city=cities(max_buildings=12, kinds=["office", "office", "office", "park", "monument",
                                            "factory", "tower_block"]),
       small=st.integers(1, 2), cut=st.integers(1, 4))
def test_office_blocks_by_branch_and_bound_equal_brute_force(
    city: City, small: int, cut: int
) -> None:
    """Offices alone, as a part or as a piece left by a cut, are searched k offices at a
    time (search.office_block)."""
    with patch.object(search, "SMALL", small), patch.object(search, "MAX_CUT", cut):
        fast = allocate.__wrapped__(city)
    slow = brute_force(city)
    assert fast.key == slow.key and fast.active == slow.active


def test_the_office_chain_that_once_split_wrongly() -> None:
    city = make_city("expert", [
        Building(1, 2, "tower_block"), Building(1, 4, "office"), Building(1, 5, "office"),
        Building(2, 1, "tower_block"), Building(2, 2, "factory"), Building(2, 3, "harbor", vp=1),
        Building(2, 5, "office"), Building(3, 1, "factory"), Building(3, 3, "shop"),
        Building(4, 2, "tower_block"), Building(4, 4, "tower_block", 2)], 7, 8)
    with patch.object(search, "SMALL", 2), patch.object(search, "MAX_CUT", 3):
        fast = allocate.__wrapped__(city)
    assert fast.key == brute_force(city).key == (19, 7, -12, 15, 0)


@settings(max_examples=40, deadline=None)
@given(city=cities(max_buildings=12, kinds=["public_service", "monument", "park"]))
def test_public_services_by_district_equal_brute_force(city: City) -> None:
    """Many public services form one part, searched district by district."""
    with patch.object(search, "SMALL", 2):
        fast = allocate.__wrapped__(city)
    slow = brute_force(city)
    assert fast.key == slow.key and fast.active == slow.active


@settings(max_examples=80, deadline=None)
@given(city=cities(max_buildings=12), more_inhabitants=st.booleans())
def test_one_more_resource_never_costs_more_than_one_point(
    city: City, more_inhabitants: bool
) -> None:
    """Issue 8: an extra resource can at worst be left unplaced (-1)."""
    richer = City(city.mode, city.buildings, city.inhabitants + more_inhabitants,
                  city.energy + (not more_inhabitants))
    assert allocate(richer).total >= allocate(city).total - 1


@settings(max_examples=80, deadline=None)
@given(city=cities(max_buildings=12))
def test_the_allocation_accounts_for_every_resource(city: City) -> None:
    a = allocate(city)
    placed_i = sum(b["inhabitants"] for b in a.to_json()["buildings"])
    placed_e = sum(b["energy"] for b in a.to_json()["buildings"])
    assert placed_i + a.unplaced_inhabitants == city.inhabitants
    assert placed_e + a.unplaced_energy == city.energy
    assert a.score["penalty_inhabitants"] == -a.unplaced_inhabitants
    assert a.score["penalty_energy"] == -a.unplaced_energy
    assert a.total == sum(a.score.values())
    assert a.empty_spaces == (20 if city.mode == "expert" else 16) - sum(a.active)


@settings(max_examples=60, deadline=None)
@given(city=cities(max_buildings=12))
def test_no_allocation_beats_the_chosen_one(city: City) -> None:
    """Spot check against single changes: turning any one building on or off."""
    best = allocate(city)
    mask = sum(1 << i for i, on in enumerate(best.active) if on)
    for i, b in enumerate(city.buildings):
        if not b.needs_activation:
            continue
        other = evaluate(city, mask ^ (1 << i))
        if other is not None:
            assert other.key <= best.key


def test_an_inactive_shop_holds_no_customers() -> None:
    city = make_city("classic", [Building(1, 1, "shop")], 3, 0)
    a = allocate(city)
    assert a.active == (False,) and a.customers == (0,)
    assert a.score["penalty_inhabitants"] == -3


def test_customers_fill_the_earlier_shop_first() -> None:
    city = make_city("classic", [Building(1, 1, "shop"), Building(3, 3, "shop")], 5, 2)
    a = allocate(city)
    assert a.customers == (4, 1)
    assert a.score["shops"] == 7 + 1


def test_parks_absorb_energy_but_squares_do_not() -> None:
    city = make_city("classic", [Building(1, 1, "park", 0), Building(1, 3, "park", 0, square=True)],
                     0, 3)
    a = allocate(city)
    assert a.absorbed_on == (1, 0)
    assert a.score["penalty_energy"] == -2
