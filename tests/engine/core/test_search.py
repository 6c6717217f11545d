"""The search player on a toy game whose best move is known, and its value functions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.core import Rng
from engine.core.protocol import (
    Action,
    AIPlayer,
    Event,
    Outcome,
    Pending,
    ScoreLine,
    Standing,
    rank_totals,
)
from engine.core.search import SearchConfig, SearchPlayer, lead_value, outcome_value


@dataclass(frozen=True)
class Move:
    name: str

    def text(self) -> str:
        return self.name

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name}


@dataclass
class Toy:
    """Seat 0 plays ``win``, ``lose`` or ``coin`` (a fair flip drawn from a hidden
    generator), then seat 1 passes; seat 0 scores 1 or 0 and seat 1 the rest."""

    rng: int
    played: list[str] = field(default_factory=list)
    result: int | None = None


class Policy:
    name = "first"

    def choose(self, state: Toy, seat: int, rng: Rng) -> Action:
        return ToyGame().legal_actions(state, seat)[0]


class ToyGame:
    name = "toy"
    min_seats = 2
    max_seats = 2

    def pending(self, state: Toy) -> Pending:
        return Pending({} if state.result is not None else {len(state.played): "move"})

    def legal_actions(self, state: Toy, seat: int) -> list[Action]:
        if state.result is not None or seat != len(state.played):
            return []
        return [Move("pass")] if seat else [Move("lose"), Move("coin"), Move("win")]

    def apply(self, state: Toy, seat: int, action: Action) -> list[Event]:
        assert isinstance(action, Move) and action in self.legal_actions(state, seat)
        state.played.append(action.name)
        if seat == 1:
            first = state.played[0]
            coin = Rng(state.rng).randbelow(2)
            state.result = {"win": 1, "lose": 0}.get(first, coin)
        return []

    def outcome(self, state: Toy) -> Outcome | None:
        if state.result is None:
            return None
        totals = [state.result, 1 - state.result]
        ranks = rank_totals(totals)
        return Outcome(tuple(
            Standing(s, f"seat {s}", totals[s], (ScoreLine("toy", totals[s]),), ranks[s])
            for s in range(2)
        ))

    def ai(self, kind: str) -> AIPlayer[Toy]:
        return Policy()

    # Unused by the search.
    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> Toy:
        return Toy(rng=seed)


def _determinize(state: Toy, seat: int, seed: int) -> Toy:
    return Toy(rng=Rng.from_seed(seed).next_u64(), played=list(state.played),
               result=state.result)


def _player(config: SearchConfig, **kw: Any) -> SearchPlayer:
    return SearchPlayer(ToyGame(), _determinize, config, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("iterations", [24, 60])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("margin", [None, 1.0])
def test_finds_the_winning_move(iterations: int, seed: int, margin: float | None) -> None:
    player = _player(SearchConfig(iterations=iterations, margin=margin))
    assert player.choose(Toy(rng=seed), 0, Rng.from_seed(seed)) == Move("win")


def test_a_single_legal_move_is_played_without_search() -> None:
    player = _player(SearchConfig(iterations=1))
    assert player.choose(Toy(rng=0, played=["lose"]), 1, Rng.from_seed(0)) == Move("pass")


def test_the_prior_limits_the_search_to_its_best_ranked_moves() -> None:
    def prior(state: Any, seat: int, actions: Sequence[Action]) -> list[float]:
        return [2.0 if a == Move("lose") else 1.0 if a == Move("coin") else 0.0 for a in actions]

    narrow = _player(SearchConfig(iterations=20, width=2), prior=prior)
    # "win" is ranked last and cut; of the two left, the coin is worth more than a loss.
    assert narrow.choose(Toy(rng=5), 0, Rng.from_seed(5)) == Move("coin")
    assert narrow.with_config(width=3).choose(Toy(rng=5), 0, Rng.from_seed(5)) == Move("win")


def test_same_seed_same_choice_and_the_state_is_left_alone() -> None:
    player = _player(SearchConfig(iterations=6))
    state = Toy(rng=9)
    picks = {player.choose(state, 0, Rng.from_seed(4)) for _ in range(3)}
    assert len(picks) == 1
    assert state == Toy(rng=9)


def test_a_horizon_needs_an_evaluation() -> None:
    with pytest.raises(ValueError, match="evaluation"):
        _player(SearchConfig(horizon=3))


def test_outcome_value_counts_shared_wins_and_ranks() -> None:
    def outcome(totals: list[int]) -> Outcome:
        ranks = rank_totals(totals)
        return Outcome(tuple(Standing(s, "", t, (), r)
                             for s, (t, r) in enumerate(zip(totals, ranks, strict=True))))

    alone, shared, second, last = (
        outcome([5, 1, 1]), outcome([5, 5, 1]), outcome([3, 5, 1]), outcome([0, 5, 1])
    )
    assert outcome_value(alone, 0) == 1.0
    assert outcome_value(shared, 0) == pytest.approx(0.8 / 2 + 0.2)
    assert outcome_value(alone, 0) > outcome_value(shared, 0) > outcome_value(second, 0)
    assert outcome_value(second, 0) > outcome_value(last, 0) == 0.0


def test_lead_value_grows_with_the_lead() -> None:
    values = [lead_value([mine, 10.0, 4.0], 0, 5.0) for mine in (0.0, 10.0, 20.0)]
    assert values[0] < values[1] == 0.5 < values[2] < 1.0
