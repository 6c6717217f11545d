"""Text and JSON forms of every action, the parser, refusals, and menus within 25."""

from __future__ import annotations

import json

import pytest

from bot.discord.menus import group_key, plan, plan_group
from engine.core.conformance import assert_refused_untouched
from engine.core.errors import IllegalAction, NotYourTurn, ParseError
from engine.core.rng import Rng
from engine.neotopia import GAME
from engine.neotopia.actions import (
    MAX_TEXT,
    Back,
    Build,
    Draw,
    EndTurn,
    Move,
    Place,
    Take,
    UseBonus,
    action_from_json,
    parse_text,
)
from tests.engine.neotopia.helpers import HOUSE, act, position

EVERY = [Draw("C10"), Draw(None), Take("FD", "P"), Take("reserve", "B"), Place("D11"),
         Move("FD", "P", "D11"), Move("reserve", "G", "A02"),
         Place("F37"), Build("C44"), Build(None), UseBonus("subsidy"),
         UseBonus("automation"), UseBonus("private_initiative"),
         UseBonus("building_permits"), EndTurn(), Back()]


@pytest.mark.parametrize("action", EVERY, ids=[a.text() for a in EVERY])
def test_text_and_json_forms_come_back(action: object) -> None:
    assert hasattr(action, "text")
    text = action.text()  # type: ignore[attr-defined]
    assert parse_text(text, HOUSE) == action
    assert parse_text(text.lower(), HOUSE) == action
    data = json.loads(json.dumps(action.to_json()))  # type: ignore[attr-defined]
    assert action_from_json(data) == action
    assert type(action).from_json(data) == action  # type: ignore[attr-defined]
    other = Back() if not isinstance(action, Back) else EndTurn()
    with pytest.raises(ParseError):
        type(other).from_json(data)


@pytest.mark.parametrize(("typed", "action"), [
    ("pioche paquet", Draw(None)), ("PIOCHE c10", Draw("C10")), ("fd p", Take("FD", "P")),
    ("fd:violet", Take("FD", "P")), ("FD > purple", Take("FD", "P")),
    ("réserve:bleu", Take("reserve", "B")), ("d11", Place("D11")),
    ("construire C44", Build("C44")), ("build aucun", Build(None)),
    ("utiliser subvention", UseBonus("subsidy")), ("use initiative privée",
                                                  UseBonus("private_initiative")),
    ("permis", UseBonus("building_permits")), ("fin du tour", EndTurn()),
    ("retour", Back()), ("end turn", EndTurn()),
])
def test_typed_aliases(typed: str, action: object) -> None:
    assert parse_text(typed, HOUSE) == action


@pytest.mark.parametrize(("typed", "says"), [
    ("draw C99", "not a project card"), ("FD", "which colour"), ("FD:X", "not a colour"),
    ("use nothing", "not a bonus"), ("Z99", "could not read"), ("", "Nothing"),
    ("build C99", "not a project card"),
])
def test_parse_errors_say_what_was_wrong_and_what_is_legal(typed: str, says: str) -> None:
    st = position(4, active=0, board={"D00": "R"})
    with pytest.raises(ParseError) as info:
        GAME.parse_action(st, 0, typed)
    assert says in info.value.message and "Legal now: draw " in info.value.message
    assert "draw deck" in info.value.params["legal"]


def test_overlong_input_is_refused_unread() -> None:
    with pytest.raises(ParseError) as info:
        parse_text("x" * 1_000_000, HOUSE)
    assert info.value.params["limit"] == MAX_TEXT == 200
    assert parse_text(" " * 190 + "end", HOUSE) == EndTurn()


def test_refusals_leave_the_state_untouched() -> None:
    st = position(4, active=0, board={"D00": "R"}, tokens={0: ["automation"]},
                  hands={0: ["C44"]})
    for action in (Place("D01"), Build("C44"), UseBonus("subsidy"), EndTurn(), Back(),
                   Take("FD", "X"), Draw("C99"), Take("reserve", "R")):
        assert_refused_untouched(GAME, st, 0, action)
    with pytest.raises(NotYourTurn):
        GAME.apply(st, 1, Draw(None))
    act(st, 0, "FD:P")
    assert_refused_untouched(GAME, st, 0, Place("A00"))  # not next to manufacture FD
    assert_refused_untouched(GAME, st, 0, Place("D37"))  # outer cell
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, 0, Place("D30"))
    assert info.value.code == "cell_closed" and "D01" in info.value.params["legal"]


def test_menus_never_offer_more_than_25_options_at_once() -> None:
    """At every decision of random games, the bot's menu plan fits Discord's selects."""
    biggest = 0
    for seats in (2, 4):
        for seed in range(3):
            st = GAME.setup(seats, {}, seed)
            rng = Rng.from_seed(seed)
            player = GAME.ai("random")
            while not st.over:
                seat = st.current
                texts = [a.text() for a in GAME.legal_actions(st, seat)]
                biggest = max(biggest, len(texts))
                menu = plan(texts, table=12345, version=999)
                assert not menu.typed_only, texts
                for select in menu.selects:
                    assert len(select) <= 25
                for row in menu.groups:
                    assert len(row) <= 25
                    for group in row:
                        inner = plan_group(texts, group.key, table=12345, version=999)
                        assert not inner.typed_only
                        assert all(len(s) <= 25 for s in inner.selects)
                GAME.apply(st, seat, player.choose(st, seat, rng))
    assert biggest > 25  # some decisions needed several selects, and got them


def test_turn_options_group_by_their_first_word() -> None:
    st = position(4, active=0, board={"D00": "R"}, tokens={0: ["subsidy"]})
    keys = {group_key(a.text()) for a in GAME.legal_actions(st, 0)}
    assert keys == {"draw", "FD", "DA", "AF", "use"}


def test_a_whole_move_typed_at_once() -> None:
    st = position(4, active=0, board={"D00": "R"})
    assert GAME.parse_action(st, 0, "fd:p>d01") == Move("FD", "P", "D01")
    events = act(st, 0, "FD:P>D01")
    assert [e.kind for e in events] == ["placed"] and st.board["D01"] == "P"
    assert st.actions_left == 2 and st.stage == "turn"
    assert_refused_untouched(GAME, st, 0, Move("FD", "R", "A01"))  # FD does not reach A
    assert_refused_untouched(GAME, st, 0, Move("FD", "P", "D02"))  # no purple left in FD
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, 0, Move("FD", "R", "D37"))
    assert "FD:R>D02" in info.value.params["legal"]
    with pytest.raises(ParseError) as perr:
        GAME.parse_action(st, 0, "FD:R>D99")
    assert "not a cell" in perr.value.message


def test_refusals_say_why() -> None:
    st = position(4, active=0, board={"D00": "R"}, deck=[], tokens={0: []})

    def why(action: object) -> str:
        with pytest.raises(IllegalAction) as info:
            GAME.apply(st, 0, action)  # type: ignore[arg-type]
        return info.value.message

    assert why(Draw(None)) == "The deck is empty (it is not reshuffled)."
    assert why(Draw("C99")).startswith("C99 is not in the offer (")
    assert why(UseBonus("subsidy")) == "You hold no subsidy token."
    assert why(EndTurn()) == "You still have 3 action(s) to take."
    act(st, 0, "FD:P")
    assert why(Place("A05")) == (
        "A05 is not open to this element; it may go on F00, D01, D02, D03, D04, D05, D06.")
