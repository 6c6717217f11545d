"""The allocation search's pruning of harbor-run guesses keeps a guess that only ties.

``Search.best_mask`` (engine/quadropolis/search.py) tries the guesses of the longest
harbor runs, richest run first, and skips a guess whose ceiling (the best total without
any run points, plus the guess's run points) is *below* the best total found so far. A
guess whose ceiling only *equals* that total may still hold the allocation the rules
choose: same total, but it wins a later tie-break (RULINGS "Allocation": ... then
reading order). Skipping it on a tie gives another allocation than the brute force.
"""

from __future__ import annotations

import random

from engine.quadropolis.allocation import allocate, brute_force, evaluate
from engine.quadropolis.scoring import Building, City, make_city
from engine.quadropolis.tiles import TABLES

CLASSIC = TABLES["classic"]


def test_a_run_guess_that_ties_does_not_hide_the_earlier_allocation() -> None:
    # Two inhabitants, three buildings that each cost one: any two of them.
    service = Building(1, 1, "public_service", vp=1)
    harbors = [Building(3, 4, "harbor"), Building(4, 4, "harbor")]  # a column run of 2
    city = make_city("classic", [service, *harbors], inhabitants=2, energy=0)
    service_alone = CLASSIC.public_service[1] + service.vp
    run_of_two = CLASSIC.harbor[2]
    # The three pairs score the same, place the same, fill the same spaces: only the
    # reading order tells them apart, and it prefers the public service on (1, 1).
    assert service_alone == run_of_two
    pairs = {(True, True, False), (True, False, True), (False, True, True)}
    keys = set()
    for active in pairs:
        mask = sum(1 << i for i, on in enumerate(active) if on)
        found = evaluate(city, mask)
        assert found is not None and found.total == run_of_two
        keys.add(found.key)
    assert len(keys) == 1
    # The run guess (3 points) is tried first and reaches 3; the no-run guess's ceiling
    # is 3 + 0: a tie, which must not be pruned.
    expected = (True, True, False)
    assert brute_force(city).active == expected
    assert allocate.__wrapped__(city).active == expected  # past the cache


def test_the_same_tie_with_the_run_in_a_row() -> None:
    service = Building(1, 1, "public_service", vp=1)
    harbors = [Building(4, 2, "harbor"), Building(4, 3, "harbor")]
    city = make_city("classic", [service, *harbors], inhabitants=2, energy=0)
    assert brute_force(city).active == (True, True, False)
    assert allocate.__wrapped__(city).active == (True, True, False)


def _city_with_a_harbor_pair(rng: random.Random) -> City:
    """A classic city around two adjacent harbors (a run guess), with a few services,
    harbors, shops and towers and few resources: ties between a run and no run."""
    r, c = rng.randint(1, 4), rng.randint(1, 3)
    pair = [(r, c), (r, c + 1)] if rng.random() < 0.5 else [(c, r), (c + 1, r)]
    buildings = [Building(row, col, "harbor", vp=rng.randint(0, 2)) for row, col in pair]
    free = [(row, col) for row in range(1, 5) for col in range(1, 5) if (row, col) not in pair]
    for row, col in rng.sample(free, rng.randint(1, 4)):
        kind = rng.choice(["harbor", "public_service", "public_service", "shop", "tower_block"])
        vp = rng.randint(0, 2) if kind in ("harbor", "public_service") else 0
        buildings.append(Building(row, col, kind, vp=vp))
    return make_city("classic", buildings, rng.randint(1, 4), rng.randint(0, 3))


def test_cities_built_around_a_harbor_run_equal_the_brute_force() -> None:
    rng = random.Random(23)
    for _ in range(400):
        city = _city_with_a_harbor_pair(rng)
        fast, slow = allocate.__wrapped__(city), brute_force(city)
        assert (fast.key, fast.active) == (slow.key, slow.active), city
