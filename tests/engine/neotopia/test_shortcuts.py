"""The checks that skip building a menu answer as the menu would (issue 25, engine speed).

``is_legal`` (the check of every action) against membership in ``legal_actions``, and
``any_normal_action`` (asked after every action) against ``normal_actions``, on every
state of random games, for the legal actions and for many that are not.
"""

from __future__ import annotations

from engine.core import get_game
from engine.core.protocol import Action
from engine.core.rng import Rng
from engine.neotopia.actions import Back, Build, Draw, EndTurn, Place, Take, UseBonus
from engine.neotopia.legal import any_normal_action, is_legal, legal_actions, normal_actions
from engine.neotopia.state import NeotopiaState

GAME = get_game("neotopia")
BONUSES = ("subsidy", "automation", "private_initiative", "building_permits")


def candidates(st: NeotopiaState, seat: int) -> list[Action]:
    """The seat's legal actions and a spread of others of every kind."""
    data = st.data
    out: list[Action] = list(legal_actions(st, seat))
    sources = [m.id for m in data.manufactures] + ["reserve", "nowhere"]
    out += [Take(s, c) for s in sources for c in data.colour_ids]
    out += [Draw(c) for c in [*st.offer, *st.deck[:2], *st.hands[seat][:2]]] + [Draw(None)]
    cells = sorted(data.cells)
    out += [Place(c) for c in cells[::7]] + [Place(c) for c in st.board]
    out += [UseBonus(k) for k in BONUSES] + [EndTurn(), Back(), Build(None)]
    out += [Build(c) for c in st.hands[seat][:3]]
    return out


def variants(st: NeotopiaState) -> list[NeotopiaState]:
    """Copies whose usual actions run short: no offer, then no deck either, then no
    manufacture holding a colour (random games seldom get there)."""
    if st.phase != "play" or st.stage != "turn" or st.round % 3:
        return []
    out = []
    for empty_deck in (False, True):
        for empty_manufactures in (False, True):
            copy = st.copy()
            copy.offer = []
            if empty_deck:
                copy.deck = []
            if empty_manufactures:
                copy.manufactures = {m: [] for m in copy.manufactures}
            out.append(copy)
    return out


def test_is_legal_is_membership_of_the_menu() -> None:
    checked = refused = 0
    stages: set[str] = set()
    for seats, seeds in ((4, range(3)), (2, range(2)), (3, range(2))):
        for seed in seeds:
            st = GAME.setup(seats, {}, seed)
            rng = Rng.from_seed(seed)
            players = [GAME.ai("random") for _ in range(seats)]
            while GAME.outcome(st) is None:
                stages.add(st.stage)
                for seat in range(seats):
                    menu = legal_actions(st, seat)
                    for action in candidates(st, st.current):
                        expected = action in menu
                        assert is_legal(st, seat, action) == expected, (st.stage, seat, action)
                        checked += 1
                        refused += not expected
                for variant in variants(st):
                    assert any_normal_action(variant) == bool(normal_actions(variant))
                    for action in candidates(variant, variant.current):
                        expected = action in legal_actions(variant, variant.current)
                        assert is_legal(variant, variant.current, action) == expected
                seat = st.current
                GAME.apply(st, seat, players[seat].choose(st, seat, rng))
            assert not any(is_legal(st, s, a) for s in range(seats) for a in candidates(st, 0))
    assert {"start", "turn", "place", "build"} <= stages
    assert checked > 10_000 and refused > checked // 2
