"""Text and JSON forms of the actions, the parser's refusals, and refused moves that leave
the state untouched."""

from __future__ import annotations

import pytest

from engine.core.conformance import assert_refused_untouched
from engine.core.errors import BadOptions, IllegalAction, NotYourTurn, ParseError
from engine.quadropolis import GAME
from engine.quadropolis.actions import (
    MAX_TEXT,
    SLOTS,
    Discard,
    Place,
    QAction,
    Take,
    from_json,
    parse,
)
from tests.engine.quadropolis.helpers import fresh


@pytest.mark.parametrize(
    ("typed", "action"),
    [
        ("A3@L4", Take(3, "L4")),
        ("3@L4", Take(3, "L4")),
        (" a3 @ l4 ", Take(3, "L4")),
        ("5@b1", Take(5, "B1")),
        ("r2c3", Place(2, 3)),
        ("R2 C3", Place(2, 3)),
        ("2,3", Place(2, 3)),
        ("23", Place(2, 3)),
        ("discard", Discard()),
        ("Défausser", Discard()),
    ],
)
def test_typed_forms_are_read(typed: str, action: object) -> None:
    assert parse(typed) == action


def test_every_action_text_and_json_come_back() -> None:
    actions: list[QAction] = [Take(n, s) for n in range(1, 6) for s in SLOTS]
    actions += [Place(r, c) for r in range(1, 5) for c in range(1, 6)] + [Discard()]
    for a in actions:
        assert parse(a.text()) == a
        assert from_json(a.to_json()) == a
        assert type(a).from_json(a.to_json()) == a
    with pytest.raises(ParseError):
        Take.from_json(Discard().to_json())


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("", "empty"),
        ("9@L4", "bad_architect"),
        ("x@L4", "bad_architect_text"),
        ("3@Q4", "bad_slot"),
        ("3@L9", "bad_slot"),
        ("3@L²", "bad_slot"),
        ("r9c1", "bad_space"),
        ("hello", "unreadable"),
    ],
)
def test_parse_errors_say_what_was_wrong(typed: str, code: str) -> None:
    with pytest.raises(ParseError) as err:
        parse(typed)
    assert err.value.code == code


def test_text_over_the_limit_is_refused_at_once() -> None:
    with pytest.raises(ParseError) as err:
        parse("3@L4" + " " * MAX_TEXT)
    assert err.value.code == "too_long"
    assert err.value.params["limit"] == MAX_TEXT
    assert parse(" " * (MAX_TEXT - 4) + "3@L4") == Take(3, "L4")  # at the limit: read


def test_the_game_parser_lists_what_is_legal() -> None:
    state = fresh(2)
    seat = state.to_play
    assert seat is not None
    with pytest.raises(ParseError) as err:
        GAME.parse_action(state, seat, "hello")
    legal = err.value.params["legal"]
    assert "A1@L1" in legal and "Possible now" in err.value.message


def test_bad_json_is_a_parse_error() -> None:
    with pytest.raises(ParseError):
        from_json({"type": "take", "architect": "x", "slot": "L1"})
    with pytest.raises(ParseError):
        from_json({"type": "fly"})


def test_options_are_validated() -> None:
    with pytest.raises(BadOptions):
        GAME.setup(1, {}, 1)
    with pytest.raises(BadOptions):
        GAME.setup(5, {}, 1)
    with pytest.raises(BadOptions) as err:
        GAME.setup(2, {"mode": "hard"}, 1)
    assert err.value.params["option"] == "mode"
    with pytest.raises(BadOptions):
        GAME.setup(2, {"squares": "yes"}, 1)
    with pytest.raises(BadOptions) as err:
        GAME.setup(2, {"colour": "red"}, 1)
    assert err.value.code == "unknown_option"


def test_refusals_leave_the_state_untouched() -> None:
    state = fresh(3, seed=4)
    seat = state.to_play
    assert seat is not None
    other = (seat + 1) % 3
    with pytest.raises(NotYourTurn):
        GAME.apply(state, other, Take(1, "L1"))
    assert_refused_untouched(GAME, state, other, Take(1, "L1"))
    assert_refused_untouched(GAME, state, seat, Place(1, 1))  # nothing taken yet
    assert_refused_untouched(GAME, state, seat, Discard())
    GAME.apply(state, seat, Take(1, "T1"))
    if state.phase == "place":
        assert_refused_untouched(GAME, state, seat, Take(2, "T2"))
        assert_refused_untouched(GAME, state, seat, Place(4, 4))  # not row/column 1
        GAME.apply(state, seat, Discard())
    nxt = state.to_play
    assert nxt is not None
    # The Urbanist stands on row 1, column 1: both lines are closed, and T1 is occupied.
    for slot, code in (("L1", "urbanist_line"), ("B1", "urbanist_line"), ("T1", "slot_taken")):
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, nxt, Take(2, slot))
        assert err.value.code == code
    assert_refused_untouched(GAME, state, nxt, Take(2, "L1"))
