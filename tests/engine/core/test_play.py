"""engine/core/play.py on a scripted stub game: who is served, when a playout stops, and
how head_to_head counts wins (a win shared by k players counts 1/k)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.core.play import ai_playout, head_to_head, playout
from engine.core.protocol import Event, Outcome, Pending, Standing
from engine.core.rng import Rng


@dataclass
class Race:
    """Each action adds 1 to the seat's count; the game ends at ``goal`` actions in all.
    ``winners_by_seed`` decides who wins each seed's game (several: a shared win)."""

    seats: int
    goal: int
    seed: int
    counts: list[int] = field(default_factory=list)
    log: list[int] = field(default_factory=list)


@dataclass
class Step:
    seat: int

    def text(self) -> str:
        return f"step {self.seat}"


class RaceGame:
    name = "race"

    def __init__(self, goal: int = 6, winners_by_seed: dict[int, list[int]] | None = None,
                 stall: bool = False) -> None:
        self.goal = goal
        self.winners_by_seed = winners_by_seed or {}
        self.stall = stall
        self.kinds_seen: list[list[str]] = []
        self.options_seen: list[dict[str, Any]] = []

    def setup(self, seats: int, options: dict[str, Any], seed: int) -> Race:
        self.options_seen.append(dict(options))
        return Race(seats, self.goal, seed, [0] * seats)

    def pending(self, state: Race) -> Pending:
        if self.stall:
            return Pending({})
        return Pending({s: "step" for s in range(state.seats)}, simultaneous=True)

    def apply(self, state: Race, seat: int, action: Step) -> list[Event]:
        assert action.seat == seat
        state.counts[seat] += 1
        state.log.append(seat)
        return [Event("step", {"seat": seat})]

    def outcome(self, state: Race) -> Outcome | None:
        if sum(state.counts) < state.goal:
            return None
        winners = self.winners_by_seed.get(state.seed, [0])
        return Outcome(tuple(
            Standing(s, f"P{s}", 1 if s in winners else 0, (), 1 if s in winners else 2)
            for s in range(state.seats)))

    def ai(self, kind: str) -> Any:
        game = self

        class Stepper:
            def choose(self, state: Race, seat: int, rng: Rng) -> Step:
                game.kinds_seen.append([kind, str(seat)])
                return Step(seat)

        return Stepper()


def test_playout_serves_the_lowest_waiting_seat_and_counts_every_action() -> None:
    game = RaceGame(goal=5)
    state = game.setup(3, {}, 0)
    applied: list[tuple[int, str]] = []
    count = playout(game, state, lambda st, seat: Step(seat),  # type: ignore[arg-type]
                    on_apply=lambda seat, action, events: applied.append(
                        (seat, events[0].kind)))
    assert count == 5 == len(state.log)
    assert state.log == [0, 0, 0, 0, 0]  # all three wait: the lowest seat each time
    assert applied == [(0, "step")] * 5


def test_playout_stops_a_game_that_does_not_end_or_has_nobody_to_act() -> None:
    with pytest.raises(RuntimeError, match="did not end"):
        playout(RaceGame(goal=10**6), Race(2, 10**6, 0, [0, 0]),  # type: ignore[arg-type]
                lambda st, seat: Step(seat), max_actions=50)
    with pytest.raises(RuntimeError, match="nobody has to act"):
        playout(RaceGame(stall=True), Race(2, 5, 0, [0, 0]),  # type: ignore[arg-type]
                lambda st, seat: Step(seat))
    # A game that ends on exactly the last allowed action is not stopped.
    assert playout(RaceGame(goal=50), Race(2, 50, 0, [0, 0]),  # type: ignore[arg-type]
                   lambda st, seat: Step(seat), max_actions=50) == 50
    # A game already over plays nothing.
    game = RaceGame(goal=0)
    assert playout(game, game.setup(2, {}, 0), lambda st, seat: Step(seat)) == 0  # type: ignore[arg-type]


def test_ai_playout_plays_to_the_end_with_the_served_seats_ai() -> None:
    game = RaceGame(goal=3)
    state = game.setup(2, {}, 0)
    state.counts = [0, 0]
    assert ai_playout(game, state, ["greedy", "random"], seed=1) == 3  # type: ignore[arg-type]
    assert game.kinds_seen == [["greedy", "0"]] * 3


def test_head_to_head_rotates_the_strong_seat_and_shares_tied_wins() -> None:
    # seed 0: the strong AI sits at 0 and wins alone; seed 1: it sits at 1 and ties with 0;
    # seed 2: it sits at 0 but seat 1 wins; seed 3: it sits at 1 and wins alone.
    game = RaceGame(goal=1, winners_by_seed={0: [0], 1: [0, 1], 2: [1], 3: [1]})
    won, share = head_to_head(game, 2, 4)  # type: ignore[arg-type]
    assert won == 3
    assert share == pytest.approx((1 + 0.5 + 0 + 1) / 4)


def test_head_to_head_sets_every_game_up_with_the_options_given() -> None:
    game = RaceGame(goal=1)
    head_to_head(game, 2, 3, options={"expert": True})  # type: ignore[arg-type]
    assert game.options_seen == [{"expert": True}] * 3
    head_to_head(game, 2, 1)  # type: ignore[arg-type]
    assert game.options_seen[-1] == {}
