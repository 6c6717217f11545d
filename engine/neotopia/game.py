"""NeotopiaGame: the protocol object the registry and the service use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import ParseError
from engine.core.protocol import Action, AIPlayer, Event, Outcome, Pending
from engine.core.rng import Rng
from engine.neotopia import legal, rules, scoring, setup
from engine.neotopia.actions import action_from_json, parse_text
from engine.neotopia.ai import GreedyAI, RandomAI
from engine.neotopia.search import search_player
from engine.neotopia.state import NeotopiaState
from engine.neotopia.view import view

_AIS: dict[str, type[RandomAI] | type[GreedyAI]] = {"random": RandomAI, "greedy": GreedyAI}


class NeotopiaGame:
    name = "neotopia"
    min_seats = setup.MIN_SEATS
    max_seats = setup.MAX_SEATS

    def default_options(self) -> dict[str, Any]:
        return dict(setup.DEFAULT_OPTIONS)

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> NeotopiaState:
        return setup.new_state(seats, options, seed)

    def pending(self, state: NeotopiaState) -> Pending:
        return legal.pending(state)

    def legal_actions(self, state: NeotopiaState, seat: int) -> list[Action]:
        return legal.legal_actions(state, seat)

    def apply(self, state: NeotopiaState, seat: int, action: Action) -> list[Event]:
        return rules.play(state, seat, action)

    def view(self, state: NeotopiaState, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def news_key(self, state: NeotopiaState) -> tuple[int, int]:
        """A player's turn (three actions and their bonuses) is told in one post."""
        return (state.round, state.current)

    def outcome(self, state: NeotopiaState) -> Outcome | None:
        return scoring.outcome(state) if state.over else None

    def parse_action(self, state: NeotopiaState, seat: int, text: str) -> Action:
        try:
            return parse_text(text, state.data)
        except ParseError as error:
            options = [a.text() for a in legal.legal_actions(state, seat)]
            if not options:
                raise
            sample = ", ".join(options[:8]) + (", ..." if len(options) > 8 else "")
            raise ParseError(f"{error.message} Legal now: {sample}", code=error.code,
                             legal=options, **dict(error.params)) from None

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        return action_from_json(data)

    def state_to_json(self, state: NeotopiaState) -> dict[str, Any]:
        return state.to_json()

    def state_from_json(self, data: Mapping[str, Any]) -> NeotopiaState:
        return NeotopiaState.from_json(data)

    def ai(self, kind: str) -> AIPlayer[NeotopiaState]:
        if kind == "search":
            return search_player(self)
        try:
            return _AIS[kind]()
        except KeyError:
            raise ValueError(f"unknown AI kind {kind!r}; known: {', '.join(_AIS)}") from None

    def scramble_hidden(self, state: NeotopiaState, seat: int | None, seed: int
                        ) -> NeotopiaState:
        """Re-deal what ``seat`` cannot see: other hands with the deck, the stack order
        with the boxed tiles (the flag tile stays at the bottom), the tokens below the
        tops of the piles."""
        st = state.copy()
        rng = Rng.from_seed(seed)
        others = [s for s in range(st.seats) if s != seat]
        pool = [c for s in others for c in st.hands[s]] + st.deck
        rng.shuffle(pool)
        for s in others:
            n = len(st.hands[s])
            st.hands[s], pool = pool[:n], pool[n:]
        st.deck = pool
        flag = [t for t in st.stack if t == next(x.id for x in st.data.tiles if x.flag)]
        tiles = [t for t in st.stack if t not in flag] + st.removed
        rng.shuffle(tiles)
        n = len(st.stack) - len(flag)
        st.stack, st.removed = tiles[:n] + flag, sorted(tiles[n:])
        below = [t for pile in st.piles.values() for t in pile[1:]]
        rng.shuffle(below)
        for region, pile in st.piles.items():
            k = len(pile) - 1
            if k > 0:
                st.piles[region] = [pile[0], *below[:k]]
                below = below[k:]
        return st
