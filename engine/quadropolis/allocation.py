"""The exact end-of-game allocation of inhabitants and energy (RULINGS "Allocation").

Resources move freely during the game (L217), so the engine asks nothing and, at the
end, finds for each city the allocation that scores best. The choice is which
buildings to activate; given that set everything else follows:

- customers: every inhabitant left after the activation costs goes to an activated
  shop while one has room (a customer is worth at least +1 and saves the -1 of an
  unplaced inhabitant), filling the shops in reading order (the shop table is convex,
  so full shops score most; RULINGS tie rule 6 prefers the earlier shop);
- absorption: unplaced energy goes on the parks (not squares), earliest first;
- penalties: -1 per inhabitant or energy still unplaced.

Of all activation sets the search keeps, in this order (RULINGS): the highest score,
the most inhabitants placed, the fewest empty spaces, the most resources placed, the
fewest penalty points, then reading order (an activated building on an earlier space).

**Search** (``search.py``): exact, by splitting the city into parts that do not
interact and combining them by a dynamic programme over the resources they use.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engine.quadropolis.scoring import CATEGORIES, City, Scorer
from engine.quadropolis.search import best_mask


@dataclass(frozen=True)
class Allocation:
    """The chosen allocation of one city, with everything a player needs to see why."""

    city: City
    active: tuple[bool, ...]  # per building, reading order
    customers: tuple[int, ...]  # per building (shops only)
    absorbed_on: tuple[int, ...]  # per building (parks only)
    points: tuple[int, ...]  # per building (customers' points on shops)
    score: dict[str, int] = field(default_factory=dict)  # category -> points, penalties
    unplaced_inhabitants: int = 0
    unplaced_energy: int = 0
    absorbed: int = 0
    inhabitants_placed: int = 0
    energy_placed: int = 0
    empty_spaces: int = 0
    resources_placed: int = 0

    @property
    def total(self) -> int:
        return sum(self.score.values())

    @property
    def penalty(self) -> int:
        return -(self.score["penalty_inhabitants"] + self.score["penalty_energy"])

    @property
    def key(self) -> tuple[int, int, int, int, int]:
        """The criteria the search maximises, before the reading-order preference."""
        return (self.total, self.inhabitants_placed, -self.empty_spaces,
                self.resources_placed, -self.penalty)

    def to_json(self) -> dict[str, Any]:
        buildings = []
        for i, b in enumerate(self.city.buildings):
            on = self.active[i]
            buildings.append({
                **b.to_json(),
                "active": on,
                "inhabitants": (b.cost_inhabitants if on else 0) + self.customers[i],
                "energy": (b.cost_energy if on else 0) + self.absorbed_on[i],
                "customers": self.customers[i],
                "absorbs": self.absorbed_on[i],
                "points": self.points[i] if on else 0,
            })
        return {
            "total": self.total,
            "score": dict(self.score),
            "inhabitants": self.city.inhabitants,
            "energy": self.city.energy,
            "inhabitants_placed": self.inhabitants_placed,
            "energy_placed": self.energy_placed,
            "unplaced_inhabitants": self.unplaced_inhabitants,
            "unplaced_energy": self.unplaced_energy,
            "absorbed": self.absorbed,
            "empty_spaces": self.empty_spaces,
            "resources_placed": self.resources_placed,
            "buildings": buildings,
        }


def evaluate(city: City, mask: int, scorer: Scorer | None = None) -> Allocation | None:
    """The allocation that activates exactly ``mask`` (None if the resources fall short)."""
    scorer = scorer or Scorer(city)
    b = city.buildings
    mask |= scorer.always
    active = tuple(bool(mask >> i & 1) for i in range(len(b)))
    used_i = sum(x.cost_inhabitants for x, on in zip(b, active, strict=True) if on)
    used_e = sum(x.cost_energy for x, on in zip(b, active, strict=True) if on)
    if used_i > city.inhabitants or used_e > city.energy:
        return None
    points = [0] * len(b)
    score = scorer.categories(mask, points)
    cap = city.tables.max_customers
    left_i = city.inhabitants - used_i
    customers = [0] * len(b)
    for i, x in enumerate(b):
        if x.type == "shop" and active[i]:
            customers[i] = min(cap, left_i)
            left_i -= customers[i]
            points[i] = city.tables.shop[customers[i]]
            score["shops"] += points[i]
    left_e = city.energy - used_e
    absorbed_on = [0] * len(b)
    for i, x in enumerate(b):
        if x.absorbs and left_e > 0:
            absorbed_on[i] = 1
            left_e -= 1
    placed_customers = sum(customers)
    score["penalty_inhabitants"] = -left_i
    score["penalty_energy"] = -left_e
    buildings = sum(active)
    return Allocation(
        city=city,
        active=active,
        customers=tuple(customers),
        absorbed_on=tuple(absorbed_on),
        points=tuple(points),
        score={k: score[k] for k in (*CATEGORIES, "penalty_inhabitants", "penalty_energy")},
        unplaced_inhabitants=left_i,
        unplaced_energy=left_e,
        absorbed=sum(absorbed_on),
        inhabitants_placed=used_i + placed_customers,
        energy_placed=used_e,
        empty_spaces=city.spaces - buildings,
        resources_placed=used_i + used_e + placed_customers,
    )


@lru_cache(maxsize=512)
def allocate(city: City) -> Allocation:
    """The best allocation of ``city`` (exact; see the module docstring). Cached: a
    finished game's views and outcome ask for the same cities again and again."""
    scorer = Scorer(city)  # made once for the search and the allocation (issue 25)
    found = evaluate(city, best_mask(city, scorer), scorer)
    assert found is not None
    return found


def all_masks(city: City) -> Iterator[int]:
    costly = [i for i, x in enumerate(city.buildings) if x.needs_activation]
    for bits in range(1 << len(costly)):
        yield sum(1 << i for k, i in enumerate(costly) if bits >> k & 1)


def brute_force(city: City) -> Allocation:
    """Every activation set, one by one: the reference the search must equal (tests)."""
    scorer = Scorer(city)
    n = len(city.buildings)
    best: tuple[tuple[int, int, int, int, int], int] | None = None
    chosen: Allocation | None = None
    for mask in all_masks(city):
        found = evaluate(city, mask, scorer)
        if found is None:
            continue
        pref = sum(1 << (n - 1 - i) for i in range(n) if found.active[i])
        key = (found.key, pref)
        if best is None or key > best:
            best, chosen = key, found
    assert chosen is not None
    return chosen
