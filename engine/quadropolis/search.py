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

**Speed** (issue 25: a view asks for the changed city's allocation, on the event loop).
Entries and buckets are integers (``programme``). The subsets of a part or a piece are
listed and scored all at once (``subset_scores``). Lone buildings of the same cost are
one table (``steady_tables``). What harbor-run guesses share is worked out once: a
piece's table under a cut (it depends only on the piece, the harbors forced in it and
the buildings of the cut it reaches through the cut, ``reach``; its subsets are scored
once for all guesses, ``listing``), and the programme's states after each prefix of the
parts a guess forces (``finals``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from engine.quadropolis.parts import components, interactions, run_guesses, split
from engine.quadropolis.programme import (
    COUNT_BITS,
    OVER,
    Bucket,
    Entry,
    Resources,
    Scored,
    Table,
    bucket,
    holding,
    keep_best,
    merge,
)
from engine.quadropolis.scoring import City, Scorer
from engine.quadropolis.subset_scores import doubled, subset_scores

# A subset of a part within the resources: its bucket, its packed buildings and
# preference (no points), its mask, and its index among the part's subsets (bit j for the
# part's j-th building, as ``subset_scores`` counts).
Subset = tuple[Bucket, int, int, int]
# The final key: (total, inhabitants placed, -empty spaces, resources placed, -penalty,
# preference).
FullKey = tuple[int, int, int, int, int, int]

SMALL = 9  # a part this size or smaller is enumerated directly
MAX_CUT = 12  # conditioning stops growing the cut here (2**12 assignments at most)
DOUBLED = 12  # subsets of at most this many buildings are listed all at once
LISTED = 1 << 15  # scored subsets a search keeps at most, to share them between guesses


class Search:
    def __init__(self, city: City, scorer: Scorer | None = None) -> None:
        self.city = city
        self.scorer = (scorer or Scorer(city)).without_runs()
        b = city.buildings
        n = len(b)
        self.n = n
        # An entry: points << shift | buildings << n | preference (``programme``).
        self.shift = n + COUNT_BITS
        self.prefs = (1 << n) - 1
        self.weight = [1 << (n - 1 - i) for i in range(n)]
        self.unit = [1 << n | w for w in self.weight]  # one building, its preference
        self.cost = [(x.cost_inhabitants, x.cost_energy, int(x.type == "shop")) for x in b]
        self.graph = interactions(city, self.scorer)
        self.budget = (city.inhabitants, city.energy)
        # Within a byte of a bucket, a state's inhabitants and energy used count up from
        # 127 - budget, so that a sum over the budget reaches 128. The budget that can
        # bind is at most the total cost (at most one a building).
        cap_i = min(city.inhabitants, sum(c[0] for c in self.cost))
        cap_e = min(city.energy, sum(c[1] for c in self.cost))
        assert max(cap_i, cap_e, n) < 100, "a city of at most 20 spaces"
        self.offset = bucket(127 - cap_i, 127 - cap_e, 0)
        self.affordable_cache: dict[tuple[int, ...], list[Subset]] = {}
        self.listed: dict[Hashable, list[Scored]] = {}
        self.listed_size = 0
        self.touched = 0  # the harbors some run guess forces
        self.offices = {i for i, x in enumerate(b) if x.type == "office"}
        # Office to adjacent offices: an office group is one whole, whatever its size.
        self.office_graph = {
            i: {j for j in self.scorer.neighbours[i] if j in self.offices} for i in self.offices
        }
        self.piece_cache: dict[tuple[int, ...], dict[int, list[list[int]]]] = {}
        self.reach_cache: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        self.piece_tables: dict[tuple[tuple[int, ...], tuple[int, ...], int, int], Table] = {}
        self.splits: dict[tuple[int, ...], tuple[list[int], list[int]]] = {}
        self.scorers: dict[int, Scorer] = {}

    def score_of(self, items: list[int]) -> Callable[[int], int]:
        """A ``score`` whose differences are exact for changes within ``items`` only (it
        leaves out the terms they cannot change: ``Scorer.restricted``)."""
        key = sum(1 << i for i in items)
        found = self.scorers.get(key)
        if found is None:
            found = self.scorers[key] = self.scorer.restricted(key)
        return found.score

    def pack(self, points: int, low: int) -> Entry:
        """An entry from its points and its packed buildings and preference."""
        return (points << self.shift) + low

    def mask_of(self, entry: Entry) -> int:
        """The buildings activated of an entry (its preference read backwards)."""
        pref = entry & self.prefs
        return int(format(pref, f"0{self.n}b")[::-1], 2) if self.n else 0

    def affordable(self, items: list[int]) -> list[Subset]:
        """Every activation subset of ``items`` that the resources allow (whatever else is
        on: the budget is checked again when parts are combined)."""
        key = tuple(items)
        found = self.affordable_cache.get(key)
        if found is not None:
            return found
        cost, unit = self.cost, self.unit
        if len(items) <= DOUBLED:
            # All subsets at once (bit j of the index for the j-th building); those over
            # the budget show in ``OVER`` once the offset is added.
            at = doubled(self.offset, [bucket(*cost[i]) for i in items])
            low = doubled(0, [unit[i] for i in items])
            masks = doubled(0, [1 << i for i in items])
            found = self.affordable_cache[key] = [
                (b - self.offset, low[m], masks[m], m) for m, b in enumerate(at) if not b & OVER
            ]
            return found
        out: list[Subset] = []
        budget_i, budget_e = self.budget

        def walk(k: int, mask: int, ui: int, ue: int, ns: int, low: int, index: int) -> None:
            if k == len(items):
                out.append((bucket(ui, ue, ns), low, mask, index))
                return
            i = items[k]
            ci, ce, shop = cost[i]
            if ui + ci <= budget_i and ue + ce <= budget_e:
                walk(k + 1, mask | 1 << i, ui + ci, ue + ce, ns + shop, low + unit[i],
                     index | 1 << k)
            walk(k + 1, mask, ui, ue, ns, low, index)

        walk(0, 0, 0, 0, 0, 0, 0)
        self.affordable_cache[key] = out
        return out

    def scores(self, items: list[int], base: int, found: list[Subset]) -> tuple[list[int], int]:
        """The points of ``base`` with each of ``found`` (subsets of ``items``), and of
        ``base`` alone: all subsets at once (``subset_scores``) unless they are few or
        the resources allow few of them."""
        if len(found) >= 8 and 1 << len(items) <= 2 * len(found) + 64:
            every = subset_scores(self.scorer, items, base)
            return [every[index] for _, _, _, index in found], every[0]
        score = self.scorer.score
        return [score(base | mask) for _, _, mask, _ in found], score(base)

    def scored(self, items: list[int], base: int) -> list[Scored]:
        """Every subset of ``items`` that the resources allow, with its entry (points
        counted above ``base``)."""
        found = self.affordable(items)
        points, zero = self.scores(items, base, found)
        shift = self.shift
        return [(at, ((pts - zero) << shift) + low, mask)
                for (at, low, mask, _), pts in zip(found, points, strict=True)]

    def listing(self, key: Hashable, items: list[int], base: int) -> list[Scored]:
        """``scored``, remembered under ``key``."""
        found = self.listed.get(key)
        if found is None:
            found = self.listed[key] = self.scored(items, base)
            self.listed_size += len(found)
        return found

    def services(self, part: list[int]) -> Table:
        """Public services interact only through the number of districts holding one; in
        a district they differ only by their own points (printed, and +2 per monument
        beside them). So for k of them in a district the best are the k of most points
        (earliest first), and a programme over the districts counts them."""
        base = self.scorer.always
        score = self.score_of(part)
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
        states: dict[tuple[int, int], Entry] = {(0, 0): 0}
        budget_i = self.budget[0]
        for members in districts.values():
            ranked = sorted(members, key=lambda i: (-(own[i] - single), i))
            merged: dict[tuple[int, int], Entry] = {}
            for (ui, held), entry in states.items():
                add = 0
                for k in range(len(ranked) + 1):
                    if k:
                        i = ranked[k - 1]
                        add += self.pack(own[i] - single, self.unit[i])
                    if ui + k > budget_i:
                        break
                    key = (ui + k, held + (k > 0))
                    total = entry + add
                    old = merged.get(key)
                    if old is None or total > old:
                        merged[key] = total
            states = merged
        table = self.city.tables.public_service
        out: Table = {}
        for (ui, held), entry in states.items():
            bonus = table[min(held, len(table) - 1)]
            keep_best(out, bucket(ui, 0, 0), entry + self.pack(bonus, 0))
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

    def reach(self, piece: list[int], cut: list[int]) -> int:
        """The buildings of the cut that a piece's points can depend on: those it reaches
        in the interaction graph through buildings of the cut only. A piece's points
        above a fixed cut depend on the buildings it interacts with; an office group
        goes on through the offices of the cut that are on, all reached this way; the
        public services all interact. So two cuts that agree on these buildings give the
        piece the same table."""
        key = (tuple(piece), tuple(cut))
        found = self.reach_cache.get(key)
        if found is None:
            inside = set(cut)
            seen = set(piece)
            todo = list(piece)
            found = 0
            while todo:
                for j in self.graph[todo.pop()]:
                    if j in inside and j not in seen:
                        seen.add(j)
                        todo.append(j)
                        found |= 1 << j
            self.reach_cache[key] = found
        return found

    def piece_table(self, piece: list[int], cut: list[int], fixed: int, forced: int) -> Table:
        """The table of a piece of a conditioned part, ``fixed`` the base and the cut's
        buildings on. Remembered by what it depends on (``reach``): other assignments of
        the cut and other harbor-run guesses ask for it again."""
        inside = sum(1 << i for i in piece)
        mine = forced & inside
        key = (tuple(piece), tuple(cut), fixed & self.reach(piece, cut), mine)
        found = self.piece_tables.get(key)
        if found is None:
            if len(piece) > SMALL and self.lone_offices(piece, fixed):
                found = self.office_block(piece, fixed)
            elif inside & self.touched and self.listed_size < LISTED:
                # Guesses force harbors of this piece in several ways: its subsets are
                # scored once, and each way keeps those that hold its harbors.
                found = holding(self.listing(key[:3], piece, fixed), mine)
            else:
                found = holding(self.scored(piece, fixed), mine)
            self.piece_tables[key] = found
        return found

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
        score = self.score_of(part)
        zero = score(base)
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
            found = self._best_k(order, k, bound, base, zero, score)
            if found is not None:
                table[bucket(k, k, 0)] = found
        return table

    def lone_offices(self, piece: list[int], on: int) -> bool:
        """True if ``piece`` is offices only, none of them next to an office in ``on``."""
        return all(
            i in self.offices and not any(on >> j & 1 for j in self.office_graph[i])
            for i in piece
        )

    def _best_k(self, order: list[int], k: int, bound: dict[int, int], base: int,
                zero: int, score: Callable[[int], int]) -> Entry | None:
        """The best set of exactly ``k`` of ``order``. Including earlier offices first
        visits the sets of higher reading-order preference first, so a later set must
        score strictly more, and a branch whose bound cannot is cut."""
        best: tuple[int, int] | None = None  # (points, packed buildings and preference)

        def walk(at: int, mask: int, chosen: int, ub: int, low: int) -> None:
            nonlocal best
            if chosen == k:
                pts = score(base | mask) - zero
                if best is None or pts > best[0]:
                    best = (pts, low)
                return
            left = order[at:]
            if len(left) < k - chosen:
                return
            if best is not None:
                extra = sum(sorted((bound[i] for i in left), reverse=True)[:k - chosen])
                if ub + extra <= best[0]:
                    return
            i = order[at]
            walk(at + 1, mask | 1 << i, chosen + 1, ub + bound[i], low + self.unit[i])
            walk(at + 1, mask, chosen, ub, low)

        walk(0, 0, 0, 0, 0)
        return None if best is None else self.pack(*best)

    def table(self, part: list[int], forced: int) -> Table:
        """The best entry per bucket over the activation subsets of ``part``."""
        base = self.scorer.always
        kinds = {self.city.buildings[i].type for i in part}
        if len(part) > SMALL and kinds == {"public_service"}:
            return self.services(part)
        if len(part) > SMALL and kinds == {"office"}:
            return self.office_block(part)
        if len(part) <= SMALL:
            return holding(self.listing(tuple(part), part, base), forced)
        key = tuple(part)
        if key not in self.splits:
            cut, _ = split(self.graph, part, self.offices, SMALL, MAX_CUT)
            self.splits[key] = (cut, [i for i in part if i not in cut])
        cut, rest = self.splits[key]
        result: Table = {}
        offset = self.offset
        shift = self.shift
        assignments = self.affordable(cut)
        points, zero = self.scores(cut, base, assignments)
        cut_mask = sum(1 << i for i in cut)
        for (at, low, on, _), pts in zip(assignments, points, strict=True):
            if on & forced != forced & cut_mask:
                continue
            fixed = base | on
            states: Table = {at + offset: ((pts - zero) << shift) + low}
            for piece in self.pieces(rest, cut, on):
                states = merge(states, self.piece_table(piece, cut, fixed, forced))
            for b, e in states.items():
                keep_best(result, b - offset, e)
        return result

    def steady_tables(self, steady: list[list[int]]) -> list[Table]:
        """The tables of the parts no guess forces, a table for each set of lone buildings
        of the same cost: j of them cost j times one, and the best j are the j best alone
        (most points, then the earliest), so one table of j = 0, 1, ... stands for them
        all and is merged once instead of once a building."""
        out = []
        alike: dict[tuple[int, int, int], list[Entry]] = {}
        for part in steady:
            table = self.table(part, 0)
            if len(part) == 1 and len(table) == 2:
                alike.setdefault(self.cost[part[0]], []).append(table[bucket(*self.cost[part[0]])])
            else:
                out.append(table)
        for cost, entries in alike.items():
            grouped: Table = {0: 0}
            total = 0
            for j, entry in enumerate(sorted(entries, reverse=True), 1):
                total += entry
                grouped[bucket(*(j * c for c in cost))] = total
            out.append(grouped)
        return out

    def best_mask(self) -> int:
        city, scorer = self.city, self.scorer
        res = Resources(city)
        offset = self.offset
        parts = components(self.graph, list(self.graph))
        fixed = scorer.always.bit_count()
        base_points = scorer.score(scorer.always)
        guesses = run_guesses(city)
        touched = 0
        for forced, _ in guesses:
            touched |= forced
        self.touched = touched
        # Parts no guess touches are merged once; only the others are merged per guess.
        steady = [p for p in parts if not any(touched >> i & 1 for i in p)]
        varying = [p for p in parts if any(touched >> i & 1 for i in p)]
        start: Table = {offset: 0}
        for table in self.steady_tables(steady):
            start = merge(start, table)
        # The parts that fewer guesses force differently first: the guesses share the
        # programme's states up to the first part they force differently. (Counting
        # costs guesses x parts: not for the hundreds of guesses of a city of harbors.)
        masks = {id(p): sum(1 << i for i in p) for p in varying}
        if len(guesses) * len(varying) <= 4096:
            varying.sort(key=lambda p: len({f & masks[id(p)] for f, _ in guesses}))
        tables: dict[tuple[int, int], Table] = {}
        prefixes: dict[tuple[int, ...], Table] = {(): start}

        def finals(forced: int) -> Table:
            states = start
            sig: tuple[int, ...] = ()
            for k, part in enumerate(varying):
                mine = forced & masks[id(part)]
                sig = (*sig, mine)
                found = prefixes.get(sig)
                if found is None:
                    if (k, mine) not in tables:
                        tables[(k, mine)] = self.table(part, mine)
                    found = prefixes[sig] = merge(states, tables[(k, mine)])
                states = found
                if not states:
                    break
            return states

        shift, n, prefs = self.shift, self.n, self.prefs
        empty = fixed - city.spaces  # -(empty spaces) once the buildings on are added
        best: FullKey | None = None

        def consider(states: Table, bonus: int) -> int | None:
            """The best of ``states`` with ``bonus`` into ``best``; returns the best total
            without the bonus (None if the resources cannot hold the harbors forced)."""
            nonlocal best
            most: int | None = None
            above = base_points + bonus
            for at, entry in states.items():
                add, placed_i, placed, neg_penalty = res.of(at - offset)
                total = (entry >> shift) + above + add
                if most is None or total > most:
                    most = total
                if best is not None and total < best[0]:
                    continue
                full = (total, placed_i, (entry >> n & (1 << COUNT_BITS) - 1) + empty, placed,
                        neg_penalty, entry & prefs)
                if best is None or full > best:
                    best = full
            return None if most is None else most - bonus

        # No harbor forced first: forcing harbors only removes choices, so its best total
        # without run points (the ceiling), plus a guess's run points, bounds what that
        # guess can reach; a guess whose bound is below the best total found is skipped
        # (the order does not change the best, only what is skipped).
        ceiling = next(consider(finals(0), bonus) for forced, bonus in guesses if forced == 0)
        assert ceiling is not None  # nothing forced: every building may stay off
        for forced, bonus in sorted(guesses, key=lambda g: -g[1]):
            if forced == 0 or (best is not None and ceiling + bonus < best[0]):
                continue
            consider(finals(forced), bonus)
        assert best is not None
        return self.mask_of(best[5]) | scorer.always


def best_mask(city: City, scorer: Scorer | None = None) -> int:
    """The activation mask (bit i = building i) of the best allocation (``scorer``: the
    city's, if made already)."""
    return Search(city, scorer).best_mask()
