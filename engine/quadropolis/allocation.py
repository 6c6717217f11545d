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

**Search.** The harbor runs are a max over the whole city, so the search first guesses
the longest row run and the longest column run (or none) and forces their harbors
active; the best over all guesses is exact (``_run_guesses``). Within a guess the
buildings' points split into independent parts: two costly buildings interact only
through a park they both touch, a factory and its neighbour, two adjacent offices or
the district count (all public services). Each part (a connected component of that
relation) is enumerated alone; parts then meet through the resources they use only, so
a dynamic programme over (inhabitants used, energy used, shops activated) combines
them exactly. Each part's subsets are enumerated once (within the resources) and
filtered per guess; parts that no guess touches are combined once for all guesses. Within a
(inhabitants, energy, shops) bucket the order of the criteria above reduces to
(points, buildings activated, reading-order preference), which is additive over the
parts, so keeping the best entry per bucket loses nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.quadropolis.scoring import CATEGORIES, City, Scorer

Key = tuple[int, int, int, int, int, int]


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


class _Resources:
    """Customers, absorption and penalties for given totals used: all that depends on
    (inhabitants used, energy used, activated shops)."""

    def __init__(self, city: City, scorer: Scorer) -> None:
        self.city = city
        self.cap = city.tables.max_customers
        self.shop_table = city.tables.shop
        self.parks = sum(b.absorbs for b in city.buildings)
        self.spaces = city.spaces

    def customers(self, used_i: int, shops: int) -> int:
        return min(self.city.inhabitants - used_i, self.cap * shops)

    def shop_points(self, customers: int) -> int:
        full, rest = divmod(customers, self.cap)
        return full * self.shop_table[self.cap] + self.shop_table[rest]

    def key(self, points: int, count: int, used_i: int, used_e: int, shops: int,
            buildings: int) -> tuple[int, int, int, int, int]:
        customers = self.customers(used_i, shops)
        unplaced_i = self.city.inhabitants - used_i - customers
        left_e = self.city.energy - used_e
        unplaced_e = left_e - min(left_e, self.parks)
        penalty = unplaced_i + unplaced_e
        total = points + self.shop_points(customers) - penalty
        empty = self.spaces - buildings
        return (total, used_i + customers, -empty, used_i + used_e + customers, -penalty)


def _components(city: City, scorer: Scorer) -> list[list[int]]:
    """The costly buildings, split into parts whose points do not depend on each other
    once the harbor runs are set aside (see ``_run_guesses``)."""
    b = city.buildings
    costly = [i for i, x in enumerate(b) if x.needs_activation]
    parent = {i: i for i in costly}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(i: int, j: int) -> None:
        parent[find(i)] = find(j)

    stack_kinds = {"tower_block", "office"} if city.mode == "expert" else {"tower_block"}
    services = [i for i in costly if b[i].type == "public_service"]
    for i in services[1:]:
        union(services[0], i)
    for i, x in enumerate(b):
        near = scorer.neighbours[i]
        if x.type == "park":
            touching = [j for j in near if b[j].type in stack_kinds]
            for j in touching[1:]:
                union(touching[0], j)
        elif x.type == "factory":
            for j in near:
                if b[j].type in ("shop", "harbor", "office"):
                    union(i, j)
        elif x.type == "office":
            for j in near:
                if b[j].type == "office":
                    union(i, j)
    parts: dict[int, list[int]] = {}
    for i in costly:
        parts.setdefault(find(i), []).append(i)
    return list(parts.values())


def _segments(cells: dict[int, int]) -> list[tuple[int, ...]]:
    """Runs of two or more consecutive positions: ``cells`` maps position -> building."""
    out: list[tuple[int, ...]] = []
    positions = sorted(cells)
    run: list[int] = []
    for p in [*positions, -99]:
        if run and p == run[-1] + 1:
            run.append(p)
            continue
        for a in range(len(run)):
            for z in range(a + 2, len(run) + 1):
                out.append(tuple(cells[q] for q in run[a:z]))
        run = [p]
    return out


def _run_guesses(city: City) -> list[tuple[int, int]]:
    """(buildings forced active, run points) for every guess of the longest row run and
    the longest column run of harbors.

    The harbor runs score ``table[longest row run] + table[longest column run]``, a max
    over the whole city. Guessing which segments are those runs (or none) and forcing
    their harbors active gives a lower bound of the true points for each guess, equal to
    it for the right guess; so the best over all guesses is exact, and within a guess
    the harbors no longer depend on each other.
    """
    b = city.buildings
    table = city.tables.harbor
    top = len(table) - 1
    rows: dict[int, dict[int, int]] = {}
    cols: dict[int, dict[int, int]] = {}
    for i, x in enumerate(b):
        if x.type == "harbor":
            rows.setdefault(x.row, {})[x.col] = i
            cols.setdefault(x.col, {})[x.row] = i
    row_segments = [seg for line in rows.values() for seg in _segments(line)]
    col_segments = [seg for line in cols.values() for seg in _segments(line)]
    guesses = []
    for rs in [(), *row_segments]:
        for cs in [(), *col_segments]:
            forced = 0
            for i in (*rs, *cs):
                forced |= 1 << i
            guesses.append((forced, table[min(len(rs), top)] + table[min(len(cs), top)]))
    return guesses


# An entry of a part or of the programme: (points, buildings activated, preference, mask).
Entry = tuple[int, int, int, int]
Bucket = tuple[int, int, int]  # (inhabitants used, energy used, shops activated)


def _subsets(city: City, scorer: Scorer, part: list[int], weight: list[int]
             ) -> list[tuple[Bucket, Entry]]:
    """Every activation subset of one part that the resources allow, with its bucket."""
    b = city.buildings
    base = scorer.always
    zero = scorer.score(base)
    out: list[tuple[Bucket, Entry]] = []
    budget_i, budget_e = city.inhabitants, city.energy
    items = [(1 << i, b[i].cost_inhabitants, b[i].cost_energy, int(b[i].type == "shop"), weight[i])
             for i in part]

    def walk(k: int, mask: int, ui: int, ue: int, ns: int, count: int, pref: int) -> None:
        if k == len(items):
            out.append(((ui, ue, ns), (scorer.score(base | mask) - zero, count, pref, mask)))
            return
        bit, ci, ce, shop, w = items[k]
        if ui + ci <= budget_i and ue + ce <= budget_e:
            walk(k + 1, mask | bit, ui + ci, ue + ce, ns + shop, count + 1, pref + w)
        walk(k + 1, mask, ui, ue, ns, count, pref)

    walk(0, 0, 0, 0, 0, 0, 0)
    return out


def _best_per_bucket(subsets: list[tuple[Bucket, Entry]], forced: int) -> dict[Bucket, Entry]:
    """The best entry per bucket among the subsets that hold every ``forced`` building."""
    best: dict[Bucket, Entry] = {}
    for bucket, entry in subsets:
        if entry[3] & forced != forced:
            continue
        old = best.get(bucket)
        if old is None or entry[:3] > old[:3]:
            best[bucket] = entry
    return best


def _merge(states: dict[Bucket, Entry], options: dict[Bucket, Entry], budget_i: int,
           budget_e: int) -> dict[Bucket, Entry]:
    """Every state with every option of the next part, best entry per bucket."""
    merged: dict[Bucket, Entry] = {}
    for (ui, ue, ns), (pts, cnt, pref, mask) in states.items():
        for (pi, pe, ps), (opts, ocnt, opref, omask) in options.items():
            ti, te = ui + pi, ue + pe
            if ti > budget_i or te > budget_e:
                continue
            bucket = (ti, te, ns + ps)
            entry = (pts + opts, cnt + ocnt, pref + opref, mask | omask)
            old = merged.get(bucket)
            if old is None or entry[:3] > old[:3]:
                merged[bucket] = entry
    return merged


def best_mask(city: City) -> int:
    """The activation mask (bit i = building i) of the best allocation."""
    scorer = Scorer(city, runs=False)
    n = len(city.buildings)
    weight = [1 << (n - 1 - i) for i in range(n)]
    res = _Resources(city, scorer)
    budget_i, budget_e = city.inhabitants, city.energy
    parts = _components(city, scorer)
    fixed = scorer.always.bit_count()
    base_points = scorer.score(scorer.always)
    guesses = _run_guesses(city)
    touched = 0
    for forced, _ in guesses:
        touched |= forced
    # Parts no guess touches are merged once; only the others are merged per guess.
    steady = [p for p in parts if not any(touched >> i & 1 for i in p)]
    varying = [p for p in parts if any(touched >> i & 1 for i in p)]
    start: dict[Bucket, Entry] = {(0, 0, 0): (0, 0, 0, 0)}
    for part in steady:
        options = _best_per_bucket(_subsets(city, scorer, part, weight), 0)
        start = _merge(start, options, budget_i, budget_e)
    subsets = [_subsets(city, scorer, part, weight) for part in varying]
    cache: dict[tuple[int, int], dict[Bucket, Entry]] = {}
    best_key: tuple[tuple[int, int, int, int, int], int] | None = None
    chosen = 0
    for forced, bonus in guesses:
        states = start
        for k, part in enumerate(varying):
            part_mask = sum(1 << i for i in part)
            key = (k, forced & part_mask)
            if key not in cache:
                cache[key] = _best_per_bucket(subsets[k], forced & part_mask)
            states = _merge(states, cache[key], budget_i, budget_e)
            if not states:
                break
        for (ui, ue, ns), (pts, cnt, pref, mask) in states.items():
            full = res.key(pts + base_points + bonus, cnt, ui, ue, ns, cnt + fixed)
            if best_key is None or (full, pref) > best_key:
                best_key, chosen = (full, pref), mask
    return chosen | scorer.always


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


def allocate(city: City) -> Allocation:
    """The best allocation of ``city`` (exact; see the module docstring)."""
    found = evaluate(city, best_mask(city))
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
