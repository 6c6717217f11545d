"""The anchor's edges (engine/core/search.py ``_pick``): a lead of exactly the anchor is
enough to override the policy's choice, and an anchor searched once weighs that one
simulation in full. Values are exact in binary, so the comparisons are exact too."""

from __future__ import annotations

from collections import Counter

from engine.core.rng import Rng
from tests.engine.core.test_search_anchor import NEAR, Always
from tests.engine.core.test_search_budget import OPTIONS, Duel, Pick
from tests.engine.core.test_search_schedule import scripted

# The policy's arm (0) is worth 0.5: slope 0.5 * (1 - 0.5) = 0.25. An anchor of 0.25
# logits then asks for a lead of 0.25 * 0.25 = 0.0625 exactly.
EDGE = {n: 0.5 for n in range(OPTIONS)}
EDGE[5] = 0.5 + 0.0625


def test_a_lead_of_exactly_the_anchor_overrides_the_policy() -> None:
    searched, _ = scripted(24, EDGE, policy=Always(0), anchor=0.25)
    assert searched.choose(Duel(), 0, Rng.from_seed(1)) == Pick(5)


def test_a_lead_just_under_the_anchor_does_not() -> None:
    under = {**EDGE, 5: 0.5 + 0.0625 - 2 ** -20}
    searched, _ = scripted(24, under, policy=Always(0), anchor=0.25)
    assert searched.choose(Duel(), 0, Rng.from_seed(1)) == Pick(0)


def test_an_anchor_searched_once_counts_its_simulation_in_full() -> None:
    # One simulation per arm (6 arms, 6 iterations: the first round spends them all).
    searched, calls = scripted(OPTIONS, NEAR, policy=Always(0), anchor=0.3)
    assert searched.choose(Duel(), 0, Rng.from_seed(5)) == Pick(0)
    assert Counter(arm for arm, _ in calls) == dict.fromkeys(range(OPTIONS), 1)
    # 0.05 better at 0.5 is 0.2 logits, under 0.3: the policy's choice stands. Had the
    # anchor's one simulation counted as half, 0.3 better at 0.25 would have overridden it.
