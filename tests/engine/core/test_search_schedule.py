"""engine/core/search.py's budget, arm by arm: sequential halving as specified (each round
splits what is left of the budget evenly over the rounds left and the arms alive, then
keeps the better half, ties to the earlier arm), common random numbers within a round,
the prior's ranking and width, and ``one_ply_prior`` playing out the seat's own turn.

The expectations are worked out by hand from that specification, on the stub game of
test_search_budget.py, with a simulation whose value is known for every arm."""

from __future__ import annotations

import copy
import math
from collections import Counter, defaultdict
from typing import Any

import pytest

from engine.core.protocol import Outcome, Standing, rank_totals
from engine.core.rng import Rng
from engine.core.search import SearchConfig, SearchPlayer, one_ply_prior, outcome_value
from tests.engine.core.test_search_budget import OPTIONS, Duel, DuelGame, Pick


def _copy(state: Duel, seat: int, seed: int) -> Duel:
    return copy.deepcopy(state)


def scripted(iterations: int, value: dict[int, float], *, policy: Any = None, **config: Any
             ) -> tuple[SearchPlayer, list[tuple[int, int]]]:
    """A search whose simulation of arm n is worth ``value[n]``; records (arm, seed)."""
    searched = SearchPlayer(DuelGame(), _copy,  # type: ignore[arg-type]
                            SearchConfig(iterations=iterations, **config), policy=policy)
    calls: list[tuple[int, int]] = []

    def simulate(state: Any, seat: int, action: Pick, seed: int) -> float:
        calls.append((action.n, seed))
        return value[action.n]

    searched.simulate = simulate  # type: ignore[method-assign]
    return searched, calls


def halving_counts(arms: int, budget: int, value: dict[int, float]) -> Counter[int]:
    """The specification, written out: simulations per arm."""
    rounds = max(1, math.ceil(math.log2(arms)))
    alive, left, counts = list(range(arms)), budget, Counter[int]()
    for r in range(rounds):
        per = max(1, (left // (rounds - r)) // len(alive))
        for arm in alive:
            counts[arm] += per
        left -= per * len(alive)
        if len(alive) <= 1 or left <= 0:
            break
        ranked = sorted(alive, key=lambda a: (-value[a], a))
        alive = sorted(ranked[: (len(alive) + 1) // 2])
    return counts


RISING = {n: n / 10 for n in range(OPTIONS)}  # the later arm is better
FALLING = {n: 1 - n / 10 for n in range(OPTIONS)}  # the earlier arm is better


def test_the_schedule_by_hand() -> None:
    # 6 arms, 24 simulations, 3 rounds: 24//3//6 = 1 each; 18 left, 18//2//3 = 3 each for
    # the best 3; 9 left, 9//1//2 = 4 each for the best 2.
    searched, calls = scripted(24, RISING)
    assert searched.choose(Duel(), 0, Rng.from_seed(1)) == Pick(5)
    assert Counter(arm for arm, _ in calls) == {0: 1, 1: 1, 2: 1, 3: 4, 4: 8, 5: 8}


@pytest.mark.parametrize("budget", [6, 7, 12, 13, 24, 25, 47, 96])
@pytest.mark.parametrize("value", [RISING, FALLING], ids=["rising", "falling"])
def test_every_budget_follows_sequential_halving(budget: int, value: dict[int, float]) -> None:
    searched, calls = scripted(budget, value)
    best = max(range(OPTIONS), key=lambda n: (value[n], -n))
    assert searched.choose(Duel(), 0, Rng.from_seed(budget)) == Pick(best)
    assert Counter(arm for arm, _ in calls) == halving_counts(OPTIONS, budget, value)


def test_arms_alive_in_a_round_share_its_seeds_and_rounds_use_new_ones() -> None:
    searched, calls = scripted(24, RISING)
    searched.choose(Duel(), 0, Rng.from_seed(4))
    seeds: dict[int, list[int]] = defaultdict(list)
    for arm, seed in calls:
        seeds[arm].append(seed)
    # Arm 4 and 5 lived through every round: the very same determinizations.
    assert seeds[4] == seeds[5] and len(set(seeds[5])) == len(seeds[5]) == 8
    # The first round's seed is every arm's first; later rounds draw new ones.
    assert {s[0] for s in seeds.values()} == {seeds[5][0]}
    assert seeds[3] == seeds[5][:4]


def test_a_tie_goes_to_the_earlier_arm() -> None:
    flat = dict.fromkeys(range(OPTIONS), 0.5)
    searched, calls = scripted(24, flat)
    assert searched.choose(Duel(), 0, Rng.from_seed(5)) == Pick(0)
    assert Counter(arm for arm, _ in calls) == halving_counts(OPTIONS, 24, flat)


def test_the_prior_keeps_the_width_best_arms_in_their_order() -> None:
    ranks = {0: 0.1, 1: 0.9, 2: 0.5, 3: 0.9, 4: 0.2, 5: 0.8}
    searched, calls = scripted(12, RISING, width=3)
    searched.prior = lambda state, seat, actions: [ranks[a.n] for a in actions]  # type: ignore[attr-defined]
    # Ranked 1 and 3 (0.9, the earlier first), then 5: searched in board order 1, 3, 5.
    assert searched.choose(Duel(), 0, Rng.from_seed(6)) == Pick(5)
    assert sorted({arm for arm, _ in calls}) == [1, 3, 5]
    assert [arm for arm, _ in calls[:3]] == [1, 3, 5]
    # As many arms as the width: no ranking needed, every arm searched.
    wide, calls = scripted(12, RISING, width=OPTIONS)
    wide.prior = lambda state, seat, actions: pytest.fail("no ranking needed")  # type: ignore[attr-defined]
    wide.choose(Duel(), 0, Rng.from_seed(6))
    assert {arm for arm, _ in calls} == set(range(OPTIONS))


def test_one_ply_prior_plays_out_the_seats_own_turn_then_evaluates() -> None:
    game = DuelGame()
    seen: list[list[tuple[int, int]]] = []

    def evaluate(world: Duel, seat: int) -> float:
        seen.append(list(world.picks))
        return float(sum(n for s, n in world.picks if s == seat))

    prior = one_ply_prior(game, _copy, evaluate, "first")  # type: ignore[arg-type]
    values = prior(Duel(), 0, [Pick(n) for n in range(OPTIONS)])
    assert values == [float(n) for n in range(OPTIONS)]
    # Seat 0's second pick is played by the policy (First picks 0); seat 1 never plays.
    assert seen == [[(0, n), (0, 0)] for n in range(OPTIONS)]
    # After the seat's turn is over nothing more is played: seat 1 is left to decide.
    later = Duel(picks=[(0, 3)])
    assert prior(later, 0, [Pick(2)]) == [5.0]
    assert seen[-1] == [(0, 3), (0, 2)]


class Triple(Duel):
    """Seat 0's turn has three steps."""

    def waiting(self) -> int | None:
        return [0, 0, 0, 1][len(self.picks)] if len(self.picks) < 4 else None


def test_one_ply_prior_plays_every_remaining_step_of_a_longer_turn() -> None:
    seen: list[int] = []

    def evaluate(world: Duel, seat: int) -> float:
        seen.append(len(world.picks))
        return 0.0

    prior = one_ply_prior(DuelGame(), _copy, evaluate, "first")  # type: ignore[arg-type]
    prior(Triple(), 0, [Pick(1)])
    assert seen == [3]  # the action, then the two steps left of the seat's turn


def test_a_budget_spent_in_the_first_round_picks_the_best_arm_ties_to_the_earlier() -> None:
    # 6 arms, 6 simulations: one round, all six still alive when the budget runs out.
    flat = dict.fromkeys(range(OPTIONS), 0.5)
    searched, calls = scripted(OPTIONS, flat)
    assert searched.choose(Duel(), 0, Rng.from_seed(7)) == Pick(0)
    assert len(calls) == OPTIONS
    bumpy = {**flat, 3: 0.6, 4: 0.6}
    searched, _ = scripted(OPTIONS, bumpy)
    assert searched.choose(Duel(), 0, Rng.from_seed(7)) == Pick(3)


def test_two_arms_get_one_round_that_spends_the_whole_budget() -> None:
    ranks = {n: float(n) for n in range(OPTIONS)}  # the prior keeps arms 4 and 5
    searched, calls = scripted(8, RISING, width=2)
    searched.prior = lambda state, seat, actions: [ranks[a.n] for a in actions]  # type: ignore[attr-defined]
    assert searched.choose(Duel(), 0, Rng.from_seed(8)) == Pick(5)
    assert Counter(arm for arm, _ in calls) == {4: 4, 5: 4}  # one round, 8 // 2 each


def test_a_time_limit_stops_after_the_seed_it_runs_out_in() -> None:
    searched, calls = scripted(24, RISING, time_limit=3600.0)
    searched.choose(Duel(), 0, Rng.from_seed(9))
    assert Counter(arm for arm, _ in calls) == halving_counts(OPTIONS, 24, RISING)
    searched, calls = scripted(24, FALLING, time_limit=0.0)
    assert searched.choose(Duel(), 0, Rng.from_seed(9)) == Pick(0)
    assert sorted(arm for arm, _ in calls) == list(range(OPTIONS))  # one seed, every arm


class ScoredDuel(DuelGame):
    """Duel with points: seat 0 scores its picks, seat 1 its pick plus 4."""

    def outcome(self, state: Duel) -> Outcome | None:
        if state.waiting() is not None:
            return None
        mine = sum(n for s, n in state.picks if s == 0)
        theirs = sum(n for s, n in state.picks if s == 1) + 4
        ranks = rank_totals([mine, theirs])
        return Outcome(tuple(Standing(s, f"P{s}", t, (), ranks[s])
                             for s, t in enumerate((mine, theirs))))


def test_a_margin_values_a_finished_game_half_by_winning_half_by_the_lead() -> None:
    searched = SearchPlayer(ScoredDuel(), _copy,  # type: ignore[arg-type]
                            SearchConfig(iterations=6, margin=2.0))
    # Seat 0 picks 5, then 0 (the rollout's First); seat 1 picks 0: 5 against 4.
    won = searched.simulate(Duel(), 0, Pick(5), 1)
    assert won == pytest.approx(0.5 * 1.0 + 0.5 / (1 + math.exp(-0.5)))
    lost = searched.simulate(Duel(), 0, Pick(1), 1)  # 1 against 4
    assert lost == pytest.approx(0.5 * 0.0 + 0.5 / (1 + math.exp(1.5)))
    seat_one = searched.simulate(Duel(picks=[(0, 1), (0, 0)]), 1, Pick(0), 1)
    assert seat_one == pytest.approx(0.5 * 1.0 + 0.5 / (1 + math.exp(-1.5)))


class Long(Duel):
    """Seat 0 has two steps, then seat 1 three."""

    def waiting(self) -> int | None:
        return [0, 0, 1, 1, 1][len(self.picks)] if len(self.picks) < 5 else None


def test_the_horizon_counts_the_actions_played_after_the_searched_one() -> None:
    cut: list[int] = []

    def evaluate(world: Duel, seat: int) -> float:
        cut.append(len(world.picks))
        return 0.5

    searched = SearchPlayer(DuelGame(), _copy, SearchConfig(iterations=6, horizon=2),  # type: ignore[arg-type]
                            evaluate=evaluate)
    searched.simulate(Long(), 0, Pick(3), 1)
    # The searched pick, then two actions (seat 0's second step, seat 1's first): cut.
    assert cut == [3]


def test_candidates_narrow_the_arms_and_a_single_one_is_played_unsearched() -> None:
    searched, calls = scripted(8, RISING)
    searched.candidates = lambda state, seat, arms: [a for a in arms if a.n in (2, 4)]
    assert searched.choose(Duel(), 0, Rng.from_seed(10)) == Pick(4)  # searched: 4 beats 2
    assert Counter(arm for arm, _ in calls) == {2: 4, 4: 4}
    searched, calls = scripted(8, RISING)
    searched.candidates = lambda state, seat, arms: [Pick(3)]
    assert searched.choose(Duel(), 0, Rng.from_seed(10)) == Pick(3) and calls == []
    searched, calls = scripted(8, RISING)
    searched.candidates = lambda state, seat, arms: []  # nothing left out after all
    assert searched.choose(Duel(), 0, Rng.from_seed(10)) == Pick(5)


def test_a_lone_competitor_has_the_whole_value() -> None:
    alone = Outcome((Standing(0, "P0", 3, (), 1),))
    assert outcome_value(alone, 0) == 1.0


class Few(DuelGame):
    """A position with ``count`` legal moves."""

    def __init__(self, count: int) -> None:
        self.count = count

    def legal_actions(self, state: Duel, seat: int) -> list[Pick]:
        return super().legal_actions(state, seat)[: self.count]


@pytest.mark.parametrize("moves", [1, 2, 3])
def test_only_a_single_legal_move_is_played_unsearched(moves: int) -> None:
    searched, calls = scripted(8, RISING)
    searched.game = Few(moves)
    assert searched.choose(Duel(), 0, Rng.from_seed(9)) == Pick(moves - 1)  # the best
    assert (calls == []) is (moves == 1)
