"""Every worked example of the rulebook (quadropolis.fr.txt, lines cited)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.quadropolis import GAME
from engine.quadropolis.actions import Discard, Place, Take
from engine.quadropolis.allocation import allocate, evaluate
from engine.quadropolis.rules import legal_placements, legal_takes
from engine.quadropolis.scoring import Building, make_city
from engine.quadropolis.setup import start_round
from engine.quadropolis.state import State
from engine.quadropolis.tiles import TILES, round_tiles
from tests.engine.quadropolis.helpers import build, fresh, on_site, tile_id


def test_l141_architect_3_at_the_end_of_row_4_takes_its_third_space() -> None:
    state = fresh(4, seed=3)
    seat = state.to_play
    assert seat is not None
    wanted = tile_id("shop")
    on_site(state, 4, 3, wanted)
    GAME.apply(state, seat, Take(3, "L4"))
    assert state.taken is not None and state.taken["tile"] == wanted
    assert state.urbanist == (4, 3)
    assert state.site[3][2] is None


def test_l141_the_count_starts_from_the_end_the_architect_stands_at() -> None:
    state = fresh(4, seed=3)
    seat = state.to_play
    assert seat is not None
    wanted = tile_id("park")
    on_site(state, 4, 4, wanted)  # 2nd space from the right end of row 4
    GAME.apply(state, seat, Take(2, "R4"))
    assert state.taken is not None and state.taken["tile"] == wanted


def _taking(state_seed: int, kind: str, architect: int, slot: str, target: tuple[int, int],
            mode: str = "classic") -> tuple[State, int]:
    state = fresh(4, mode=mode, seed=state_seed)
    seat = state.to_play
    assert seat is not None
    on_site(state, *target, tile_id(kind, mode=mode))
    GAME.apply(state, seat, Take(architect, slot))
    return state, seat


def test_l152_architect_2_places_in_row_or_column_2() -> None:
    state, seat = _taking(5, "factory", 2, "T3", (2, 3))
    places = {(a.row, a.col) for a in legal_placements(state, seat) if isinstance(a, Place)}
    expected = {(2, c) for c in range(1, 5)} | {(r, 2) for r in range(1, 5)}
    assert places == expected
    assert Discard() in legal_placements(state, seat)


def test_l163_architect_3_places_in_line_3_or_builds_a_third_floor_anywhere() -> None:
    state, seat = _taking(6, "tower_block", 3, "L2", (2, 3))
    towers = [t for t in round_tiles("classic", False, 1) if TILES[t].type == "tower_block"]
    build(state, seat, 1, 1, towers[-2:])  # a 2-floor tower, not in line 3
    build(state, seat, 4, 4, towers[-3:-2])  # a 1-floor tower, not in line 3
    places = {(a.row, a.col) for a in legal_placements(state, seat) if isinstance(a, Place)}
    assert (1, 1) in places  # floor 3 of the 2-floor tower (L167)
    assert (4, 4) not in places  # it would be floor 2, and (4, 4) is not in line 3
    assert {(3, c) for c in range(1, 5)} | {(r, 3) for r in range(1, 5)} <= places
    GAME.apply(state, seat, Place(1, 1))
    assert len(state.players[seat].city[0][0]) == 3


def test_l169_a_discarded_tile_gives_nothing() -> None:
    state, seat = _taking(7, "harbor", 1, "T1", (1, 1))
    player = state.players[seat]
    before = (player.inhabitants, player.energy, [row[:] for row in player.city])
    assert state.taken is not None
    taken = state.taken["tile"]
    events = GAME.apply(state, seat, Discard())
    assert (player.inhabitants, player.energy, player.city) == before
    assert taken in state.discards
    assert events[0].kind == "discarded"


def test_l181_green_takes_a_public_service_and_the_urbanist_moves_there() -> None:
    state = fresh(4, seed=8)
    green = state.to_play
    assert green is not None
    service = tile_id("public_service")
    on_site(state, 3, 2, service)
    GAME.apply(state, green, Take(2, "L3"))  # architect 2 at the end of row 3 (L181)
    assert state.taken is not None and state.taken["tile"] == service
    assert state.urbanist == (3, 2)  # L187-191
    GAME.apply(state, green, Discard())
    nxt = state.to_play
    assert nxt is not None
    closed = {"L3", "R3", "T2", "B2"}
    open_slots = {a.slot for a in legal_takes(state, nxt)}
    assert not closed & open_slots
    assert len(open_slots) == 20 - 4


def test_l187_an_empty_space_still_moves_the_urbanist_and_spends_the_architect() -> None:
    state = fresh(4, seed=9)
    seat = state.to_play
    assert seat is not None
    on_site(state, 1, 5, None)
    events = GAME.apply(state, seat, Take(1, "R1"))
    assert events[0].data["what"] == "empty"
    assert state.urbanist == (1, 5)
    assert 1 not in state.players[seat].architects
    assert state.phase == "take" and state.to_play != seat


def test_l195_a_harbor_gives_one_inhabitant_and_one_energy_at_once() -> None:
    harbor = tile_id("harbor", inhabitants=1, energy=1)
    state = fresh(4, seed=10)
    seat = state.to_play
    assert seat is not None
    on_site(state, 1, 1, harbor)
    GAME.apply(state, seat, Take(1, "T1"))
    GAME.apply(state, seat, Place(1, 1))
    player = state.players[seat]
    assert (player.inhabitants, player.energy) == (1, 1)


def test_l197_a_three_floor_tower_needs_only_one_energy() -> None:
    city = make_city("classic", [Building(1, 1, "tower_block", 3)], 0, 1)
    a = allocate(city)
    assert a.active == (True,)
    assert a.score["tower_blocks"] == 6
    assert a.total == 6 and a.unplaced_energy == 0


def test_l203_printed_points_count_only_if_the_building_is_activated() -> None:
    service = Building(1, 1, "public_service", vp=2)
    active = allocate(make_city("classic", [service], 1, 0))
    assert active.score["public_services"] == 2 + 2  # printed 2, one district 2
    idle = allocate(make_city("classic", [service], 0, 0))
    assert idle.active == (False,) and idle.total == 0


def test_l209_the_mayor_tile_makes_you_first_player_of_the_next_round() -> None:
    state = fresh(4, seed=11)
    first = state.first
    seat = (first + 1) % 4
    mayor_tile = tile_id("tower_block", mayor=True)
    # The first player passes with an empty space; the second takes the Mayor tile.
    on_site(state, 5, 5, None)
    GAME.apply(state, first, Take(1, "R5"))
    on_site(state, 2, 1, mayor_tile)
    GAME.apply(state, seat, Take(2, "T1"))
    events = GAME.apply(state, seat, Place(2, 1))
    assert events[0].data["mayor"] is True and state.mayor == seat
    assert state.first == first  # this round's order does not change (L207)
    assert state.to_play == (first + 2) % 4
    while state.round == 1:
        s = state.to_play
        assert s is not None
        action = GAME.legal_actions(state, s)[0]
        GAME.apply(state, s, Discard() if state.phase == "place" else action)
    assert state.first == seat and state.to_play == seat  # L225


def test_l467_eloise_offices_score_19() -> None:
    offices = [Building(1, 1, "office", 2), Building(1, 2, "office", 2),
               Building(1, 3, "office", 3)]
    a = allocate(make_city("expert", offices, 3, 3))
    assert a.points == (5, 5, 9)
    assert a.score["offices"] == 19


def test_l431_the_expert_pool_holds_one_architect_of_each_number_per_player() -> None:
    for seats in (2, 3, 4):
        state = fresh(seats, mode="expert", seed=seats)
        assert state.pool == {n: seats for n in range(1, 6)}
        assert all(p.architects == [] for p in state.players)


def test_l433_an_expert_player_may_play_the_same_number_twice_and_some_stay_unused() -> None:
    state = fresh(2, mode="expert", seed=12)
    seat = state.to_play
    assert seat is not None
    played: list[tuple[int, int]] = []
    while state.round == 1:
        s = state.to_play
        assert s is not None
        if state.phase == "place":
            GAME.apply(state, s, Discard())
            continue
        takes = [a for a in GAME.legal_actions(state, s) if isinstance(a, Take)]
        threes = [a for a in takes if a.architect == 3]
        mine = s == seat and threes
        take = threes[0] if mine else next(a for a in takes if a.architect != 3)
        before = sum(state.pool.values())
        GAME.apply(state, s, take)
        played.append((s, take.architect))
    assert len(played) == 8  # 4 turns of 2 players: 2 of the 10 architects stay unused
    assert before == 3  # before the last take of the round
    assert played.count((seat, 3)) == 2  # the same number twice, both copies of 3
    assert state.pool == {n: 2 for n in range(1, 6)}  # L437: back to the pool


@pytest.mark.parametrize(("seats", "face_up_rounds"), [(2, {2, 3}), (3, {2, 3, 4}),
                                                        (4, {2, 3, 4, 5})])
def test_l479_monuments_by_player_count(seats: int, face_up_rounds: set[int]) -> None:
    state = fresh(seats, mode="expert", seed=13)
    seen: set[int] = set()
    for round_no in range(1, 6):
        start_round(state, round_no)
        for r in range(5):
            for c in range(5):
                t = state.site[r][c]
                assert t is not None
                if TILES[t].type == "monument" and state.face_up[r][c]:
                    seen.add(round_no)
        monuments = [t for t in round_tiles("expert", False, round_no)
                     if TILES[t].type == "monument"]
        assert len(monuments) == (0 if round_no == 1 else 1)
    assert seen == face_up_rounds


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_l614_squares_replace_parks_give_an_inhabitant_and_absorb_nothing(mode: str) -> None:
    rounds = 4 if mode == "classic" else 5
    squares = [t for r in range(1, rounds + 1) for t in round_tiles(mode, True, r)
               if TILES[t].square]
    assert len(squares) == rounds  # L598: one per round; four in classic, five in expert
    plain = Counter(TILES[t].type for r in range(1, rounds + 1)
                    for t in round_tiles(mode, False, r))
    with_squares = Counter(TILES[t].type for r in range(1, rounds + 1)
                           for t in round_tiles(mode, True, r))
    assert plain == with_squares  # a square is a park in place of a park
    square = TILES[squares[0]]
    assert square.inhabitants == 1 and square.absorbs == 0
    city = make_city(mode, [Building(1, 1, "park", 0, square=True),
                            Building(1, 2, "tower_block", 1)], 0, 3)
    a = allocate(city)
    assert a.score["parks"] == 2  # scored as a park next to one tower block
    assert a.absorbed == 0 and a.score["penalty_energy"] == -2


def test_l614_a_square_is_a_park_for_a_monument() -> None:
    city = make_city("expert", [Building(1, 1, "monument", 0),
                                Building(1, 2, "park", 0, square=True)], 0, 0)
    assert allocate(city).score["monuments"] == 5


def test_hand_made_a_monument_next_to_a_factory_is_best_left_alone() -> None:
    """Issue 8: 1 inhabitant, 2 energy; activating scores -7, not activating -3."""
    city = make_city("expert", [Building(1, 1, "monument", 0), Building(1, 2, "factory")], 1, 2)
    on = evaluate(city, 0b11)
    assert on is not None and on.total == -7
    best = allocate(city)
    assert best.total == -3 and best.active == (True, False)


def test_hand_made_four_harbors_with_three_inhabitants_drop_an_end_one() -> None:
    city = make_city("classic", [Building(2, c, "harbor") for c in range(1, 5)], 3, 0)
    best = allocate(city)
    assert best.total == 7
    assert best.active in ((True, True, True, False), (False, True, True, True))
    assert best.active == (True, True, True, False)  # tie rule 6: earlier spaces first
