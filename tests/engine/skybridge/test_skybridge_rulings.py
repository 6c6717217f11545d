"""One test (or a few) per ruling S1-S7 of rules/FINDINGS.md, named after it."""

from __future__ import annotations

import pytest
from skyhelp import GAME, place, play, scenario, snapshot, texts

from engine.core.conformance import assert_refused_untouched
from engine.core.errors import IllegalAction, NotYourTurn
from engine.skybridge.actions import Place
from engine.skybridge.pieces import Piece

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3


def refused(state: object, seat: int, text: str) -> str:
    """Assert that the move is refused without touching the state; return the reason."""
    assert_refused_untouched(GAME, state, seat, place(text))
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, place(text))  # type: ignore[arg-type]
    return info.value.message


# S1: contact is vertical only.

ALL_AT_THREE = {
    1: "R3", 2: "Y3", 3: "G3", 4: "B3", 5: "Y3", 6: "G3", 7: "B3", 8: "Y3", 9: "G3"
}  # fmt: skip


def test_s1_no_piece_on_its_own_colour() -> None:
    state = scenario(4, ALL_AT_THREE, turn_seat=RED)
    legal = texts(state, RED)
    assert "3@1" not in legal and "2@1" not in legal and "roof 1" not in legal
    assert "bridge 1-2" not in legal and "bridge 1-4" not in legal
    assert "may not rest on a red piece" in refused(state, RED, "3@1")
    assert "may not rest on a red piece" in refused(state, RED, "roof 1")
    assert "may not rest on a red piece" in refused(state, RED, "bridge 1-2")


def test_s1_side_by_side_is_not_contact() -> None:
    # Foundations 2 and 4 stand next to the red tower 1: red may still build there.
    state = scenario(4, ALL_AT_THREE, turn_seat=RED)
    legal = texts(state, RED)
    assert {"3@2", "3@4", "roof 2", "bridge 2-3", "bridge 4-5"} <= set(legal)


BRIDGE_AT_FOUR = {
    1: "Y3 R=", 2: "G3 R=", 3: "Y2 G2", 4: "B2 Y2", 5: "R2 B2",
    6: "B2 G2", 7: "Y2 B2", 8: "G2 Y2", 9: "R2 G2",
}  # fmt: skip


def test_s1_a_bridge_touches_what_rests_on_it() -> None:
    red = scenario(4, BRIDGE_AT_FOUR, turn_seat=RED)
    legal = texts(red, RED)
    assert {"3@3", "3@9", "roof 3"} <= set(legal)
    assert not {"3@1", "3@2", "roof 1", "roof 2"} & set(legal)
    yellow = scenario(4, BRIDGE_AT_FOUR, turn_seat=YELLOW)
    assert {"3@1", "3@2", "roof 1", "roof 2"} <= set(texts(yellow, YELLOW))


# S2: blocks go on the lowest legal tower of the whole board.


def test_s2_lowest_level_is_per_board() -> None:
    layout = {1: "Y2", 2: "Y2", 3: "Y2", 4: "G2", 5: "G2", 6: "G2", 7: "B2", 8: "B2"}
    state = scenario(4, layout, turn_seat=RED)
    blocks = [t for t in texts(state, RED) if "@" in t]
    assert blocks == ["3@9", "2@9"]
    reason = refused(state, RED, "3@1")
    assert "lowest" in reason and "foundation 9" in reason


def test_s2_own_colour_at_the_lowest_level_sends_you_up() -> None:
    layout = {
        1: "R2", 2: "R2", 3: "Y3", 4: "G3", 5: "R3", 6: "Y3", 7: "G3", 8: "R3", 9: "Y3"
    }  # fmt: skip
    red = scenario(4, layout, turn_seat=RED)
    # Red's lowest tops (1, 2) are red, so red goes up to height 3, but not on red 5 or 8.
    assert [t for t in texts(red, RED) if t.startswith("3@")] == ["3@3", "3@4", "3@6", "3@7", "3@9"]
    yellow = scenario(4, layout, turn_seat=YELLOW)
    # Yellow has several lowest towers to choose from, both red-topped at height 2.
    assert [t for t in texts(yellow, YELLOW) if "@" in t] == ["3@1", "3@2", "2@1", "2@2"]


def test_s2_roofed_towers_do_not_count_as_lowest() -> None:
    layout = {1: "Y2 G^", 2: "Y3", 3: "G3", 4: "B3", 5: "Y3", 6: "G3", 7: "B3", 8: "Y3", 9: "B3"}
    state = scenario(4, layout, turn_seat=RED)
    assert [t for t in texts(state, RED) if t.startswith("2@")] == [f"2@{f}" for f in range(2, 10)]
    assert "has a roof" in refused(state, RED, "2@1")


def test_s2_first_blocks_fill_all_nine_foundations() -> None:
    state = GAME.setup(4, {}, 7)
    seat = min(GAME.pending(state).waiting)
    assert texts(state, seat) == [f"3@{f}" for f in range(1, 10)] + [f"2@{f}" for f in range(1, 10)]
    # In any game, while a foundation is empty every block lands on an empty one.
    for seed in range(10):
        state = GAME.setup(3, {}, seed)
        rng_pick = seed
        while any(not t for t in state.board.towers):
            seat = min(GAME.pending(state).waiting)
            legal = GAME.legal_actions(state, seat)
            action = legal[rng_pick % len(legal)]
            rng_pick = rng_pick * 7 + 3
            empty_before = [f for f in range(1, 10) if not state.board.tower(f)]
            GAME.apply(state, seat, action)
            assert isinstance(action, Place)
            if action.kind in ("block3", "block2"):
                assert action.at[0] in empty_before


# S3: bridges.

BRIDGE_TABLE = {
    1: "Y3", 2: "G3", 3: "R3", 4: "B3", 5: "Y3 B2", 6: "G3", 7: "B3", 8: "Y3"
}  # fmt: skip


def test_s3_bridge_needs_two_adjacent_equal_open_towers() -> None:
    state = scenario(4, BRIDGE_TABLE, turn_seat=RED)
    bridges = [t for t in texts(state, RED) if t.startswith("bridge")]
    assert bridges == ["bridge 1-2", "bridge 1-4", "bridge 4-7", "bridge 7-8"]
    assert "side by side" in refused(state, RED, "bridge 1-5")
    assert "side by side" in refused(state, RED, "bridge 1-3")
    assert "heights 3 and 5" in refused(state, RED, "bridge 2-5")
    assert "9 is empty" in refused(state, RED, "bridge 8-9")
    assert "red piece" in refused(state, RED, "bridge 2-3")


def test_s3_bridge_ignores_the_lowest_level_and_raises_both_towers() -> None:
    state = scenario(4, BRIDGE_TABLE, turn_seat=RED)
    # Foundation 9 is empty, so blocks must go there, yet the bridge may go at height 3.
    assert [t for t in texts(state, RED) if "@" in t] == ["3@9", "2@9"]
    events = play(state, RED, "bridge 1-2")
    assert events[0]["kind"] == "bridge_placed"
    assert events[0]["data"] == {"seat": 0, "colour": "red", "foundations": [1, 2], "height": 4}
    assert state.board.height(1) == state.board.height(2) == 4
    assert state.board.top(1) == state.board.top(2) == Piece("bridge", "red")
    assert state.supply["red"]["bridge"] == 0


OVERLAP = {1: "Y3 G=", 2: "B3 G=", 3: "Y2 B2", 4: "B2 Y2", 6: "G2 Y2 B^"}


def test_s3_no_exact_superposition_but_partial_overlap() -> None:
    state = scenario(4, OVERLAP, turn_seat=RED)
    bridges = [t for t in texts(state, RED) if t.startswith("bridge")]
    assert bridges == ["bridge 1-4", "bridge 2-3"]
    assert "exactly on the green bridge" in refused(state, RED, "bridge 1-2")
    assert "has a roof" in refused(state, RED, "bridge 3-6")
    play(state, RED, "bridge 2-3")
    assert [p.kind for p in state.board.tower(2)] == ["block3", "bridge", "bridge"]
    assert state.board.height(2) == state.board.height(3) == 5
    # Yellow may not lie exactly on the red bridge either, but may roof one of its ends.
    assert "exactly on the red bridge" in refused(state, YELLOW, "bridge 2-3")
    assert "roof 2" in texts(state, YELLOW)


# S4: roofs.


def test_s4_roof_on_a_bridge_end_closes_only_that_tower() -> None:
    state = scenario(4, {1: "Y3 R=", 2: "G3 R="}, turn_seat=YELLOW)
    legal = texts(state, YELLOW)
    # Roofs ignore the lowest level (empty foundations are lower) but not empty ones.
    assert {"roof 1", "roof 2"} <= set(legal)
    assert "roof 3" not in legal
    assert "foundation 3 is empty" in refused(state, YELLOW, "roof 3")
    play(state, YELLOW, "roof 1")
    assert state.board.roofed(1) and not state.board.roofed(2)
    assert "roof 2" in texts(state, GREEN)
    assert "has a roof" in refused(state, GREEN, "roof 1")


def test_s4_no_roof_and_no_bridge_on_an_empty_board() -> None:
    state = GAME.setup(2, {}, 3)
    seat = min(GAME.pending(state).waiting)
    assert all("@" in t for t in texts(state, seat))


# S5: scoring (more cases, computed by hand, in test_skybridge_scoring.py).


def test_s5_bridge_counts_in_both_towers_roof_counts_nothing() -> None:
    state = scenario(4, {1: "Y3 R= G2 R^", 2: "B3 R= Y2"}, turn_seat=RED)
    assert state.board.height(1) == 6 and state.board.height(2) == 6
    view = GAME.view(state, None)
    # Red's roof on 1 (6 storeys) plus, through red's bridge, tower 2 (6 storeys).
    assert view["score_estimate"]["totals"] == [12, 0, 0, 0]


# S6: variants (more in test_skybridge_variants.py).


def test_s6_three_players_get_two_fourth_colour_blocks_each() -> None:
    state = GAME.setup(3, {}, 0)
    assert state.extra == [{"block3": 1, "block2": 1}] * 3
    assert "blue" not in state.supply
    seat = min(GAME.pending(state).waiting)
    assert "x3@5" in texts(state, seat) and "x2@5" in texts(state, seat)


def test_s6_two_players_play_two_colours_in_fixed_rotation() -> None:
    state = GAME.setup(2, {}, 0)
    a = state.first
    b = 1 - a
    expected = [(a, 0), (b, 0), (a, 1), (b, 1)] * 2
    colours = {0: ["red", "green"], 1: ["yellow", "blue"]}
    for seat, index in expected:
        assert GAME.view(state, None)["turn"]["colours"] == [colours[seat][index]]
        assert set(GAME.pending(state).waiting) == {seat}
        events = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        assert events[0].data["colour"] == colours[seat][index]


# S7: turn order, skipping and the end.


def test_s7_random_first_player_then_clockwise() -> None:
    firsts = set()
    for seed in range(40):
        state = GAME.setup(4, {}, seed)
        firsts.add(state.first)
        assert set(GAME.pending(state).waiting) == {state.first}
        GAME.apply(state, state.first, GAME.legal_actions(state, state.first)[0])
        assert set(GAME.pending(state).waiting) == {(state.first + 1) % 4}
    assert firsts == {0, 1, 2, 3}


STUCK = {
    1: "Y3 R^", 2: "G3 Y^", 3: "B3 G^", 4: "R3 B^", 5: "Y3 R^",
    6: "G3 Y^", 7: "B3 G^", 8: "Y2 R2", 9: "Y2 G2",
}  # fmt: skip


def test_s7_a_player_who_cannot_place_is_skipped_then_plays_again() -> None:
    state = scenario(4, STUCK, turn_seat=BLUE)
    events = play(state, BLUE, "roof 9")
    assert [e["kind"] for e in events] == ["roof_placed", "turn_skipped"]
    assert events[1]["data"] == {"seat": RED, "colours": ["red"], "eliminated": False}
    assert set(GAME.pending(state).waiting) == {YELLOW}
    play(state, YELLOW, "3@8")
    play(state, GREEN, "2@8")
    play(state, BLUE, "3@8")
    # Blue's block covered red's top: red can place again.
    assert set(GAME.pending(state).waiting) == {RED}
    assert texts(state, RED) == ["3@8", "2@8"]


def test_s7_elimination_option_keeps_a_stuck_player_out() -> None:
    state = scenario(4, STUCK, turn_seat=BLUE, options={"elimination": True})
    events = play(state, BLUE, "roof 9")
    assert events[1]["data"] == {"seat": RED, "colours": ["red"], "eliminated": True}
    play(state, YELLOW, "3@8")
    play(state, GREEN, "2@8")
    play(state, BLUE, "3@8")
    assert set(GAME.pending(state).waiting) == {YELLOW}
    assert texts(state, RED) == []
    assert GAME.view(state, None)["players"][RED]["eliminated"] is True


def test_s7_game_ends_when_nobody_can_place() -> None:
    state = scenario(4, STUCK, turn_seat=BLUE)
    # Only red keeps pieces, and the one tower left open will have a red top.
    for colour in ("yellow", "green"):
        state.supply[colour] = {"block3": 0, "block2": 0, "bridge": 0, "roof": 0}
    state.supply["blue"] = {"block3": 0, "block2": 0, "bridge": 0, "roof": 1}
    assert GAME.outcome(state) is None
    events = play(state, BLUE, "roof 9")
    assert [e["kind"] for e in events] == ["roof_placed", "game_over"]
    assert state.supply["red"]["block3"] > 0
    outcome = GAME.outcome(state)
    assert outcome is not None
    # red: 1 and 5 (3 each); yellow: 2 and 6 (3 each); green: 3 and 7; blue: 4 (3) and 9 (4).
    assert [s.total for s in outcome.standings] == [6, 6, 6, 7]
    assert events[1]["data"] == {"totals": [6, 6, 6, 7], "winners": [BLUE]}
    assert dict(GAME.pending(state).waiting) == {}
    assert all(GAME.legal_actions(state, s) == [] for s in range(4))
    with pytest.raises(NotYourTurn):
        GAME.apply(state, RED, place("3@8"))


def test_s7_tie_is_a_shared_win() -> None:
    state = scenario(4, {1: "Y3 G3 R^", 2: "B3 G3 Y^"}, turn_seat=RED)
    state.turn = None
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert [s.total for s in outcome.standings] == [6, 6, 0, 0]
    assert [s.rank for s in outcome.standings] == [1, 1, 3, 3]
    assert {s.seat for s in outcome.winners} == {RED, YELLOW}


def test_refusals_leave_the_state_untouched() -> None:
    state = scenario(4, BRIDGE_TABLE, turn_seat=RED)
    before = snapshot(state)
    for text in ("3@1", "roof 9", "bridge 1-5", "bridge 2-5", "x3@9"):
        assert_refused_untouched(GAME, state, RED, place(text))
    for seat in (YELLOW, GREEN, BLUE):
        with pytest.raises(NotYourTurn):
            GAME.apply(state, seat, place("3@9"))
    state.supply["red"]["block3"] = 0
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="no red 3-storey block left"):
        GAME.apply(state, RED, place("3@9"))
    assert snapshot(state) == before


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("3@1", "not_lowest"),
        ("bridge 1-5", "not_adjacent"),
        ("bridge 2-5", "unequal"),
        ("bridge 2-3", "same_colour"),
        ("bridge 8-9", "bridge_on_empty"),
        ("roof 9", "roof_on_empty"),
        ("x3@9", "no_fourth_colour"),
    ],
)
def test_refusals_carry_a_stable_code(text: str, code: str) -> None:
    state = scenario(4, BRIDGE_TABLE, turn_seat=RED)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, RED, place(text))
    assert info.value.code == code
    assert "3@9" in info.value.params["legal"]


TWO_PLAYER_STUCK = {
    1: "Y3 R^", 2: "G3 R^", 3: "B3 Y^", 4: "R3 G^", 5: "Y3 G^",
    6: "R3 B^", 7: "G3 B^", 8: "R2 G2", 9: "B2",
}  # fmt: skip


def test_s7_two_player_elimination_is_per_colour() -> None:
    # Seat 0 plays red and green, seat 1 yellow and blue; rotation red, yellow, green, blue.
    state = scenario(2, TWO_PLAYER_STUCK, turn_seat=1, turn_colour="yellow",
                     options={"elimination": True})  # fmt: skip
    events = play(state, 1, "roof 9")
    # Green's only open tower (8) has a green top: green is out, red is not.
    assert events[1]["data"] == {"seat": 0, "colours": ["green"], "eliminated": True}
    assert GAME.view(state, None)["turn"]["colours"] == ["blue"]
    play(state, 1, "3@8")
    assert GAME.view(state, None)["turn"]["colours"] == ["red"]
    play(state, 0, "2@8")
    play(state, 1, "3@8")
    # Green could rest on yellow now, but it is out: blue plays next.
    assert GAME.view(state, None)["turn"]["colours"] == ["blue"]
    view = GAME.view(state, None)
    assert [o["out"] for o in view["order"]] == [False, False, True, False]
    assert view["players"][0]["colours_out"] == ["green"]
    assert view["players"][0]["eliminated"] is False
