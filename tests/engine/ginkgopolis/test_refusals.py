"""Every Ginkgopolis refusal has a code of its own and its values, leaves the state as it
was, and reads in French from its code (never the engine's English sentence)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest

from bot.text import Renderer
from engine.core.conformance import canonical
from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.protocol import Action
from engine.ginkgopolis import GAME, choices
from engine.ginkgopolis.actions import GAction, GiveTile, MoveToken, NewHand
from engine.ginkgopolis.rules import Table
from engine.ginkgopolis.state import State
from tests.bot.refusal_codes import raised_by
from tests.engine.ginkgopolis.helpers import fresh
from tests.engine.ginkgopolis.rulings_helpers import token_waiting

ROOT = Path(__file__).resolve().parents[3] / "templates"


@dataclass(frozen=True)
class Foreign:
    """An action of another game."""

    def text(self) -> str:
        return "bridge 1-2"

    def to_json(self) -> dict[str, Any]:
        return {"type": "bridge"}


def refused(st: State, seat: int, action: Action) -> IllegalAction:
    """The refusal of ``action``, having checked that the state is untouched."""
    before = canonical(GAME.state_to_json(st))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, seat, action)
    assert canonical(GAME.state_to_json(st)) == before
    return err.value


def render(exc: IllegalAction, typed: str, locale: str) -> str:
    ctx = {"typed": typed, "message": exc.message, "reason": exc.code,
           "reason_params": dict(exc.params), "options": [], "locale": locale}
    return Renderer(ROOT).env.get_template(
        f"{locale}/ginkgopolis/refusal_illegal.txt").render(ctx)


def test_every_error_of_ginkgopolis_names_its_code() -> None:
    assert [r for r in raised_by("ginkgopolis") if not r.explicit] == []


def test_a_seat_not_at_the_table_is_refused_by_number() -> None:
    st = fresh(4, seed=1)
    for seat in (4, -1):
        exc = refused(st, seat, NewHand())
        assert isinstance(exc, NotYourTurn)
        assert (exc.code, dict(exc.params)) == ("not_seated", {"seat": seat})


def test_an_action_of_another_game_is_refused_as_such() -> None:
    st = fresh(2, seed=2)
    exc = refused(st, 0, Foreign())
    assert exc.code == "not_ginkgopolis" and not isinstance(exc, NotYourTurn)
    # The rules say the same if handed one directly.
    with pytest.raises(IllegalAction) as err:
        choices.apply(Table(st), 0, cast(GAction, Foreign()))
    assert err.value.code == "not_ginkgopolis"


def test_a_seat_with_nothing_to_decide_is_told_so() -> None:
    st = token_waiting()
    exc = refused(st, 1, NewHand())
    assert isinstance(exc, NotYourTurn) and exc.code == "not_your_turn"
    # Moving another seat's token: seat 1 has no decision at all.
    assert refused(st, 1, MoveToken("B", 0, -3)).code == "not_your_turn"


def test_a_token_move_with_no_token_waiting_is_refused() -> None:
    st = fresh(2, seed=3)
    assert 0 in GAME.pending(st).waiting  # seat 0 is choosing a card, not moving a token
    exc = refused(st, 0, MoveToken("A", -1, -3))
    assert isinstance(exc, NotYourTurn) and exc.code == "no_token_to_move"


def test_a_tile_given_with_no_refill_open_is_refused() -> None:
    st = token_waiting()
    tile = st.players[0].tiles[0]
    exc = refused(st, 0, GiveTile(tile))
    assert isinstance(exc, NotYourTurn) and exc.code == "no_refill_now"


def test_a_decision_after_the_end_is_refused_as_the_game_over() -> None:
    st = fresh(2, seed=4)
    st.phase = "over"
    assert refused(st, 0, NewHand()).code == "not_your_turn"  # nobody is waited for
    before = canonical(GAME.state_to_json(st))
    with pytest.raises(NotYourTurn) as err:
        choices.apply(Table(st), 0, NewHand())
    assert err.value.code == "game_over"
    assert canonical(GAME.state_to_json(st)) == before


@pytest.mark.parametrize(
    ("make", "seat", "action", "french"),
    [
        (lambda: fresh(4, seed=1), 4, NewHand(), "pas de place à cette table"),
        (lambda: fresh(2, seed=2), 0, Foreign(), "pas une action de Ginkgopolis"),
        (token_waiting, 1, NewHand(), "rien à décider"),
        (lambda: fresh(2, seed=3), 0, MoveToken("A", -1, -3), "aucun jeton d'urbanisation"),
        (token_waiting, 0, GiveTile("R20"), "aucun renouvellement"),
    ],
)
def test_each_new_refusal_reads_in_both_languages(
    make: Any, seat: int, action: Action, french: str
) -> None:
    st = make()
    if isinstance(action, GiveTile):
        action = GiveTile(st.players[seat].tiles[0])
    exc = refused(st, seat, action)
    fr, en = render(exc, action.text(), "fr"), render(exc, action.text(), "en")
    assert french in fr and exc.message not in fr, fr
    assert en.count(exc.message) == 1, en
