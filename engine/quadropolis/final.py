"""The outcome: each city's best allocation, its points by category, and the ranking
(most points, then most inhabitants placed, then fewest empty spaces; L244-246, Q7)."""

from __future__ import annotations

from functools import lru_cache

from engine.core.protocol import Outcome, ScoreLine, Standing, seat_name
from engine.quadropolis.allocation import Allocation, allocate
from engine.quadropolis.scoring import CATEGORIES, CATEGORY_OF, city_from
from engine.quadropolis.state import State


def allocations(state: State) -> list[Allocation]:
    """Each seat's best allocation. Every view asks for every city's (issue 25): a city is
    looked up by its stacks of tile ids, a key hashed in C, before a ``City`` (whose
    buildings hash in Python) is made for ``allocate``'s own cache."""
    return [
        _allocation(state.mode, tuple([tuple(map(tuple, row)) for row in p.city]),
                    p.inhabitants, p.energy)
        for p in state.players
    ]


@lru_cache(maxsize=512)
def _allocation(mode: str, stacks: tuple[tuple[tuple[str, ...], ...], ...], inhabitants: int,
                energy: int) -> Allocation:
    return allocate(city_from(mode, stacks, inhabitants, energy))


def tie_key(a: Allocation) -> tuple[int, int, int]:
    return (a.total, a.inhabitants_placed, -a.empty_spaces)


def ranks(allocs: list[Allocation]) -> list[int]:
    keys = [tie_key(a) for a in allocs]
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def lines(a: Allocation) -> tuple[ScoreLine, ...]:
    out = []
    b = a.city.buildings
    for category in CATEGORIES:
        of_kind = [i for i, x in enumerate(b) if CATEGORY_OF[x.type] == category]
        if not of_kind:
            continue
        active = sum(1 for i in of_kind if a.active[i])
        out.append(ScoreLine(category, a.score[category], {
            "active": active, "removed": len(of_kind) - active,
        }))
    if a.unplaced_inhabitants:
        out.append(ScoreLine("penalty_inhabitants", a.score["penalty_inhabitants"],
                             {"unplaced": a.unplaced_inhabitants}))
    if a.unplaced_energy or a.absorbed:
        out.append(ScoreLine("penalty_energy", a.score["penalty_energy"],
                             {"unplaced": a.unplaced_energy, "absorbed": a.absorbed}))
    removed = [
        {"row": x.row, "col": x.col, "type": x.type}
        for i, x in enumerate(b) if not a.active[i]
    ]
    out.append(ScoreLine("tiebreak", 0, {
        "inhabitants_placed": a.inhabitants_placed,
        "empty_spaces": a.empty_spaces,
        "removed": removed,
        # The whole allocation, building by building, so that players can see why.
        "allocation": a.to_json()["buildings"],
    }))
    return tuple(out)


def outcome(state: State) -> Outcome:
    allocs = allocations(state)
    rank = ranks(allocs)
    standings = tuple(
        Standing(seat, seat_name(seat), a.total, lines(a), rank[seat])
        for seat, a in enumerate(allocs)
    )
    return Outcome(standings)
