"""The search's anchor: the rollout player's own choice is always searched and is kept
unless another action beats it by the anchor, in logits of the value at that choice.

Worked by hand on the stub game of test_search_budget.py, with a simulation whose value
is known for every arm (``scripted`` of test_search_schedule.py): at a value of 0.5 the
slope is 0.25, so a gain of 0.05 is 0.2 logits."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.rng import Rng
from engine.core.search import SearchPlayer
from tests.engine.core.test_search_budget import OPTIONS, Duel, Pick
from tests.engine.core.test_search_schedule import scripted

NEAR = {n: 0.5 + 0.01 * n for n in range(OPTIONS)}  # Pick(5) is the best, by 0.01 a step


class Always:
    """A rollout player that always picks ``n``."""

    def __init__(self, n: int) -> None:
        self.n = n

    def choose(self, state: Duel, seat: int, rng: Rng) -> Pick:
        return Pick(self.n)


class Never:
    def choose(self, state: Duel, seat: int, rng: Rng) -> Pick:
        raise AssertionError("the policy was asked")


def anchored(anchor: float | None, policy: Any, **config: Any
             ) -> tuple[SearchPlayer, list[tuple[int, int]]]:
    return scripted(24, NEAR, policy=policy, anchor=anchor, **config)


@pytest.mark.parametrize(("anchor", "policy", "expected"), [
    (0.1, 0, 5),   # 0.05 better: 0.2 logits, more than 0.1
    (0.3, 0, 0),   # ... less than 0.3: the policy's choice stands
    (0.05, 3, 5),  # 0.02 better: 0.08 logits
    (0.1, 3, 3),
    (0.0, 3, 5),   # an anchor of 0: the best arm, as without one
    (5.0, 5, 5),   # the policy's choice is the best: nothing to override
])
def test_the_policys_choice_stands_unless_beaten_by_the_anchor(
        anchor: float, policy: int, expected: int) -> None:
    searched, _ = anchored(anchor, Always(policy))
    assert searched.choose(Duel(), 0, Rng.from_seed(1)) == Pick(expected)


def test_the_policys_choice_is_searched_in_every_round_though_the_worst() -> None:
    searched, calls = anchored(1.0, Always(0))
    searched.choose(Duel(), 0, Rng.from_seed(2))
    seeds = {seed for _, seed in calls}
    assert len(seeds) > 1  # several rounds, each with new seeds
    assert {seed for arm, seed in calls if arm == 0} == seeds
    # The others are halved as usual: the worst of them leaves after the first round.
    assert len({seed for arm, seed in calls if arm == 1}) < len(seeds)


def test_a_policy_choice_the_prior_left_out_is_searched_all_the_same() -> None:
    searched, calls = anchored(1.0, Always(0), width=2)
    searched.prior = lambda state, seat, actions: [a.n for a in actions]  # type: ignore[attr-defined]
    assert searched.choose(Duel(), 0, Rng.from_seed(3)) == Pick(0)
    assert {arm for arm, _ in calls} == {0, 4, 5}


def test_without_an_anchor_the_policy_is_not_asked() -> None:
    searched, calls = anchored(None, Never())
    assert searched.choose(Duel(), 0, Rng.from_seed(4)) == Pick(5)
    assert calls
