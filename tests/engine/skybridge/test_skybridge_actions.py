"""Text and JSON forms of actions, parse errors, and option validation."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from skyhelp import GAME, scenario

from engine.core.errors import BadOptions, ParseError
from engine.skybridge.actions import Place, parse_text
from engine.skybridge.board import BRIDGE_SPANS
from engine.skybridge.pieces import COLOURS

foundation = st.integers(min_value=1, max_value=9)
colour = st.one_of(st.none(), st.sampled_from(COLOURS))
actions = st.one_of(
    st.builds(
        lambda k, f, c, x: Place(k, (f,), None if x else c, x),
        st.sampled_from(["block3", "block2"]),
        foundation,
        colour,
        st.booleans(),
    ),
    st.builds(lambda f, c: Place("roof", (f,), c), foundation, colour),
    st.builds(lambda span, c: Place("bridge", span, c), st.sampled_from(BRIDGE_SPANS), colour),
)


@given(actions)
def test_text_and_json_round_trips(action: Place) -> None:
    typed = parse_text(action.text())
    assert typed.place == Place(action.kind, action.at, None, action.extra)
    assert typed.colour_word == action.colour
    assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action


def test_text_forms() -> None:
    assert Place("block3", (5,)).text() == "3@5"
    assert Place("block2", (5,)).text() == "2@5"
    assert Place("block2", (5,), None, True).text() == "x2@5"
    assert Place("bridge", (5, 6)).text() == "bridge 5-6"
    assert Place("roof", (5,)).text() == "roof 5"
    assert Place("roof", (5,), "blue").text() == "blue roof 5"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (" 3 @ 5 ", Place("block3", (5,))),
        ("BRIDGE 6-5", Place("bridge", (5, 6))),
        ("bridge 5 6", Place("bridge", (5, 6))),
        ("pont 5–6", Place("bridge", (5, 6))),
        ("toit 5", Place("roof", (5,))),
        ("Roof5", Place("roof", (5,))),
    ],
)
def test_lenient_spellings(text: str, expected: Place) -> None:
    state = scenario(4, {5: "Y3", 6: "G3"}, turn_seat=0)
    assert GAME.parse_action(state, 0, text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("build a tower", "could not read"),
        ("4@5", "could not read"),
        ("3@10", "no foundation 10"),
        ("bridge 5-5", "two different foundations"),
        ("purple 3@5", "not a colour"),
        ("blue 3@5", "You play red"),
    ],
)
def test_parse_errors_say_what_is_wrong_and_what_is_legal(text: str, message: str) -> None:
    state = GAME.setup(4, {}, 0)
    state.first, state.turn = 0, 0
    with pytest.raises(ParseError) as info:
        GAME.parse_action(state, 0, text)
    assert message in info.value.message
    assert "Legal now: 3@1, 3@2" in info.value.message
    assert info.value.params["legal"][0] == "3@1"


def test_from_json_rejects_garbage() -> None:
    for data in (
        {"type": "place", "kind": "tower", "at": [1]},
        {"type": "pass"},
        {"type": "place", "kind": "roof", "at": [1], "colour": "purple"},
        {"type": "place", "kind": "bridge", "at": [1]},
    ):
        with pytest.raises(ParseError) as info:
            GAME.action_from_json(data)
        assert info.value.code == "bad_json", data


def test_options_and_seat_counts_are_validated() -> None:
    assert GAME.default_options() == {"choose_colour": False, "elimination": False}
    for seats in (1, 5):
        with pytest.raises(BadOptions, match="2 to 4 players"):
            GAME.setup(seats, {}, 0)
    with pytest.raises(BadOptions, match="Unknown"):
        GAME.setup(4, {"turbo": True}, 0)
    with pytest.raises(BadOptions, match="true/false"):
        GAME.setup(4, {"elimination": "yes"}, 0)
    with pytest.raises(BadOptions, match="2-player game"):
        GAME.setup(3, {"choose_colour": True}, 0)
    assert GAME.setup(2, {"choose_colour": True}, 0).options["choose_colour"] is True


def test_unknown_ai_kind() -> None:
    assert GAME.ai("random").name == "random" and GAME.ai("greedy").name == "greedy"
    with pytest.raises(ValueError, match="unknown AI"):
        GAME.ai("smart")
