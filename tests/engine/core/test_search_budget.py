"""engine/core/search.py on a stub game whose best move is known: the budget is never
overspent, a sufficient budget finds the best move, and the horizon never cuts a
simulation inside the searching seat's own turn."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.core.protocol import Event, Outcome, Pending, Standing
from engine.core.rng import Rng
from engine.core.search import SearchConfig, SearchPlayer

OPTIONS = 6


@dataclass
class Duel:
    """Seat 0 picks twice (one turn of two steps), then seat 1 once; seat 0 wins when
    its picks add up to more than seat 1's pick plus 4. Bigger is better for seat 0."""

    picks: list[tuple[int, int]] = field(default_factory=list)

    def waiting(self) -> int | None:
        return [0, 0, 1][len(self.picks)] if len(self.picks) < 3 else None


@dataclass(frozen=True)
class Pick:
    n: int

    def text(self) -> str:
        return str(self.n)


class First:
    def choose(self, state: Duel, seat: int, rng: Rng) -> Pick:
        return Pick(0)


class DuelGame:
    name = "duel"

    def legal_actions(self, state: Duel, seat: int) -> list[Pick]:
        return [Pick(n) for n in range(OPTIONS)] if state.waiting() == seat else []

    def pending(self, state: Duel) -> Pending:
        seat = state.waiting()
        return Pending({} if seat is None else {seat: "pick"})

    def apply(self, state: Duel, seat: int, action: Pick) -> list[Event]:
        assert state.waiting() == seat
        state.picks.append((seat, action.n))
        return []

    def outcome(self, state: Duel) -> Outcome | None:
        if state.waiting() is not None:
            return None
        mine = sum(n for s, n in state.picks if s == 0)
        theirs = sum(n for s, n in state.picks if s == 1) + 4
        ranks = (1, 2) if mine > theirs else (2, 1)
        return Outcome(tuple(Standing(s, f"P{s}", 0, (), ranks[s]) for s in (0, 1)))

    def ai(self, kind: str) -> First:
        return First()


def player(iterations: int, **config: Any) -> tuple[SearchPlayer, list[int]]:
    searched = SearchPlayer(DuelGame(), lambda state, seat, seed: copy.deepcopy(state),  # type: ignore[arg-type]
                            SearchConfig(iterations=iterations, **config))
    calls: list[int] = []
    simulate = searched.simulate

    def counted(state: Any, seat: int, action: Any, seed: int) -> float:
        calls.append(action.n)
        return simulate(state, seat, action, seed)

    searched.simulate = counted  # type: ignore[method-assign]
    return searched, calls


@pytest.mark.parametrize("iterations", [1, 2, 3, 5, 6, 7, 11, 12, 13, 24, 40])
def test_the_budget_is_spent_and_overspent_by_less_than_a_round(iterations: int) -> None:
    """Sequential halving gives every surviving arm at least one simulation a round, so
    a tight budget is overspent, but by less than one simulation per arm."""
    searched, calls = player(iterations)
    searched.choose(Duel(), 0, Rng.from_seed(1))
    assert set(calls) == set(range(OPTIONS))  # every arm is tried
    assert len(calls) < max(iterations, OPTIONS) + OPTIONS


def test_a_budget_of_one_per_arm_is_spent_exactly_and_one_more_is_not_wasted() -> None:
    searched, calls = player(OPTIONS)
    searched.choose(Duel(), 0, Rng.from_seed(1))
    assert sorted(calls) == list(range(OPTIONS))  # once each, no more
    searched, calls = player(OPTIONS + 1)
    searched.choose(Duel(), 0, Rng.from_seed(1))
    assert len(calls) > OPTIONS  # the simulation left goes to a second round


def test_a_sufficient_budget_finds_the_best_move() -> None:
    # The rollout plays 0 for everyone: after a pick of n, seat 0 wins iff n > 4.
    searched, _ = player(48)
    assert searched.choose(Duel(), 0, Rng.from_seed(2)) == Pick(OPTIONS - 1)


def test_the_horizon_never_cuts_inside_the_seats_own_turn() -> None:
    game = DuelGame()
    cut_at: list[int | None] = []

    def evaluate(world: Duel, seat: int) -> float:
        cut_at.append(world.waiting())
        return 0.5

    searched = SearchPlayer(game, lambda state, seat, seed: copy.deepcopy(state),  # type: ignore[arg-type]
                            SearchConfig(iterations=12, horizon=0), evaluate=evaluate)
    searched.choose(Duel(), 0, Rng.from_seed(3))
    # Seat 0's turn has two steps: the first simulation step is still its turn, so the
    # cut comes only once seat 1 is to act.
    assert cut_at and set(cut_at) == {1}
