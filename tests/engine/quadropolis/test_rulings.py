"""One test per Quadropolis ruling: the shared RULINGS.md (section Quadropolis, FINDINGS
Q1-Q15) and the engine's own engine/quadropolis/RULINGS.md (QE1-QE9)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction, ParseError
from engine.quadropolis import GAME
from engine.quadropolis.actions import Discard, Place, Take, parse
from engine.quadropolis.allocation import Allocation, allocate, evaluate
from engine.quadropolis.final import outcome, ranks
from engine.quadropolis.rules import legal_placements, legal_takes
from engine.quadropolis.scoring import Building as B
from engine.quadropolis.scoring import make_city
from engine.quadropolis.setup import start_round
from engine.quadropolis.state import State
from engine.quadropolis.tiles import TILES, all_tiles, round_tiles
from tests.engine.quadropolis.helpers import build, fresh, on_site, tile_id


def _first_seat(state: State) -> int:
    seat = state.to_play
    assert seat is not None
    return seat


# --- Shared rulings: setup and modes -------------------------------------------------

def test_ruling_setup_and_modes() -> None:
    classic = fresh(4, "classic", seed=1)
    assert classic.rounds == 4 and classic.board.rows == 4 and classic.board.cols == 4
    assert all(p.architects == [1, 2, 3, 4] for p in classic.players)
    expert = fresh(3, "expert", seed=1)
    assert expert.rounds == 5 and expert.board.cols == 5
    assert sorted({d for row in expert.board.districts for d in row}) == [1, 2, 3, 4, 5]
    firsts = {fresh(4, seed=s).first for s in range(40)}
    assert firsts == {0, 1, 2, 3}  # random first player (L101)


def test_ruling_tile_counts_and_marks() -> None:
    classic, expert = set(all_tiles("classic", False)), set(all_tiles("expert", False))
    assert (len(classic), len(expert), len(classic & expert)) == (100, 125, 83)
    assert len(classic | expert) == 142
    for state_seats, hidden_marks in ((4, set()), (3, {"4"}), (2, {"4", "3-4"})):
        state = fresh(state_seats, seed=2)
        for r in range(5):
            for c in range(5):
                t = TILES[str(state.site[r][c])]
                assert state.face_up[r][c] == (t.mark not in hidden_marks)


def test_ruling_reconstructed_values_are_marked() -> None:
    assert dict(TILES["4311"].confidence)["face"] == "reconstructed"
    assert TILES["4311"].type == "factory" and TILES["4311"].energy == 3
    squares = [t for t in TILES.values() if t.square]
    assert squares and all(dict(t.confidence)["player_mark"] == "reconstructed" for t in squares)


def test_ruling_left_out_monument_is_face_down_and_gives_nothing() -> None:
    state = fresh(2, "expert", seed=3)
    start_round(state, 4)
    spot = next((r, c) for r in range(5) for c in range(5)
                if TILES[str(state.site[r][c])].type == "monument")
    assert not state.face_up[spot[0]][spot[1]]
    seat = _first_seat(state)
    row, col = spot[0] + 1, spot[1] + 1
    events = GAME.apply(state, seat, Take(col, f"L{row}"))
    assert events[0].data["what"] == "face_down" and events[0].data["tile"] is None
    assert state.urbanist == (row, col) and state.phase == "take"


def test_ruling_squares_option() -> None:
    for mode, count in (("classic", 4), ("expert", 5)):
        with_squares = all_tiles(mode, True)
        assert sum(TILES[t].square for t in with_squares) == count
        assert not any(TILES[t].square for t in all_tiles(mode, False))
    assert GAME.default_options()["squares"] is False


# --- Shared rulings: taking and placing ------------------------------------------------

def test_ruling_twenty_slots_one_architect_each() -> None:
    state = fresh(4, seed=4)
    seat = _first_seat(state)
    slots = {a.slot for a in legal_takes(state, seat)}
    assert len(slots) == 20
    GAME.apply(state, seat, Take(1, "T3"))
    if state.phase == "place":
        GAME.apply(state, seat, Discard())
    nxt = _first_seat(state)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, nxt, Take(2, "T3"))
    assert err.value.code in ("slot_taken", "urbanist_line")


def test_ruling_urbanist_blocks_the_whole_line() -> None:
    state = fresh(4, seed=5)
    seat = _first_seat(state)
    on_site(state, 1, 1, None)
    GAME.apply(state, seat, Take(1, "L1"))  # Urbanist to row 1, column 1
    nxt = _first_seat(state)
    slots = {a.slot for a in legal_takes(state, nxt)}
    # R1 would target (1, 5) with architect 1, far from the Urbanist: still closed (Q2).
    assert not {"L1", "R1", "T1", "B1"} & slots
    assert {"L2", "R2", "T2", "B2"} <= slots


def test_ruling_no_urbanist_restriction_at_a_rounds_start() -> None:
    state = fresh(4, seed=6)
    assert state.urbanist is None
    assert len(legal_takes(state, _first_seat(state))) == 4 * 20


def test_ruling_face_down_tile_gives_nothing() -> None:
    state = fresh(2, seed=7)
    seat = _first_seat(state)
    hidden = tile_id("tower_block", face_up_with=(4,))
    on_site(state, 3, 3, hidden, face_up=False)
    events = GAME.apply(state, seat, Take(3, "T3"))
    assert events[0].data["what"] == "face_down"
    assert state.site[2][2] == hidden and not state.face_up[2][2]
    assert state.urbanist == (3, 3) and 3 not in state.players[seat].architects


def test_ruling_expert_placement_space_or_district() -> None:
    state = fresh(4, "expert", seed=8)
    seat = _first_seat(state)
    on_site(state, 1, 4, tile_id("shop", mode="expert"))
    GAME.apply(state, seat, Take(4, "L1"))
    board = state.board
    assert board.space_numbers is not None
    allowed = {(a.row, a.col) for a in legal_placements(state, seat) if isinstance(a, Place)}
    expected = {(r, c) for r in range(1, 5) for c in range(1, 6)
                if board.space_numbers[r - 1][c - 1] == 4 or board.districts[r - 1][c - 1] == 4}
    assert allowed == expected and len(expected) == 8


def test_ruling_stacking_only_like_on_like_up_to_the_limit() -> None:
    state = fresh(4, "expert", seed=9)
    seat = _first_seat(state)
    office = tile_id("office", mode="expert")
    on_site(state, 1, 2, office)
    towers = [t for t in all_tiles("expert", False) if TILES[t].type == "tower_block"]
    offices = [t for t in all_tiles("expert", False) if TILES[t].type == "office" and t != office]
    build(state, seat, 1, 1, towers[:1])  # space number 2: in reach of architect 2
    build(state, seat, 3, 2, offices[:1])  # space number 2
    build(state, seat, 2, 3, offices[1:6])  # space number 2, already 5 floors
    build(state, seat, 4, 4, offices[6:7])  # not in reach, 1 floor: floor 2 = architect 2
    GAME.apply(state, seat, Take(2, "L1"))
    allowed = {(a.row, a.col) for a in legal_placements(state, seat) if isinstance(a, Place)}
    assert (1, 1) not in allowed  # an office never goes on a tower block
    assert (3, 2) in allowed and (4, 4) in allowed
    assert (2, 3) not in allowed  # 5 floors is the expert limit
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, seat, Place(2, 3))
    assert err.value.code == "stack_full"


def test_ruling_mayor_unplaced_keeps_first_player() -> None:
    state = fresh(4, seed=10)
    first = state.first
    mayor_tile = tile_id("tower_block", mayor=True)
    on_site(state, 1, 1, mayor_tile)
    GAME.apply(state, first, Take(1, "T1"))
    GAME.apply(state, first, Discard())
    while state.round == 1:
        s = _first_seat(state)
        GAME.apply(state, s, Discard() if state.phase == "place" else legal_takes(state, s)[0])
    assert state.first == first


def test_ruling_stacked_mayor_tile_still_hands_over_the_mayor() -> None:
    state = fresh(4, seed=11)
    seat = (state.first + 1) % 4
    on_site(state, 5, 5, None)
    GAME.apply(state, state.first, Take(1, "R5"))
    towers = [t for t in round_tiles("classic", False, 2) if TILES[t].type == "tower_block"]
    build(state, seat, 1, 1, towers[:1])
    on_site(state, 2, 1, tile_id("tower_block", mayor=True))
    GAME.apply(state, seat, Take(2, "T1"))
    events = GAME.apply(state, seat, Place(1, 1))  # floor 2 with architect 2
    assert events[0].data["floor"] == 2 and state.mayor == seat
    assert state.players[seat].inhabitants == 1  # the new floor's resources are gained (Q5)


# --- Shared rulings: end of game -------------------------------------------------------

def test_ruling_office_needs_both_resources() -> None:
    a = allocate(make_city("expert", [B(1, 1, "office", 3)], 1, 0))
    assert a.active == (False,)
    assert a.score["penalty_inhabitants"] == -1  # the lone inhabitant counts as unplaced


def test_ruling_inactive_buildings_are_removed_before_scoring() -> None:
    # Two towers next to a park, one energy: the park counts only the activated tower.
    city = make_city("classic", [B(1, 2, "park", 0), B(1, 1, "tower_block", 2),
                                 B(1, 3, "tower_block", 1)], 0, 1)
    a = allocate(city)
    assert a.active == (True, True, False)
    assert a.score["parks"] == 2 and a.score["tower_blocks"] == 3


def test_ruling_empty_shop_still_counts_for_adjacency() -> None:
    city = make_city("classic", [B(1, 1, "factory"), B(1, 2, "shop")], 1, 1)
    a = allocate(city)
    assert a.active == (True, True) and a.customers == (0, 0)
    assert a.score["factories"] == 2


def test_ruling_allocation_prefers_more_inhabitants_placed_on_equal_points() -> None:
    city = make_city("expert", [B(1, 2, "harbor", vp=1), B(1, 3, "monument", 0),
                                B(2, 1, "park", 0), B(2, 2, "harbor", vp=3)], 2, 3)
    both = evaluate(city, 0b1111)
    one = evaluate(city, 0b1000)  # only the second harbor (parks and monuments always stay)
    assert both is not None and one is not None
    assert both.total == one.total == 0
    assert allocate(city).inhabitants_placed == 2 == both.inhabitants_placed


def test_ruling_allocation_prefers_fewer_empty_spaces_next() -> None:
    city = make_city("classic", [B(1, 2, "shop"), B(1, 3, "factory"), B(2, 1, "factory")], 3, 1)
    a = allocate(city)
    assert a.total == 4 and a.active == (True, True, False)


def test_ruling_allocation_prefers_earlier_spaces_last() -> None:
    city = make_city("classic", [B(1, 1, "harbor"), B(4, 4, "factory")], 1, 0)
    assert allocate(city).active == (True, False)


def test_ruling_winner_tie_breaks() -> None:
    def alloc(inhabitants: int, spaces: list[tuple[int, int]]) -> Allocation:
        return allocate(make_city("classic", [B(r, c, "harbor") for r, c in spaces],
                                  inhabitants, 0))

    a = alloc(2, [(1, 1), (3, 3)])  # 0 points, 2 placed, 14 empty
    b = alloc(1, [(1, 1)])  # 0 points, 1 placed, 15 empty
    c = alloc(2, [(1, 1), (3, 3)])
    assert ranks([a, b, c]) == [1, 3, 1]


def test_ruling_supplies_unlimited() -> None:
    state = fresh(4, seed=12)
    seat = _first_seat(state)
    state.players[seat].inhabitants = 65
    on_site(state, 1, 1, tile_id("tower_block", inhabitants=3))
    GAME.apply(state, seat, Take(1, "T1"))
    GAME.apply(state, seat, Place(1, 1))
    assert state.players[seat].inhabitants == 68


# --- The engine's own rulings (engine/quadropolis/RULINGS.md) -------------------------------

def test_ruling_turn_in_two_decisions() -> None:
    state = fresh(4, seed=13)
    seat = _first_seat(state)
    on_site(state, 1, 1, tile_id("park"))
    assert GAME.pending(state).waiting == {seat: "take"}
    GAME.apply(state, seat, Take(1, "T1"))
    assert GAME.pending(state).waiting == {seat: "place"}
    assert all(not isinstance(a, Take) for a in GAME.legal_actions(state, seat))
    GAME.apply(state, seat, Place(1, 1))
    assert seat not in GAME.pending(state).waiting


def test_ruling_urbanist_free_only_before_it_is_placed() -> None:
    state = fresh(4, seed=14)
    seat = _first_seat(state)
    on_site(state, 2, 2, None)
    GAME.apply(state, seat, Take(2, "L2"))
    assert len({a.slot for a in legal_takes(state, _first_seat(state))}) == 20 - 1 - 3


def test_ruling_no_eligible_space_means_discard_only() -> None:
    state = fresh(4, seed=15)
    seat = _first_seat(state)
    shops = [t for t in all_tiles("classic", False) if TILES[t].type == "shop"]
    for k in range(4):
        build(state, seat, 1, k + 1, [shops[k]])
        build(state, seat, k + 1, 1, [shops[k]])
    on_site(state, 1, 1, tile_id("park"))
    GAME.apply(state, seat, Take(1, "T1"))
    assert legal_placements(state, seat) == [Discard()]


def test_ruling_office_groups_count_buildings_not_floors() -> None:
    tall = allocate(make_city("expert", [B(1, 1, "office", 5)], 1, 1))
    assert tall.score["offices"] == 10  # one building of 5 floors: row 1, not row 5


def test_ruling_mayor_kept_by_its_holder() -> None:
    state = fresh(4, seed=16)
    holder = state.first
    on_site(state, 1, 1, tile_id("tower_block", mayor=True))
    GAME.apply(state, holder, Take(1, "T1"))
    events = GAME.apply(state, holder, Place(1, 1))
    assert events[0].data["mayor"] is True and events[0].data["new_mayor"] is False
    assert state.mayor == holder


def test_ruling_ranks_follow_the_tie_breaks() -> None:
    state = fresh(2, seed=17)
    harbors = [t for t in all_tiles("classic", False) if TILES[t].type == "harbor"
               and TILES[t].vp == 0]
    build(state, 0, 1, 1, [harbors[0]])
    build(state, 1, 1, 1, [harbors[1]])
    build(state, 1, 3, 3, [harbors[2]])
    state.players[0].inhabitants = 1
    state.players[1].inhabitants = 2
    state.phase = "over"
    result = outcome(state)
    assert [s.total for s in result.standings] == [0, 0]
    assert [s.rank for s in result.standings] == [2, 1]


def test_ruling_the_outcome_shows_the_allocation() -> None:
    state = fresh(2, seed=18)
    build(state, 0, 1, 1, [tile_id("factory")])
    state.players[0].inhabitants = 0
    state.phase = "over"
    lines = {ln.key: ln for ln in outcome(state).standings[0].lines}
    assert lines["factories"].detail == {"active": 0, "removed": 1}
    assert lines["tiebreak"].detail["removed"] == [{"row": 1, "col": 1, "type": "factory"}]
    assert lines["tiebreak"].detail["allocation"][0]["active"] is False
    final = GAME.view(state, None)["final"]
    assert final[0]["buildings"][0]["active"] is False


def test_ruling_expert_architects_remember_who_played_them() -> None:
    state = fresh(3, "expert", seed=19)
    seat = _first_seat(state)
    on_site(state, 1, 1, None)
    GAME.apply(state, seat, Take(1, "T1"))
    view = GAME.view(state, None)
    assert view["slots"][0] == {"slot": "T1", "side": "top", "line": 1, "architect": 1,
                                "seat": seat, "target": [1, 1]}
    assert view["architects"] == {"pool": {"1": 2, "2": 3, "3": 3, "4": 3, "5": 3}}


def test_ruling_text_input_is_bounded() -> None:
    with pytest.raises(ParseError) as err:
        parse("x" * 201)
    assert err.value.code == "too_long"
