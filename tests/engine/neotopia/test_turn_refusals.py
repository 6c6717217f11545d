"""A Neotopia turn's refusals say why with the right code (engine/neotopia/rules.py
``_specific_why``), and a turn of draws counts as a turn in which the seat acted (the stall
rule, NR10, counts only turns without any action)."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.core.conformance import canonical
from engine.neotopia.actions import Build, Draw, EndTurn
from engine.neotopia.state import NeotopiaState
from tests.engine.neotopia.helpers import GAME, HOUSE, act, position


def refused(st: NeotopiaState, action: Build | Draw | EndTurn) -> IllegalAction:
    before = canonical(GAME.state_to_json(st))
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, st.current, action)
    assert canonical(GAME.state_to_json(st)) == before  # a refusal changes nothing
    return info.value


@pytest.mark.parametrize("left", [1, 2, 3])
def test_ending_a_turn_with_actions_left_says_how_many(left: int) -> None:
    st = position(4, active=0)
    st.actions_left = left
    error = refused(st, EndTurn())
    assert error.code == "actions_left" and error.params["count"] == left


def building(seat: int = 0) -> NeotopiaState:
    """Seat 0 has just completed C06 with A09: the build step."""
    board = {"A00": "B", "A01": "R", "A02": "G", "A03": "G", "A04": "P", "A06": "P",
             "A10": "G"}
    st = position(4, active=seat, board=board, hands={seat: ["C06"]},
                  manufactures={"DA": ["G", "R"], "AF": ["B", "P"], "FD": ["R", "G", "P"]})
    act(st, seat, "DA:G")
    act(st, seat, "A09")
    assert st.stage == "build" and st.build_options == ["C06"]
    return st


def test_a_project_not_completed_here_is_not_buildable() -> None:
    other = next(c for c in sorted(HOUSE.cards) if c != "C06")
    error = refused(building(), Build(other))
    assert error.code == "not_buildable"
    assert (error.params["card"], error.params["options"]) == (other, ["C06"])
    assert error.params["legal"] == ["build C06", "build none"]


def test_another_action_at_the_build_step_is_the_wrong_step() -> None:
    st = building()
    assert refused(st, Draw(None)).code == "wrong_stage"
    assert refused(st, EndTurn()).code == "wrong_stage"


def test_a_build_during_the_turn_is_the_wrong_step() -> None:
    st = position(4, active=0, hands={0: ["C06"]})
    assert refused(st, Build("C06")).code == "wrong_stage"
    assert refused(st, Build(None)).code == "wrong_stage"


def test_a_round_of_draws_is_a_round_of_turns_with_actions() -> None:
    st = position(2, active=0)
    assert len(st.deck) >= 6
    for seat in (0, 1):
        assert st.current == seat
        for _ in range(3):
            act(st, seat, "draw deck")
        assert st.idle_turns == 0  # the seat acted: nobody is stalling
    assert st.phase == "play" and st.current == 0 and st.round == 2
