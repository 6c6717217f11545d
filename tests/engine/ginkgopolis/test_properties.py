"""Properties over random games to the end, for 1-5 players and both character modes."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from engine.core.conformance import canonical, run_conformance
from engine.core.rng import Rng
from engine.ginkgopolis import GAME
from tests.engine.ginkgopolis.helpers import check_invariants

SEATS = st_.integers(min_value=1, max_value=5)
MODES = st_.sampled_from(["draft", "intro"])
SEEDS = st_.integers(min_value=0, max_value=2**32)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seats=SEATS, mode=MODES, seed=SEEDS, data=st_.data())
def test_components_accounted_for_at_every_step(seats: int, mode: str, seed: int,
                                                data: st_.DataObject) -> None:
    """Who moves and what they play are drawn by Hypothesis: a failure shrinks to a short
    game of first choices. A drawn choice may also be the greedy AI's."""
    state = GAME.setup(seats, {"characters": mode}, seed)
    rng = Rng.from_seed(seed)
    greedy = GAME.ai("greedy")
    check_invariants(state)
    steps = 0
    while GAME.outcome(state) is None:
        waiting = sorted(GAME.pending(state).waiting)
        seat = data.draw(st_.sampled_from(waiting), label="seat") if len(waiting) > 1 \
            else waiting[0]
        legal = GAME.legal_actions(state, seat)
        pick = data.draw(st_.integers(-1, len(legal) - 1), label="action")
        GAME.apply(state, seat, greedy.choose(state, seat, rng) if pick < 0 else legal[pick])
        check_invariants(state)
        steps += 1
        assert steps < 2000, "the game always ends"
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert len(outcome.standings) == (2 if seats == 1 else seats)


@settings(max_examples=25, deadline=None)
@given(seats=SEATS, mode=MODES, seed=SEEDS)
def test_conformance_random_games(seats: int, mode: str, seed: int) -> None:
    """Replay, JSON round trip, views that never leak, legal actions that apply, an end."""
    run_conformance(GAME, seats, {"characters": mode}, seed, check_every=3)


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("expert", [False, True])
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS)
def test_conformance_with_options(seed: int, strict: bool, expert: bool) -> None:
    run_conformance(GAME, 1, {"strict_screens": strict, "expert_hal": expert}, seed, check_every=4)
    run_conformance(GAME, 3, {"strict_screens": strict}, seed, check_every=4)


def test_same_seed_and_actions_give_the_same_state() -> None:
    def play(seed: int) -> str:
        state = GAME.setup(4, {}, seed)
        rng = Rng.from_seed(99)
        ai = GAME.ai("greedy")
        while GAME.outcome(state) is None:
            seat = min(GAME.pending(state).waiting)
            GAME.apply(state, seat, ai.choose(state, seat, rng))
        return canonical(GAME.state_to_json(state))

    assert play(5) == play(5)
    assert play(5) != play(6)


def test_state_json_is_plain_json() -> None:
    state = GAME.setup(5, {}, 3)
    text = json.dumps(GAME.state_to_json(state))
    assert canonical(GAME.state_to_json(GAME.state_from_json(json.loads(text)))) == canonical(
        GAME.state_to_json(state)
    )
