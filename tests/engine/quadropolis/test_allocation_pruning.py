"""The allocation search's two prunings against the brute force, on seeded cities of the
kinds that reach them (engine/quadropolis/search.py):

- the harbor-run guesses: a guess is skipped only when its ceiling (the best total with
  no run points, plus the guess's run points) is below the best *total* found; cities
  with many harbors have several runs of different lengths, and cities with energy
  nowhere to go have negative totals, where a wrong comparison prunes the right guess;
- the office branch and bound (``office_block``): a bound per office of
  ``f(f-1)/2 + 4f + 4`` per park or active factory beside it; cities crowded with
  offices and parks, with ``SMALL`` lowered so that offices are searched that way.

Seeded generators (not Hypothesis): the same cities every run, each case cheap."""

from __future__ import annotations

import random
from collections.abc import Callable
from unittest.mock import patch

import pytest

from engine.quadropolis import search
from engine.quadropolis.allocation import allocate, brute_force
from engine.quadropolis.scoring import Building, City, make_city

CITIES = 400


def harbor_city(rng: random.Random) -> City:
    """Classic, 6 to 11 buildings, three in seven harbors: runs of 2, 3 and 4."""
    spots = rng.sample([(r, c) for r in range(1, 5) for c in range(1, 5)], rng.randint(6, 11))
    buildings = []
    for row, col in spots:
        kind = rng.choice(["harbor", "harbor", "harbor", "public_service", "shop",
                           "tower_block", "factory"])
        floors = rng.randint(1, 4) if kind == "tower_block" else 1
        vp = rng.randint(0, 3) if kind in ("harbor", "public_service") else 0
        buildings.append(Building(row, col, kind, floors, vp))
    return make_city("classic", buildings, rng.randint(0, 12), rng.randint(0, 12))


def crowded_with_energy(rng: random.Random) -> City:
    """Harbors and public services only (nothing takes energy), 4 to 12 barrels: every
    total is low or negative."""
    spots = rng.sample([(r, c) for r in range(1, 5) for c in range(1, 5)], rng.randint(5, 10))
    buildings = [Building(row, col, rng.choice(["harbor", "harbor", "public_service"]), 1,
                          rng.randint(0, 3)) for row, col in spots]
    return make_city("classic", buildings, rng.randint(1, 4), rng.randint(4, 12))


def office_city(rng: random.Random) -> City:
    """Expert, 6 to 11 buildings, offices and parks beside factories and towers."""
    spots = rng.sample([(r, c) for r in range(1, 5) for c in range(1, 6)], rng.randint(6, 11))
    buildings = []
    for row, col in spots:
        kind = rng.choice(["office", "office", "park", "park", "factory", "tower_block"])
        floors = rng.randint(1, 5) if kind in ("office", "tower_block") else 1
        buildings.append(Building(row, col, kind, floors))
    return make_city("expert", buildings, rng.randint(0, 10), rng.randint(0, 10))


@pytest.mark.parametrize("make", [harbor_city, crowded_with_energy],
                         ids=["many_harbors", "energy_nowhere"])
def test_the_run_guesses_pruned_are_never_the_best(make: Callable[[random.Random], City]
                                                   ) -> None:
    rng = random.Random(23)
    for _ in range(CITIES):
        city = make(rng)
        fast, slow = allocate.__wrapped__(city), brute_force(city)  # past the cache
        assert (fast.key, fast.active) == (slow.key, slow.active), city


@pytest.mark.parametrize("small", [1, 2])
def test_the_office_branch_and_bound_never_cuts_the_best(small: int) -> None:
    rng = random.Random(23)
    for _ in range(CITIES):
        city = office_city(rng)
        with patch.object(search, "SMALL", small):
            fast = allocate.__wrapped__(city)
        slow = brute_force(city)
        assert (fast.key, fast.active) == (slow.key, slow.active), city
