"""SkybridgeGame: the protocol object the registry and the service use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import IllegalAction, ParseError
from engine.core.protocol import Action, AIPlayer, Event, Outcome, Pending
from engine.skybridge import rules, scoring, views
from engine.skybridge.actions import Place, parse_text
from engine.skybridge.ai import GreedyAI, RandomAI
from engine.skybridge.search import search_player
from engine.skybridge.state import SkybridgeState

_AIS: dict[str, type[RandomAI] | type[GreedyAI]] = {"random": RandomAI, "greedy": GreedyAI}


class SkybridgeGame:
    name = "skybridge"
    min_seats = rules.MIN_SEATS
    max_seats = rules.MAX_SEATS

    def default_options(self) -> dict[str, Any]:
        return dict(rules.DEFAULT_OPTIONS)

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> SkybridgeState:
        return rules.new_state(seats, options, seed)

    def pending(self, state: SkybridgeState) -> Pending:
        slot = rules.current_slot(state)
        return Pending({} if slot is None else {slot.seat: "place"})

    def legal_actions(self, state: SkybridgeState, seat: int) -> list[Action]:
        return list(rules.legal_moves(state, seat))

    def apply(self, state: SkybridgeState, seat: int, action: Action) -> list[Event]:
        if not isinstance(action, Place):
            raise IllegalAction(f"{action.text()} is not a Skybridge move.",
                                code="not_skybridge")
        return rules.play(state, seat, action)

    def view(self, state: SkybridgeState, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def news_key(self, state: SkybridgeState) -> None:
        """Every move is told as it is made (no round gathers them)."""
        return None

    def outcome(self, state: SkybridgeState) -> Outcome | None:
        return scoring.outcome(state.board, state.seats) if state.over else None

    def parse_action(self, state: SkybridgeState, seat: int, text: str) -> Action:
        try:
            return rules.resolve_typed(state, seat, parse_text(text))
        except ParseError as error:
            legal = [a.text() for a in rules.legal_moves(state, seat)]
            if not legal:
                raise
            sample = ", ".join(legal[:6]) + (", ..." if len(legal) > 6 else "")
            raise ParseError(f"{error.message} Legal now: {sample}", code=error.code,
                             **{**error.params, "legal": legal}) from None

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        return Place.from_json(data)

    def state_to_json(self, state: SkybridgeState) -> dict[str, Any]:
        return state.to_json()

    def state_from_json(self, data: Mapping[str, Any]) -> SkybridgeState:
        return SkybridgeState.from_json(data)

    def ai(self, kind: str) -> AIPlayer[SkybridgeState]:
        if kind == "search":
            return search_player(self)
        try:
            return _AIS[kind]()
        except KeyError:
            raise ValueError(f"unknown AI kind {kind!r}; known: {', '.join(_AIS)}") from None

    def scramble_hidden(self, state: SkybridgeState, seat: int | None, seed: int) -> SkybridgeState:
        # Open information: there is nothing to re-deal.
        return state.copy()
