"""Text and JSON forms of actions, and parse errors a player can act on."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction, ParseError
from engine.ginkgopolis import GAME
from engine.ginkgopolis.actions import (
    DraftCharacter,
    GiveTile,
    MoveToken,
    NewHand,
    PlayCard,
    RefillDone,
    TakeTile,
    from_json,
    parse,
)
from tests.engine.ginkgopolis.helpers import fresh


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("R7", PlayCard("R7")),
        ("r7 + b12", PlayCard("R7", "B12")),
        ("A+Y5", PlayCard("A", "Y5")),
        ("A:res", PlayCard("A", gain="res")),
        ("a : tile", PlayCard("A", gain="tile")),
        ("newhand", NewHand()),
        ("draft 14", DraftCharacter(14)),
        ("A@2,-3", MoveToken("A", 2, -3)),
        ("give B12", GiveTile("B12")),
        ("take Y3", TakeTile("Y3")),
        ("done", RefillDone()),
    ],
)
def test_text_forms_parse_and_print_back(text: str, action: object) -> None:
    parsed = parse(text)
    assert parsed == action
    assert parse(parsed.text()) == parsed
    assert from_json(parsed.to_json()) == parsed


def test_an_urbanization_card_alone_must_say_what_it_takes() -> None:
    with pytest.raises(ParseError, match="A:res or A:tile"):
        parse("A")


def test_a_building_card_takes_no_gain() -> None:
    with pytest.raises(ParseError, match="Building card"):
        parse("R7:res")


@pytest.mark.parametrize("text", ["", "R21", "Z7", "R7+", "hello", "M+B3"])
def test_nonsense_is_refused_with_the_possible_actions(text: str) -> None:
    st = fresh(3, seed=2)
    with pytest.raises(ParseError) as err:
        GAME.parse_action(st, 0, text)
    assert "Possible now:" in err.value.message
    assert err.value.params["legal"] == [a.text() for a in GAME.legal_actions(st, 0)]


def test_a_card_not_in_hand_is_refused_politely_and_nothing_changes() -> None:
    st = fresh(3, seed=2)
    missing = next(c for c in ("R20", "B20", "Y20") if c not in st.players[0].hand)
    before = st.to_json()
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.apply(st, 0, PlayCard(missing))
    assert st.to_json() == before


def test_wrong_phase_and_non_player_are_refused() -> None:
    st = fresh(3, seed=2)
    with pytest.raises(IllegalAction, match="draft is over"):
        GAME.apply(st, 0, DraftCharacter(3))
    with pytest.raises(IllegalAction, match="not seated"):
        GAME.apply(st, 7, NewHand())
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(st, 0, MoveToken("A", 0, -3))
    assert refused.value.code == "no_token_to_move"  # no token waits to be moved
