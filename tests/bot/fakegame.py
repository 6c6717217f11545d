"""A small game that implements the engine protocol honestly, to test the service with.

"Picks": each seat holds a private hand. Every round all seats secretly pick a card at
the same time (a submitted pick may be changed until the last one arrives); the highest
card wins the round's cards as points, then its owner alone decides a bonus (1 or 2).
After ``rounds`` rounds the game ends.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import (
    BadOptions,
    Event,
    IllegalAction,
    NotYourTurn,
    Outcome,
    ParseError,
    Pending,
    Rng,
    ScoreLine,
    Standing,
    rank_totals,
    register,
)

NAME = "fakepicks"


@dataclass(frozen=True)
class Pick:
    card: int

    def text(self) -> str:
        return f"p{self.card}"

    def to_json(self) -> dict[str, Any]:
        return {"t": "pick", "card": self.card}


@dataclass(frozen=True)
class Bonus:
    n: int

    def text(self) -> str:
        return f"b{self.n}"

    def to_json(self) -> dict[str, Any]:
        return {"t": "bonus", "n": self.n}


@dataclass
class State:
    seats: int
    rounds: int
    rng: int
    hands: list[list[int]]
    deck: list[int]
    picks: list[int | None]
    points: list[int]
    bonus: list[int]
    round: int = 0
    phase: str = "pick"  # pick | bonus | over
    winner: int | None = None
    history: list[list[int]] = field(default_factory=list)


class RandomAI:
    name = "random"

    def choose(self, state: State, seat: int, rng: Rng) -> Any:
        legal = GAME.legal_actions(state, seat)
        return legal[rng.randbelow(len(legal))]


class GreedyAI:
    name = "greedy"

    def choose(self, state: State, seat: int, rng: Rng) -> Any:
        return max(GAME.legal_actions(state, seat),
                   key=lambda a: a.card if isinstance(a, Pick) else a.n)


class FakeGame:
    name = NAME
    min_seats = 2
    max_seats = 4

    def default_options(self) -> dict[str, Any]:
        return {"rounds": 3}

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        rounds = options.get("rounds", 3)
        if not isinstance(rounds, int) or not 1 <= rounds <= 8:
            raise BadOptions("rounds must be between 1 and 8")
        if not self.min_seats <= seats <= self.max_seats:
            raise BadOptions("2 to 4 players")
        rng = Rng.from_seed(seed)
        deck = list(range(1, 41))
        rng.shuffle(deck)
        hands = [sorted(deck[i * rounds:(i + 1) * rounds]) for i in range(seats)]
        return State(seats, rounds, rng.state, hands, deck[seats * rounds:], [None] * seats,
                     [0] * seats, [0] * seats)

    def pending(self, state: State) -> Pending:
        if state.phase == "pick":
            waiting = {s: "pick" for s in range(state.seats) if state.picks[s] is None}
            changeable = frozenset(s for s in range(state.seats) if state.picks[s] is not None)
            return Pending(waiting, simultaneous=True, changeable=changeable)
        if state.phase == "bonus":
            assert state.winner is not None
            return Pending({state.winner: "bonus"})
        return Pending({})

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        if state.phase == "pick":
            return [Pick(c) for c in state.hands[seat]]
        if state.phase == "bonus" and seat == state.winner:
            return [Bonus(1), Bonus(2)]
        return []

    def apply(self, state: State, seat: int, action: Any) -> list[Event]:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise NotYourTurn("You have nothing to decide right now.")
        if action not in legal:
            raise IllegalAction(f"{action.text()} is not possible now.")
        if isinstance(action, Pick):
            changed = state.picks[seat] is not None
            state.picks[seat] = action.card
            events = [Event("picked", {"seat": seat, "changed": changed}),
                      Event("you_picked", {"card": action.card}, to=seat)]
            if all(p is not None for p in state.picks):
                events += self._resolve(state)
            return events
        assert isinstance(action, Bonus)
        state.bonus[seat] += action.n
        state.round += 1
        state.winner = None
        state.phase = "over" if state.round >= state.rounds else "pick"
        return [Event("bonus", {"seat": seat, "n": action.n})]

    def _resolve(self, state: State) -> list[Event]:
        picks = [p for p in state.picks if p is not None]
        for s, card in enumerate(picks):
            state.hands[s].remove(card)
        winner = max(range(state.seats), key=lambda s: (picks[s], -s))
        state.points[winner] += sum(picks)
        state.history.append(picks)
        state.picks = [None] * state.seats
        state.winner = winner
        state.phase = "bonus"
        return [Event("revealed", {"picks": picks, "winner": winner})]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "round": state.round,
            "phase": state.phase,
            "points": list(state.points),
            "bonus": list(state.bonus),
            "hand_sizes": [len(h) for h in state.hands],
            "picked": [p is not None for p in state.picks],
            "history": [list(h) for h in state.history],
        }
        if seat is not None:
            view["hand"] = list(state.hands[seat])
            view["my_pick"] = state.picks[seat]
        return view

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        totals = [state.points[s] + state.bonus[s] for s in range(state.seats)]
        ranks = rank_totals(totals)
        return Outcome(tuple(
            Standing(s, f"Seat {s + 1}", totals[s],
                     (ScoreLine("cards", state.points[s]),
                      ScoreLine("bonus", state.bonus[s], {"rounds_won": state.bonus[s]})),
                     ranks[s])
            for s in sorted(range(state.seats), key=lambda s: ranks[s])
        ))

    def parse_action(self, state: State, seat: int, text: str) -> Any:
        text = text.strip().lower()
        if len(text) >= 2 and text[0] in "pb" and text[1:].isdigit():
            n = int(text[1:])
            return Pick(n) if text[0] == "p" else Bonus(n)
        legal = ", ".join(a.text() for a in self.legal_actions(state, seat))
        raise ParseError(f"write p<card> or b<1|2>; legal now: {legal or 'nothing'}")

    def action_from_json(self, data: Mapping[str, Any]) -> Any:
        kind = data["t"]
        if kind == "pick":
            return Pick(int(data["card"]))
        if kind == "bonus":
            return Bonus(int(data["n"]))
        raise ValueError(f"unknown action type {kind!r}")

    def state_to_json(self, state: State) -> dict[str, Any]:
        return copy.deepcopy(state.__dict__)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State(**copy.deepcopy(dict(data)))

    def ai(self, kind: str) -> Any:
        if kind == "random":
            return RandomAI()
        if kind == "greedy":
            return GreedyAI()
        raise KeyError(kind)

    def scramble_hidden(self, state: State, seat: int | None, seed: int) -> State:
        other = copy.deepcopy(state)
        rng = Rng.from_seed(seed)
        hidden = [s for s in range(state.seats) if s != seat]
        pool = [c for s in hidden for c in other.hands[s]] + other.deck
        rng.shuffle(pool)
        for s in hidden:
            size = len(other.hands[s])
            other.hands[s], pool = sorted(pool[:size]), pool[size:]
            if other.picks[s] is not None:
                other.picks[s] = other.hands[s][0]
        other.deck = pool
        other.rng = rng.state
        return other


GAME = register(FakeGame())
