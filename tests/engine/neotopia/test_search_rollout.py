"""The search's rollout player decides exactly as the greedy player it stands for.

``FastGreedy`` scans patterns region by region from a cache; the search models its
opponents with it, so a cache keyed on too little would make the search plan against
a player that does not exist. Checked move by move over whole games (one
``FastGreedy`` kept across them, its caches warm), and the scans themselves against
the full ones.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st_

from engine.core import Rng
from engine.neotopia import GAME, patterns
from engine.neotopia import ai as greedy_module
from engine.neotopia.search import FastGreedy, opportunities, progress


@settings(max_examples=4, deadline=None)
@given(seed=st_.integers(0, 2**32 - 1), seats=st_.integers(2, 4), mirror=st_.booleans())
def test_fast_greedy_chooses_as_greedy(seed: int, seats: int, mirror: bool) -> None:
    fast = FastGreedy()
    greedy = GAME.ai("greedy")
    chaos = GAME.ai("random")
    state = GAME.setup(seats, {"mirror": mirror}, seed)
    rng = Rng.from_seed(seed)
    decisions = 0
    while GAME.outcome(state) is None:
        seat = min(GAME.pending(state).waiting)
        hand, board = state.hands[seat], state.board
        assert opportunities(state.data, board, hand, mirror) == \
            patterns.opportunities(state.data, board, hand, mirror)
        assert progress(state.data, board, hand, mirror) == \
            patterns.progress(state.data, board, hand, mirror)
        r1, r2 = Rng(rng.state), Rng(rng.state)
        expected = greedy.choose(state, seat, r1)
        assert fast.choose(state, seat, r2) == expected
        assert r1.state == r2.state  # the same draws: the same rollouts afterwards
        assert getattr(greedy_module, "patterns") is patterns  # noqa: B009  (the opponents untouched)
        decisions += 1
        # A random seat now and then, so that boards the greedy players would never
        # make are met too.
        player = chaos if seat == seed % seats else greedy
        GAME.apply(state, seat, player.choose(state, seat, rng))
    assert decisions > 40


def test_worth_is_the_total_the_end_would_give_with_its_tie_breaks() -> None:
    """Mid-game, ``worth`` is what ending the game now would score (group points added
    once); at the end, the outcome's total; a won tie-break is worth a fraction more."""
    from engine.neotopia.rules import finish
    from engine.neotopia.scoring import outcome
    from engine.neotopia.search import worth

    greedy = GAME.ai("greedy")
    state = GAME.setup(4, {}, 3)
    rng = Rng.from_seed(3)
    steps = seen_set_up = 0
    while GAME.outcome(state) is None:
        if steps % 40 == 39:
            ended = state.copy()
            finish(ended, "stall", [])
            for s in outcome(ended).standings:
                assert s.seat is not None
                assert int(worth(state, s.seat)) == s.total
                assert int(worth(ended, s.seat)) == s.total
                # Cards set up (one element short) add to the worth, and only they.
                set_up = opportunities(state.data, state.board, state.hands[s.seat], False)
                gain = worth(state, s.seat, 0.5) - worth(state, s.seat)
                assert (gain > 0.4) == bool(set_up)
                seen_set_up += bool(set_up)
        seat = state.current
        GAME.apply(state, seat, greedy.choose(state, seat, rng))
        steps += 1
    assert seen_set_up > 0
    final = outcome(state)
    by_key = sorted(final.standings, key=lambda s: worth(state, s.seat or 0), reverse=True)
    assert [s.rank for s in by_key] == sorted(s.rank for s in final.standings)
