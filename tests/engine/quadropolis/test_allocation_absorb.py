"""Parks absorb the energy left over, one barrel each, the earliest park first, down to
the last barrel (engine/quadropolis/allocation.py ``evaluate``; RULINGS "Allocation")."""

from __future__ import annotations

import pytest

from engine.quadropolis.allocation import allocate, evaluate
from engine.quadropolis.scoring import Building, make_city


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_a_park_absorbs_the_last_barrel(mode: str) -> None:
    city = make_city(mode, [Building(1, 1, "park")], inhabitants=0, energy=1)
    a = allocate.__wrapped__(city)
    assert a.absorbed_on == (1,) and a.absorbed == 1
    assert a.unplaced_energy == 0 and a.score["penalty_energy"] == 0
    assert a.to_json()["buildings"][0]["energy"] == 1


def test_one_barrel_for_two_parks_goes_to_the_earlier() -> None:
    city = make_city("classic", [Building(3, 3, "park"), Building(1, 2, "park")], 0, 1)
    a = allocate.__wrapped__(city)
    assert [(b.row, b.col) for b in city.buildings] == [(1, 2), (3, 3)]
    assert a.absorbed_on == (1, 0) and a.unplaced_energy == 0


def test_each_park_absorbs_one_barrel_and_the_rest_is_a_penalty() -> None:
    parks = [Building(1, 1, "park"), Building(2, 3, "park"), Building(4, 4, "park", square=True)]
    for energy, absorbed, penalty in ((1, (1, 0, 0), 0), (2, (1, 1, 0), 0),
                                      (3, (1, 1, 0), -1), (0, (0, 0, 0), 0)):
        a = evaluate(make_city("classic", parks, 0, energy), 0)
        assert a is not None
        assert a.absorbed_on == absorbed, energy
        assert a.score["penalty_energy"] == penalty == -a.unplaced_energy
        assert a.absorbed == sum(absorbed)


def test_energy_used_by_buildings_is_not_absorbed_again() -> None:
    # A tower uses one barrel; the park takes the one left; nothing is left over.
    city = make_city("classic", [Building(1, 1, "tower_block", 2), Building(1, 2, "park")],
                     0, 2)
    a = allocate.__wrapped__(city)
    assert a.active == (True, True)
    assert a.absorbed_on == (0, 1) and a.energy_placed == 1 and a.unplaced_energy == 0
