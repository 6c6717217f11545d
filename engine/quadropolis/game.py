"""QuadropolisGame: the protocol object the registry and the service use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import IllegalAction, ParseError
from engine.core.protocol import Action, AIPlayer, Event, Outcome, Pending
from engine.quadropolis import actions as act
from engine.quadropolis.ai import GreedyAI, RandomAI
from engine.quadropolis.determinize import search_player
from engine.quadropolis.final import outcome
from engine.quadropolis.legal import legal_actions, pending
from engine.quadropolis.rules import play, takes_nothing
from engine.quadropolis.setup import DEFAULT_OPTIONS, MAX_SEATS, MIN_SEATS, new_state
from engine.quadropolis.state import State
from engine.quadropolis.view import scramble_hidden, view


class QuadropolisGame:
    name = "quadropolis"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS

    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        return new_state(seats, options, seed)

    def pending(self, state: State) -> Pending:
        return pending(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return list(legal_actions(state, seat))

    def apply(self, state: State, seat: int, action: Action) -> list[Event]:
        if not isinstance(action, (act.Take, act.Place, act.Discard)):
            raise IllegalAction("That is not a Quadropolis action.", code="not_quadropolis")
        events = play(state, seat, action)
        if state.over:
            result = outcome(state)
            totals = [s.total for s in result.standings]
            winners = [s.seat for s in result.winners]
            events.append(Event("game_over", {"totals": totals, "winners": winners}))
        return events

    def action_note(self, state: State, seat: int, action: Action) -> str | None:
        """A take that takes nothing is marked wherever it is offered or echoed."""
        if isinstance(action, act.Take) and takes_nothing(state, action):
            return "takes_nothing"
        return None

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def news_key(self, state: State) -> tuple[int, int, int | None]:
        """A player's turn (take, then place) is told to the table in one post."""
        return (state.round, state.turn, state.to_play)

    def outcome(self, state: State) -> Outcome | None:
        return outcome(state) if state.over else None

    def parse_action(self, state: State, seat: int, text: str) -> Action:
        try:
            return act.parse(text)
        except ParseError as exc:
            if exc.code == "too_long":
                raise  # refused before any work that depends on the text or the state
            legal = [a.text() for a in legal_actions(state, seat)]
            if not legal:
                raise
            shown = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
            raise ParseError(
                f"{exc.message} Possible now: {shown}", code=exc.code,
                **{**exc.params, "legal": legal},
            ) from None

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        return act.from_json(data)

    def state_to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_json(data)

    def ai(self, kind: str) -> AIPlayer[State]:
        if kind == "random":
            return RandomAI()
        if kind == "greedy":
            return GreedyAI()
        if kind == "search":
            return search_player(self)
        raise KeyError(f"unknown AI {kind!r}; try random, greedy or search")

    def scramble_hidden(self, state: State, seat: int | None, seed: int) -> State:
        return scramble_hidden(state, seat, seed)
