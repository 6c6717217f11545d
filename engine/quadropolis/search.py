"""The exact search behind the allocation: which buildings to activate.

Everything but the activation set follows from it (see ``allocation``), and the order
of the criteria depends, for a given (inhabitants used, energy used, shops activated),
only on (points, buildings activated, reading-order preference), which is additive.
So:

1. **Harbor runs.** They score ``table[longest row run] + table[longest column run]``,
   a max over the whole city. The search guesses which segments are those runs (or
   none) and forces their harbors active: for each guess the points are a lower bound
   of the truth, equal to it for the right guess, so the best over all guesses is exact
   (``run_guesses``). Within a guess harbors no longer interact with each other.
2. **Parts.** Two costly buildings then interact only through a park they both touch,
   a factory and its neighbour, two adjacent offices, or the district count (all public
   services). The connected components of that relation are independent parts.
3. **A part** is enumerated, subset by subset, within the resources. A large part is
   first split by *conditioning*: fix a few buildings (a cut, the most connected
   first) to each of their on/off values; what is left falls into small pieces that no
   longer interact, each enumerated alone and combined by the same programme. Two
   kinds of large part get their own method: public services alone (district by
   district) and offices alone (a branch and bound for each number of offices: an
   office group is one whole, so cutting it splits nothing while the cut is on).
4. **Combining.** A dynamic programme over (inhabitants used, energy used, shops
   activated) keeps the best entry per bucket; parts no guess touches are combined once
   for all guesses.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from engine.quadropolis.scoring import City, Scorer

# An entry of a part or of the programme: (points, buildings activated, preference, mask).
Entry = tuple[int, int, int, int]
Bucket = tuple[int, int, int]  # (inhabitants used, energy used, shops activated)
Table = dict[Bucket, Entry]
FullKey = tuple[tuple[int, int, int, int, int], int]

SMALL = 9  # a part this size or smaller is enumerated directly
MAX_CUT = 12  # conditioning stops growing the cut here (2**12 assignments at most)


class Resources:
    """Customers, absorption and penalties for given totals used: all that depends on
    (inhabitants used, energy used, activated shops)."""

    def __init__(self, city: City) -> None:
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

    def key(self, points: int, used_i: int, used_e: int, shops: int,
            buildings: int) -> tuple[int, int, int, int, int]:
        """(score, inhabitants placed, -empty spaces, resources placed, -penalty)."""
        customers = self.customers(used_i, shops)
        unplaced_i = self.city.inhabitants - used_i - customers
        left_e = self.city.energy - used_e
        unplaced_e = left_e - min(left_e, self.parks)
        penalty = unplaced_i + unplaced_e
        total = points + self.shop_points(customers) - penalty
        empty = self.spaces - buildings
        return (total, used_i + customers, -empty, used_i + used_e + customers, -penalty)


def interactions(city: City, scorer: Scorer) -> dict[int, set[int]]:
    """Which costly buildings' points depend on each other (harbor runs set aside)."""
    b = city.buildings
    graph: dict[int, set[int]] = {i: set() for i, x in enumerate(b) if x.needs_activation}

    def clique(members: list[int]) -> None:
        for i in members:
            graph[i].update(j for j in members if j != i)

    clique([i for i in graph if b[i].type == "public_service"])
    stack_kinds = {"tower_block", "office"} if city.mode == "expert" else {"tower_block"}
    for i, x in enumerate(b):
        near = scorer.neighbours[i]
        if x.type == "park":
            clique([j for j in near if b[j].type in stack_kinds])
        elif x.type == "factory":
            for j in (j for j in near if b[j].type in ("shop", "harbor", "office")):
                graph[i].add(j)
                graph[j].add(i)
        elif x.type == "office":
            for j in near:
                if b[j].type == "office":
                    graph[i].add(j)
    return graph


def components(graph: dict[int, set[int]], members: list[int],
               extra: dict[int, set[int]] | None = None) -> list[list[int]]:
    """Connected components of ``members`` in ``graph`` (plus the ``extra`` links)."""
    more = extra or {}
    inside = set(members)
    seen: set[int] = set()
    out = []
    for start in sorted(members):
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            i = todo.pop()
            group.append(i)
            for j in (*graph[i], *more.get(i, ())):
                if j in inside and j not in seen:
                    seen.add(j)
                    todo.append(j)
        out.append(sorted(group))
    return out


def split(graph: dict[int, set[int]], part: list[int], offices: set[int]
          ) -> tuple[list[int], list[list[int]]]:
    """A cut of ``part`` and the pieces left when the cut is off: remove the most
    connected building until every piece is small (or the cut is as large as allowed).
    Offices go last: an office of the cut that is on still joins the office groups
    around it (see ``Search.pieces``), so cutting one splits less."""
    cut: list[int] = []
    rest = list(part)
    pieces = [rest]
    while max(len(p) for p in pieces) > SMALL and len(cut) < MAX_CUT:
        big = max(pieces, key=len)
        inside = set(big)
        pick = max(big, key=lambda i: (i not in offices, len(graph[i] & inside), -i))
        cut.append(pick)
        rest = [i for i in rest if i != pick]
        pieces = components(graph, rest)
    return sorted(cut), pieces


def segments(cells: dict[int, int]) -> list[tuple[int, ...]]:
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


def run_guesses(city: City) -> list[tuple[int, int]]:
    """(buildings forced active, run points) for every guess of the longest row run and
    the longest column run of harbors (see the module docstring)."""
    b = city.buildings
    table = city.tables.harbor
    top = len(table) - 1
    rows: dict[int, dict[int, int]] = {}
    cols: dict[int, dict[int, int]] = {}
    for i, x in enumerate(b):
        if x.type == "harbor":
            rows.setdefault(x.row, {})[x.col] = i
            cols.setdefault(x.col, {})[x.row] = i
    row_segments = [seg for line in rows.values() for seg in segments(line)]
    col_segments = [seg for line in cols.values() for seg in segments(line)]
    guesses = []
    for rs in [(), *row_segments]:
        for cs in [(), *col_segments]:
            forced = 0
            for i in (*rs, *cs):
                forced |= 1 << i
            guesses.append((forced, table[min(len(rs), top)] + table[min(len(cs), top)]))
    return guesses


def merge(states: Table, options: Table, budget_i: int, budget_e: int) -> Table:
    """Every state with every option of the next part, best entry per bucket."""
    merged: Table = {}
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


def keep_best(table: Table, bucket: Bucket, entry: Entry) -> None:
    old = table.get(bucket)
    if old is None or entry[:3] > old[:3]:
        table[bucket] = entry


class Search:
    def __init__(self, city: City) -> None:
        self.city = city
        self.scorer = Scorer(city, runs=False)
        b = city.buildings
        n = len(b)
        self.weight = [1 << (n - 1 - i) for i in range(n)]
        self.cost = [(x.cost_inhabitants, x.cost_energy, int(x.type == "shop")) for x in b]
        self.graph = interactions(city, self.scorer)
        self.budget = (city.inhabitants, city.energy)
        self.listed: dict[tuple[int, ...], list[tuple[Bucket, Entry]]] = {}
        self.offices = {i for i, x in enumerate(b) if x.type == "office"}
        # Office to adjacent offices: an office group is one whole, whatever its size.
        self.office_graph = {
            i: {j for j in self.scorer.neighbours[i] if j in self.offices} for i in self.offices
        }
        self.piece_cache: dict[tuple[int, ...], dict[int, list[list[int]]]] = {}

    def subsets(self, items: list[int], base: int, forced: int,
                visit: Callable[[Bucket, Entry], None]) -> None:
        """Call ``visit`` for every activation subset of ``items`` that the resources allow
        and that holds the ``forced`` buildings; points are counted above ``base``."""
        score = self.scorer.score
        zero = score(base)
        budget_i, budget_e = self.budget
        cost, weight = self.cost, self.weight

        def walk(k: int, mask: int, ui: int, ue: int, ns: int, count: int, pref: int) -> None:
            if k == len(items):
                visit((ui, ue, ns), (score(base | mask) - zero, count, pref, mask))
                return
            i = items[k]
            ci, ce, shop = cost[i]
            if ui + ci <= budget_i and ue + ce <= budget_e:
                walk(k + 1, mask | 1 << i, ui + ci, ue + ce, ns + shop, count + 1,
                     pref + weight[i])
            if not forced >> i & 1:
                walk(k + 1, mask, ui, ue, ns, count, pref)

        walk(0, 0, 0, 0, 0, 0, 0)

    def services(self, part: list[int]) -> Table:
        """Public services interact only through the number of districts holding one; in
        a district they differ only by their own points (printed, and +2 per monument
        beside them). So for k of them in a district the best are the k of most points
        (earliest first), and a programme over the districts counts them."""
        base = self.scorer.always
        score = self.scorer.score
        zero = score(base)
        own = {i: score(base | 1 << i) - zero for i in part}
        districts: dict[int, list[int]] = {}
        board = self.city.board
        for i in part:
            x = self.city.buildings[i]
            districts.setdefault(board.districts[x.row - 1][x.col - 1], []).append(i)
        # The district bonus is counted once, at the end: remove it from ``own``.
        single = self.city.tables.public_service[1]
        # (inhabitants used, districts held) -> entry
        states: dict[tuple[int, int], Entry] = {(0, 0): (0, 0, 0, 0)}
        budget_i = self.budget[0]
        for members in districts.values():
            ranked = sorted(members, key=lambda i: (-(own[i] - single), i))
            merged: dict[tuple[int, int], Entry] = {}
            for (ui, held), (pts, cnt, pref, mask) in states.items():
                add_pts = add_pref = add_mask = 0
                for k in range(len(ranked) + 1):
                    if k:
                        i = ranked[k - 1]
                        add_pts += own[i] - single
                        add_pref += self.weight[i]
                        add_mask |= 1 << i
                    if ui + k > budget_i:
                        break
                    key = (ui + k, held + (k > 0))
                    entry = (pts + add_pts, cnt + k, pref + add_pref, mask | add_mask)
                    old = merged.get(key)
                    if old is None or entry[:3] > old[:3]:
                        merged[key] = entry
            states = merged
        table = self.city.tables.public_service
        out: Table = {}
        for (ui, held), (pts, cnt, pref, mask) in states.items():
            bonus = table[min(held, len(table) - 1)]
            keep_best(out, (ui, 0, 0), (pts + bonus, cnt, pref, mask))
        return out

    def pieces(self, rest: list[int], cut: list[int], on: int) -> list[list[int]]:
        """The independent pieces of ``rest`` once the ``cut`` is fixed (``on``: the cut's
        buildings that are on). A cut building that is off separates its neighbours; one
        that is on separates them too, except an office: the office group through it is
        one group, so the offices it touches (through other offices of the cut that are
        on, too) stay linked."""
        key = on & sum(1 << i for i in cut if i in self.offices)
        if key not in self.piece_cache.setdefault(tuple(rest), {}):
            links: dict[int, set[int]] = {}
            lit = [c for c in cut if key >> c & 1]
            for group in components(self.office_graph, lit):
                touching = sorted({j for c in group for j in self.office_graph[c]
                                   if j not in cut})
                for j in touching:
                    links.setdefault(j, set()).update(k for k in touching if k != j)
            self.piece_cache[tuple(rest)][key] = components(self.graph, rest, links)
        return self.piece_cache[tuple(rest)][key]

    def office_block(self, part: list[int], base: int | None = None) -> Table:
        """Offices only: an office group is one whole, so conditioning cannot split it.
        Each office costs the same, so a bucket is a number k of offices; for each k a
        branch and bound finds the best k. Bound: a group scores
        ``sum(f(f-1)/2) + (min(size, 5) - 1) * sum(f)`` over its offices' floors f (the
        table of L458-463), so an office adds at most ``f(f-1)/2 + 4f``, plus at most
        4 for each park beside it (the park table rises by 4 at most) and 4 for each
        activated factory beside it. ``base`` (default: parks and monuments) must hold
        no office next to ``part``: that office's group would grow too."""
        base = self.scorer.always if base is None else base
        zero = self.scorer.score(base)
        b = self.city.buildings
        top = self.city.tables.max_floors
        bound = {}
        for i in part:
            f = min(b[i].floors, top)
            near = sum(1 for j in self.scorer.neighbours[i]
                       if b[j].type == "park" or (b[j].type == "factory" and base >> j & 1))
            bound[i] = f * (f - 1) // 2 + 4 * f + 4 * near
        order = sorted(part)
        most = min(len(order), *self.budget)  # an office costs 1 inhabitant and 1 energy
        table: Table = {}
        for k in range(most + 1):
            found = self._best_k(order, k, bound, base, zero)
            if found is not None:
                table[(k, k, 0)] = found
        return table

    def lone_offices(self, piece: list[int], on: int) -> bool:
        """True if ``piece`` is offices only, none of them next to an office in ``on``."""
        return all(
            i in self.offices and not any(on >> j & 1 for j in self.office_graph[i])
            for i in piece
        )

    def _best_k(self, order: list[int], k: int, bound: dict[int, int], base: int,
                zero: int) -> Entry | None:
        """The best set of exactly ``k`` of ``order``. Including earlier offices first
        visits the sets of higher reading-order preference first, so a later set must
        score strictly more, and a branch whose bound cannot is cut."""
        score = self.scorer.score
        best: Entry | None = None

        def walk(at: int, mask: int, chosen: int, ub: int, pref: int) -> None:
            nonlocal best
            if chosen == k:
                pts = score(base | mask) - zero
                if best is None or pts > best[0]:
                    best = (pts, k, pref, mask)
                return
            left = order[at:]
            if len(left) < k - chosen:
                return
            if best is not None:
                extra = sum(sorted((bound[i] for i in left), reverse=True)[:k - chosen])
                if ub + extra <= best[0]:
                    return
            i = order[at]
            walk(at + 1, mask | 1 << i, chosen + 1, ub + bound[i], pref + self.weight[i])
            walk(at + 1, mask, chosen, ub, pref)

        walk(0, 0, 0, 0, 0)
        return best

    def table(self, part: list[int], forced: int) -> Table:
        """The best entry per bucket over the activation subsets of ``part``."""
        base = self.scorer.always
        kinds = {self.city.buildings[i].type for i in part}
        if len(part) > SMALL and kinds == {"public_service"}:
            return self.services(part)
        if len(part) > SMALL and kinds == {"office"}:
            return self.office_block(part)
        if len(part) <= SMALL:
            key = tuple(part)
            if key not in self.listed:
                found: list[tuple[Bucket, Entry]] = []
                self.subsets(part, base, 0, lambda bucket, entry: found.append((bucket, entry)))
                self.listed[key] = found
            best: Table = {}
            for bucket, entry in self.listed[key]:
                if entry[3] & forced == forced:
                    keep_best(best, bucket, entry)
            return best
        cut, _ = split(self.graph, part, self.offices)
        rest = [i for i in part if i not in cut]
        result: Table = {}
        budget_i, budget_e = self.budget
        zero = self.scorer.score(base)

        def on_cut(bucket: Bucket, entry: Entry) -> None:
            fixed = base | entry[3]
            states: Table = {bucket: (self.scorer.score(fixed) - zero, *entry[1:])}
            for piece in self.pieces(rest, cut, entry[3]):
                if len(piece) > SMALL and self.lone_offices(piece, fixed):
                    options = self.office_block(piece, fixed)
                else:
                    options = {}
                    self.subsets(piece, fixed, forced, partial(keep_best, options))
                states = merge(states, options, budget_i, budget_e)
            for b, e in states.items():
                keep_best(result, b, e)

        self.subsets(cut, base, forced, on_cut)
        return result

    def best_mask(self) -> int:
        city, scorer = self.city, self.scorer
        res = Resources(city)
        budget_i, budget_e = self.budget
        parts = components(self.graph, list(self.graph))
        fixed = scorer.always.bit_count()
        base_points = scorer.score(scorer.always)
        guesses = run_guesses(city)
        touched = 0
        for forced, _ in guesses:
            touched |= forced
        # Parts no guess touches are merged once; only the others are merged per guess.
        steady = [p for p in parts if not any(touched >> i & 1 for i in p)]
        varying = [p for p in parts if any(touched >> i & 1 for i in p)]
        start: Table = {(0, 0, 0): (0, 0, 0, 0)}
        for part in steady:
            start = merge(start, self.table(part, 0), budget_i, budget_e)
        cache: dict[tuple[int, int], Table] = {}

        def finals(forced: int) -> Table:
            states = start
            for k, part in enumerate(varying):
                part_mask = sum(1 << i for i in part)
                key = (k, forced & part_mask)
                if key not in cache:
                    cache[key] = self.table(part, forced & part_mask)
                states = merge(states, cache[key], budget_i, budget_e)
                if not states:
                    break
            return states

        # Forcing harbors only removes choices, so the best total without any forcing,
        # plus a guess's run points, bounds what that guess can reach.
        unforced = finals(0)
        ceiling = max(res.key(pts + base_points, ui, ue, ns, cnt + fixed)[0]
                      for (ui, ue, ns), (pts, cnt, _, _) in unforced.items())
        best_key: FullKey | None = None
        chosen = 0
        for forced, bonus in sorted(guesses, key=lambda g: -g[1]):
            if best_key is not None and ceiling + bonus < best_key[0][0]:
                continue
            states = unforced if forced == 0 else finals(forced)
            for (ui, ue, ns), (pts, cnt, pref, mask) in states.items():
                full = res.key(pts + base_points + bonus, ui, ue, ns, cnt + fixed)
                if best_key is None or (full, pref) > best_key:
                    best_key, chosen = (full, pref), mask
        return chosen | scorer.always


def best_mask(city: City) -> int:
    """The activation mask (bit i = building i) of the best allocation."""
    return Search(city).best_mask()
