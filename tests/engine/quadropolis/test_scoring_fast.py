"""The fast scorer the search and the allocation call for every subset they try must give
what the category-by-category scoring gives, for any set of activated buildings."""

from __future__ import annotations

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from engine.core.rng import Rng
from engine.quadropolis import GAME
from engine.quadropolis.scoring import Building, City, Scorer, city_of, make_city


def final_cities(seats: int, mode: str, seed: int) -> list[City]:
    state = GAME.setup(seats, {"mode": mode}, seed)
    rng = Rng.from_seed(seed)
    players = [GAME.ai("greedy") for _ in range(seats)]
    while GAME.outcome(state) is None:
        seat = min(GAME.pending(state).waiting)
        GAME.apply(state, seat, players[seat].choose(state, seat, rng))
    return [city_of(state, s) for s in range(seats)]


# Each example plays four whole games: shrinking one (dozens of replays) took minutes
# under a wrong scorer. No shrink phase: a failure is reported as drawn, in seconds, with
# its seed and masks (and its blob, on CI); the drawn-city test below shrinks cheaply.
@pytest.mark.parametrize("mode", ["classic", "expert"])
@settings(max_examples=4, deadline=None,
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
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


TYPES = ("tower_block", "shop", "public_service", "park", "factory", "harbor", "office",
         "monument")


@st.composite
def cities(draw: st.DrawFn, mode: str) -> City:
    """Any city the board can hold, crowded ones included (a park ringed by towers,
    long harbor runs, big office groups), which real games reach rarely."""
    board = City(mode, (), 0, 0).board
    spaces = [(r, c) for r in range(1, board.rows + 1) for c in range(1, board.cols + 1)]
    chosen = draw(st.lists(st.sampled_from(spaces), unique=True, max_size=len(spaces)))
    types = TYPES if mode == "expert" else TYPES[:6]
    buildings = []
    for row, col in chosen:
        kind = draw(st.sampled_from(types))
        floors = draw(st.integers(min_value=1, max_value=5)) if kind in (
            "tower_block", "office") else 1
        vp = draw(st.integers(min_value=0, max_value=4)) if kind in (
            "public_service", "harbor") else 0
        buildings.append(Building(row, col, kind, floors, vp))
    return make_city(mode, buildings, 0, 0)


@pytest.mark.parametrize("mode", ["classic", "expert"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_fast_score_is_the_sum_of_the_categories_in_any_city(
        mode: str, data: st.DataObject) -> None:
    city = data.draw(cities(mode), label="city")
    scorer = Scorer(city)
    full = (1 << scorer.n) - 1
    for mask in (full, data.draw(st.integers(min_value=0, max_value=max(full, 0)))):
        mask |= scorer.always
        assert scorer.score(mask) == sum(scorer.categories(mask).values())


_KINDS = ("public_service", "tower_block", "harbor", "factory")


@pytest.mark.parametrize(("mode", "kind"), [
    *(("classic", k) for k in _KINDS),  # offices and monuments are expert buildings
    *(("expert", k) for k in (*_KINDS, "office", "monument"))])
def test_the_fast_score_agrees_on_a_board_full_of_one_kind(mode: str, kind: str) -> None:
    """Every space one kind, at its most floors: the top row of every table (all the
    districts, the longest harbor runs, one big office group), which drawn cities and real
    games seldom reach."""
    board = City(mode, (), 0, 0).board
    floors = 5 if kind in ("tower_block", "office") else 1
    city = make_city(mode, [Building(r, c, kind, floors, 1) for r in range(1, board.rows + 1)
                            for c in range(1, board.cols + 1)], 0, 0)
    for runs in (True, False):
        scorer = Scorer(city, runs=runs)
        for mask in ((1 << scorer.n) - 1, 0b1011, scorer.always):
            mask |= scorer.always
            assert scorer.score(mask) == sum(scorer.categories(mask).values()), (runs, mask)


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_a_park_ringed_by_four_towers_scores_the_top_of_its_table(mode: str) -> None:
    ring = [Building(r, c, "tower_block") for r, c in ((1, 2), (3, 2), (2, 1), (2, 3))]
    city = make_city(mode, [Building(2, 2, "park"), *ring], 0, 0)
    scorer = Scorer(city)
    everything = (1 << scorer.n) - 1
    park_table = city.tables.park
    assert scorer.categories(everything)["parks"] == park_table[4] == park_table[-1]
    assert scorer.score(everything) == sum(scorer.categories(everything).values())
    towers_off = scorer.always  # only what needs no activation: the park alone
    assert scorer.categories(towers_off)["parks"] == park_table[0]
    assert scorer.score(towers_off) == park_table[0]


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_the_fast_score_agrees_for_every_kind_ringed_by_every_kind(mode: str) -> None:
    """Every kind of building with four neighbours of one kind (each kind, squares too),
    under every activation: every adjacency rule, up to four times, deterministically
    (drawn cities seldom put, say, a monument beside active public services)."""
    types = TYPES if mode == "expert" else TYPES[:6]
    ring = ((1, 2), (3, 2), (2, 1), (2, 3))
    variants = [(kind, False) for kind in types] + [("park", True)]
    for centre, centre_square in variants:
        for around, around_square in variants:
            city = make_city(mode, [
                Building(2, 2, centre, 3 if centre in ("tower_block", "office") else 1, 2,
                         centre_square),
                *(Building(r, c, around, 2 if around in ("tower_block", "office") else 1, 1,
                           around_square) for r, c in ring)], 0, 0)
            scorer = Scorer(city)
            for mask in range(1 << scorer.n):
                mask |= scorer.always
                assert scorer.score(mask) == sum(scorer.categories(mask).values()), (
                    centre, around, mask)
