"""The 3-player fourth colour and the 2-player colour rotation (S6)."""

from __future__ import annotations

import pytest
from skyhelp import GAME, place, play, scenario, texts

from engine.core.errors import IllegalAction, ParseError
from engine.skybridge.actions import Place
from engine.skybridge.pieces import Piece
from engine.skybridge.scoring import outcome

RED, YELLOW, GREEN = 0, 1, 2

# Tower 1 is a blue (fourth-colour) 2-storey block; every other tower is 3 high.
LOW_BLUE = {
    1: "B2", 2: "R3", 3: "Y3", 4: "G3", 5: "R3", 6: "Y3", 7: "G3", 8: "R3", 9: "Y3"
}  # fmt: skip


def test_fourth_colour_blocks_follow_the_lowest_level_rule_as_that_colour() -> None:
    state = scenario(3, LOW_BLUE, turn_seat=RED)
    legal = texts(state, RED)
    # Red's own blocks: the lowest tower (1, blue top) is open to red.
    assert [t for t in legal if t.startswith(("3@", "2@"))] == ["3@1", "2@1"]
    # The blue blocks may not rest on blue, so they go up to height 3, even on red tops.
    assert [t for t in legal if t.startswith("x3@")] == [f"x3@{f}" for f in range(2, 10)]
    with pytest.raises(IllegalAction, match="may not rest on a blue piece"):
        GAME.apply(state, RED, Place("block3", (1,), None, True))


def test_fourth_colour_block_may_rest_on_its_players_own_colour() -> None:
    state = scenario(3, LOW_BLUE, turn_seat=RED)
    events = play(state, RED, "x3@2")
    assert events[0]["data"] == {
        "seat": RED,
        "colour": "blue",
        "storeys": 3,
        "foundation": 2,
        "extra": True,
        "height": 6,
    }
    assert state.board.tower(2) == [Piece("block3", "red"), Piece("block3", "blue")]
    assert state.extra == [
        {"block3": 0, "block2": 1},
        {"block3": 1, "block2": 1},
        {"block3": 1, "block2": 1},
    ]
    # Each seat has its own: red's is gone, yellow still has one.
    assert "x3@" not in " ".join(texts(state, RED))
    assert any(t.startswith("x3@") for t in texts(state, YELLOW))


def test_fourth_colour_blocks_score_for_whoever_roofs_the_tower() -> None:
    # Blue blocks under a yellow roof: 2 + 3 + 3 = 8 storeys for yellow, whoever placed them.
    result = outcome(scenario(3, {1: "B2 R3 B3 Y^"}).board, 3)
    assert [s.total for s in result.standings] == [0, 8, 0]


def test_fourth_colour_text_forms() -> None:
    state = scenario(3, LOW_BLUE, turn_seat=RED)
    extra = Place("block3", (2,), None, True)
    assert extra.text() == "x3@2"
    assert GAME.parse_action(state, RED, "x3@2") == extra
    assert GAME.parse_action(state, RED, "blue 3@2") == extra
    assert GAME.parse_action(state, RED, "X3 @ 2") == extra
    with pytest.raises(ParseError, match="Only blocks"):
        GAME.parse_action(state, RED, "blue roof 2")
    four = scenario(4, LOW_BLUE, turn_seat=RED)
    with pytest.raises(ParseError, match="only in the 3-player game"):
        GAME.parse_action(four, RED, "x3@2")


def test_choose_colour_lets_either_colour_play_each_turn() -> None:
    state = GAME.setup(2, {"choose_colour": True}, 0)
    a = state.first
    legal = texts(state, a)
    mine = ["red", "green"] if a == 0 else ["yellow", "blue"]
    assert f"{mine[0]} 3@1" in legal and f"{mine[1]} 3@1" in legal
    with pytest.raises(ParseError, match="Both your colours"):
        GAME.parse_action(state, a, "3@1")
    play(state, a, f"{mine[1]} 3@1")
    assert state.board.top(1) == Piece("block3", mine[1])
    # Seats simply alternate: A B A B.
    b = 1 - a
    assert set(GAME.pending(state).waiting) == {b}
    play(state, b, texts(state, b)[0])
    assert set(GAME.pending(state).waiting) == {a}
    # The colour just on foundation 1 can no longer go there; the other one can.
    assert f"{mine[1]} roof 1" not in texts(state, a)
    assert f"{mine[0]} roof 1" in texts(state, a)
    assert GAME.parse_action(state, a, "roof 1") == Place("roof", (1,), mine[0])


def test_choose_colour_needs_a_colour_in_the_action() -> None:
    state = GAME.setup(2, {"choose_colour": True}, 0)
    a = state.first
    with pytest.raises(IllegalAction, match="Say which colour"):
        GAME.apply(state, a, place("3@1"))
    other = ["yellow", "blue"] if a == 0 else ["red", "green"]
    with pytest.raises(IllegalAction, match="You play"):
        GAME.apply(state, a, Place("block3", (1,), other[0]))
    with pytest.raises(ParseError, match="You play"):
        GAME.parse_action(state, a, f"{other[0]} 3@1")


def test_fixed_rotation_colour_prefix_must_match_the_turn() -> None:
    state = scenario(2, {}, turn_seat=0, turn_colour="green")
    assert GAME.parse_action(state, 0, "green 3@1") == place("3@1")
    assert GAME.parse_action(state, 0, "g: 3@1") == place("3@1")
    with pytest.raises(ParseError, match="This turn you play green"):
        GAME.parse_action(state, 0, "red 3@1")
    events = play(state, 0, "3@1")
    assert events[0]["data"]["colour"] == "green"
