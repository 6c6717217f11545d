"""The fast scorer the search and the allocation call for every subset they try must give
what the category-by-category scoring gives, for any set of activated buildings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.rng import Rng
from engine.quadropolis import GAME
from engine.quadropolis.scoring import City, Scorer, city_of


def final_cities(seats: int, mode: str, seed: int) -> list[City]:
    state = GAME.setup(seats, {"mode": mode}, seed)
    rng = Rng.from_seed(seed)
    players = [GAME.ai("greedy") for _ in range(seats)]
    while GAME.outcome(state) is None:
        seat = min(GAME.pending(state).waiting)
        GAME.apply(state, seat, players[seat].choose(state, seat, rng))
    return [city_of(state, s) for s in range(seats)]


@pytest.mark.parametrize("mode", ["classic", "expert"])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), data=st.data())
def test_the_fast_score_is_the_sum_of_the_categories(mode: str, seed: int,
                                                    data: st.DataObject) -> None:
    for city in final_cities(4, mode, seed):
        scorer = Scorer(city)
        assert scorer.n == len(city.buildings)
        masks = data.draw(st.lists(st.integers(min_value=0, max_value=(1 << scorer.n) - 1),
                                   min_size=8, max_size=8), label="masks")
        for mask in [0, (1 << scorer.n) - 1, *masks]:
            mask |= scorer.always  # parks and monuments count without activation
            assert scorer.score(mask) == sum(scorer.categories(mask).values()), mask
