"""The search's rollout player decides exactly as the greedy player it stands for.

``FastGreedy`` caches the greedy evaluations; the search models its opponents with it,
so a cache keyed on too little (a placement that depends on more than the city) would
make the search plan against a player that does not exist. Checked move by move over
whole games, with one ``FastGreedy`` kept across them so that its caches are warm.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st_

from engine.core import Rng
from engine.quadropolis import GAME
from engine.quadropolis.determinize import FastGreedy


@settings(max_examples=6, deadline=None)
@given(seed=st_.integers(0, 2**32 - 1), seats=st_.integers(2, 4),
       mode=st_.sampled_from(["classic", "expert"]))
def test_fast_greedy_chooses_as_greedy(seed: int, seats: int, mode: str) -> None:
    fast = FastGreedy()
    greedy = GAME.ai("greedy")
    chaos = GAME.ai("random")
    state = GAME.setup(seats, {"mode": mode}, seed)
    rng = Rng.from_seed(seed)
    decisions = 0
    while GAME.outcome(state) is None:
        seat = min(GAME.pending(state).waiting)
        r1, r2 = Rng(rng.state), Rng(rng.state)
        expected = greedy.choose(state, seat, r1)
        assert fast.choose(state, seat, r2) == expected
        assert r1.state == r2.state  # the same draws: the same rollouts afterwards
        decisions += 1
        # A random seat now and then, so that cities the greedy player would never
        # build are met too.
        player = chaos if seat == seed % seats else greedy
        GAME.apply(state, seat, player.choose(state, seat, rng))
    assert decisions > 40
