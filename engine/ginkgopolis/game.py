"""The Ginkgopolis game object: the engine protocol over the modules of this package."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import IllegalAction, NotYourTurn, ParseError
from engine.core.protocol import Action, AIPlayer, Event, Outcome, Pending
from engine.ginkgopolis import actions as act
from engine.ginkgopolis import choices
from engine.ginkgopolis.ai import GreedyPlayer, RandomPlayer
from engine.ginkgopolis.determinize import search_player
from engine.ginkgopolis.legal import has_decision, legal_actions, pending
from engine.ginkgopolis.rules import Table
from engine.ginkgopolis.scoring import score
from engine.ginkgopolis.setup import DEFAULT_OPTIONS, new_state
from engine.ginkgopolis.state import State
from engine.ginkgopolis.view import scramble_hidden, view


class GinkgopolisGame:
    name = "ginkgopolis"
    min_seats = 1
    max_seats = 5

    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        st = new_state(seats, options, seed)
        Table(st).start()
        return st

    def pending(self, state: State) -> Pending:
        return pending(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return list(legal_actions(state, seat))

    def apply(self, state: State, seat: int, action: Action) -> list[Event]:
        if not 0 <= seat < state.seats:
            raise NotYourTurn("You are not seated at this table.", code="not_seated", seat=seat)
        if not isinstance(action, act.GAction):
            raise IllegalAction("That is not a Ginkgopolis action.", code="not_ginkgopolis")
        # Same answer as "no legal action", without enumerating every card and tile.
        if not has_decision(state, seat) and not self._explainable(state, seat, action):
            raise NotYourTurn("You have nothing to decide right now.", code="not_your_turn")
        # Every refusal (IllegalAction, NotYourTurn) is raised by choices.py before it
        # changes anything, so no copy of the state is taken: tests/engine/ginkgopolis check
        # that a refused action leaves the state byte for byte as it was.
        table = Table(state)
        choices.apply(table, seat, action)
        return table.events

    @staticmethod
    def _explainable(state: State, seat: int, action: Action) -> bool:
        # Let wrong-phase actions reach the rules, which say precisely what is wrong.
        return state.phase != "over" and isinstance(action, (act.PlayCard, act.DraftCharacter))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def news_key(self, state: State) -> int:
        """A round (the simultaneous picks and their resolution) is told in one post: the
        public view's ``round``, read without building the view."""
        return state.round

    def outcome(self, state: State) -> Outcome | None:
        return score(state) if state.phase == "over" else None

    def parse_action(self, state: State, seat: int, text: str) -> Action:
        try:
            return act.parse(text)
        except ParseError as exc:
            legal = [a.text() for a in legal_actions(state, seat)]
            if legal:
                shown = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
                raise ParseError(f"{exc.message} Possible now: {shown}", code=exc.code,
                                 **{**exc.params, "legal": legal}) from None
            raise

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        return act.from_json(data)

    def state_to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_json(dict(data))

    def ai(self, kind: str) -> AIPlayer[State]:
        if kind == "random":
            return RandomPlayer()
        if kind == "greedy":
            return GreedyPlayer()
        if kind == "search":
            return search_player(self)
        raise KeyError(f"unknown AI {kind!r}; try random, greedy or search")

    def scramble_hidden(self, state: State, seat: int | None, seed: int) -> State:
        return scramble_hidden(state, seat, seed)
