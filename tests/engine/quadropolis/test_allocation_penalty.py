"""An allocation's penalty: one point per inhabitant and per barrel left unplaced, both
counted (engine/quadropolis/allocation.py ``Allocation.penalty``, the last criterion of
its ``key``)."""

from __future__ import annotations

from engine.quadropolis.allocation import allocate
from engine.quadropolis.scoring import Building, make_city


def test_the_penalty_counts_inhabitants_and_energy_left_over() -> None:
    # Nothing takes resources: 3 inhabitants and 2 barrels left over.
    city = make_city("classic", [Building(1, 1, "park", square=True)], 3, 2)
    a = allocate.__wrapped__(city)
    assert (a.unplaced_inhabitants, a.unplaced_energy) == (3, 2)
    assert a.score["penalty_inhabitants"] == -3 and a.score["penalty_energy"] == -2
    assert a.penalty == 5
    assert a.key[-1] == -5 and a.total == -5


def test_no_penalty_when_everything_is_placed() -> None:
    city = make_city("classic", [Building(1, 1, "public_service", vp=1),
                                 Building(1, 2, "tower_block", 1)], 1, 1)
    a = allocate.__wrapped__(city)
    assert a.active == (True, True) and a.penalty == 0 and a.key[-1] == 0
