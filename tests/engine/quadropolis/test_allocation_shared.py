"""What the allocation search works out once and shares (issue 25), against the plain
scorer and the brute force (engine/quadropolis/search.py, subset_scores.py):

- the points of every subset of a few buildings at once (``subset_scores``) and a scorer
  left with the terms a set of buildings can change (``Scorer.restricted``) give the
  numbers ``Scorer.score`` gives;
- under a cut, a piece's table is shared by the cut's assignments that agree on the
  buildings it reaches, and its scored subsets by the harbor-run guesses; lone buildings
  of one cost are one table: cities with many harbors, parks, factories and offices,
  conditioned hard (``SMALL``, ``MAX_CUT`` lowered), and cities of lone buildings that
  tie, choose what the brute force chooses;
- the running score of a view is the changed city's, never a copy's or the state's it was
  copied from.

Seeded generators (not Hypothesis): the same cities every run, each case cheap."""

from __future__ import annotations

import random
from unittest.mock import patch

import pytest

from engine.quadropolis import GAME, search
from engine.quadropolis.allocation import allocate, brute_force
from engine.quadropolis.scoring import Building, City, Scorer, city_of, make_city
from engine.quadropolis.subset_scores import subset_scores
from tests.engine.quadropolis.helpers import build, fresh, tile_id

KINDS = ["tower_block", "shop", "public_service", "park", "factory", "harbor", "office",
         "monument"]


def any_city(rng: random.Random, most: int = 20) -> City:
    """Any mix of buildings, classic or expert, full or nearly empty."""
    mode = rng.choice(["classic", "expert"])
    cols = 4 if mode == "classic" else 5
    kinds = KINDS[:6] if mode == "classic" else KINDS
    spots = rng.sample([(r, c) for r in range(1, 5) for c in range(1, cols + 1)],
                       rng.randint(1, min(most, 4 * cols)))
    buildings = []
    for row, col in spots:
        kind = rng.choice(kinds)
        floors = rng.randint(1, 5) if kind in ("tower_block", "office") else 1
        vp = rng.randint(0, 3) if kind in ("public_service", "harbor") else 0
        square = kind == "park" and rng.random() < 0.3
        buildings.append(Building(row, col, kind, floors, vp, square))
    return make_city(mode, buildings, rng.randint(0, 12), rng.randint(0, 12))


def with_bits(base: int, items: list[int], subset: int) -> int:
    return base | sum(1 << i for j, i in enumerate(items) if subset >> j & 1)


@pytest.mark.parametrize("runs", [False, True])
def test_every_subset_at_once_scores_as_the_scorer(runs: bool) -> None:
    rng = random.Random(25)
    for _ in range(300):
        city = any_city(rng)
        scorer = Scorer(city, runs=runs)
        n = len(city.buildings)
        items = sorted(rng.sample(range(n), rng.randint(0, min(n, 7))))
        base = rng.getrandbits(n) | scorer.always
        outside = base & ~sum(1 << i for i in items)
        expected = [scorer.score(with_bits(outside, items, m)) for m in range(1 << len(items))]
        assert subset_scores(scorer, items, base) == expected, (city, items, base)


def test_a_restricted_scorer_keeps_every_difference_within_its_buildings() -> None:
    rng = random.Random(25)
    for _ in range(300):
        city = any_city(rng)
        scorer = Scorer(city, runs=False)
        n = len(city.buildings)
        items = sorted(rng.sample(range(n), rng.randint(1, n)))
        mine = sum(1 << i for i in items)
        narrow = scorer.restricted(mine)
        base = (rng.getrandbits(n) | scorer.always) & ~mine
        for _ in range(4):
            subset = rng.getrandbits(n) & mine
            assert (narrow.score(base | subset) - narrow.score(base)
                    == scorer.score(base | subset) - scorer.score(base)), (city, items)


def crowded_city(rng: random.Random) -> City:
    """Up to 11 buildings, a third of them harbors (run guesses), with the parks,
    factories and offices that tie them into one large part."""
    mode = rng.choice(["classic", "expert"])
    cols = 4 if mode == "classic" else 5
    kinds = ["harbor", "harbor", "harbor", "park", "factory", "factory", "shop",
             "tower_block", "public_service"]
    if mode == "expert":
        kinds += ["office", "office", "monument"]
    spots = rng.sample([(r, c) for r in range(1, 5) for c in range(1, cols + 1)],
                       rng.randint(6, 11))
    buildings = []
    for row, col in spots:
        kind = rng.choice(kinds)
        floors = rng.randint(1, 5) if kind in ("tower_block", "office") else 1
        vp = rng.randint(0, 3) if kind in ("public_service", "harbor") else 0
        buildings.append(Building(row, col, kind, floors, vp))
    return make_city(mode, buildings, rng.randint(0, 10), rng.randint(0, 10))


@pytest.mark.parametrize(("small", "cut"), [(1, 2), (2, 1), (2, 4), (3, 12)])
def test_pieces_shared_between_cuts_and_guesses_choose_as_the_brute_force(
    small: int, cut: int
) -> None:
    rng = random.Random(small * 100 + cut)
    for _ in range(120):
        city = crowded_city(rng)
        with patch.object(search, "SMALL", small), patch.object(search, "MAX_CUT", cut):
            fast = allocate.__wrapped__(city)  # past the cache
        slow = brute_force(city)
        assert (fast.key, fast.active) == (slow.key, slow.active), city


def test_lone_buildings_of_one_cost_that_tie_choose_the_earliest() -> None:
    """Towers of the same height with no park, harbors of the same points in no run,
    shops with no factory: lone buildings of one cost, more of them than the resources
    can hold, so only the reading order tells the best ones apart."""
    rng = random.Random(25)
    for _ in range(150):
        spots = rng.sample([(r, c) for r in range(1, 5) for c in range(1, 5)], rng.randint(3, 11))
        buildings = []
        for row, col in spots:
            kind = rng.choice(["tower_block", "harbor", "shop", "factory"])
            floors = rng.choice([1, 1, 2]) if kind == "tower_block" else 1
            buildings.append(Building(row, col, kind, floors, rng.choice([0, 0, 1])
                                      if kind == "harbor" else 0))
        city = make_city("classic", buildings, rng.randint(0, 5), rng.randint(0, 5))
        fast, slow = allocate.__wrapped__(city), brute_force(city)
        assert (fast.key, fast.active) == (slow.key, slow.active), city


def test_a_copy_changed_after_its_view_scores_its_own_city() -> None:
    state = fresh(2, mode="expert", seed=5)
    build(state, 0, 1, 1, [tile_id("tower_block", mode="expert")])
    build(state, 0, 1, 2, [tile_id("park", mode="expert")])
    state.players[0].energy = 2
    before = GAME.view(state, None)["players"][0]["score_now"]
    assert before == brute_force(city_of(state, 0)).total
    copy = state.copy()
    build(copy, 0, 2, 2, [tile_id("tower_block", mode="expert")])
    changed = GAME.view(copy, 0)["players"][0]["score_now"]
    assert changed == brute_force(city_of(copy, 0)).total != before
    # The same stacks with other resources are another city too.
    copy.players[0].energy = 0
    poorer = GAME.view(copy, 1)["players"][0]["score_now"]
    assert poorer == brute_force(city_of(copy, 0)).total != changed
    # The state copied from still scores its own city.
    assert GAME.view(state, 1)["players"][0]["score_now"] == before
