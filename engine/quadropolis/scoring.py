"""Final scoring of one city for a given set of activated buildings (L199-L390, L454-576).

A :class:`City` is what scoring needs of a player's city: its buildings (a stack is one
building, scored by its floors), the city board and the resources held. A
:class:`Scorer` scores the *buildings* of that city for any set of activated buildings,
given as a bit mask over the buildings in reading order; the allocation module adds
shop customers and penalties and searches for the best set.

Only activated buildings count: an inactive one is removed before any scoring (L237),
so it gives no adjacency, no district, no harbor run and no office group. Parks and
monuments need no activation and are always there.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from engine.quadropolis.state import State
from engine.quadropolis.tiles import BOARDS, TABLES, TILES, CityBoard, Tables

CATEGORIES: Final = (
    "tower_blocks", "shops", "public_services", "parks", "factories", "harbors", "offices",
    "monuments",
)
CATEGORY_OF: Final = {
    "tower_block": "tower_blocks", "shop": "shops", "public_service": "public_services",
    "park": "parks", "factory": "factories", "harbor": "harbors", "office": "offices",
    "monument": "monuments",
}


@dataclass(frozen=True)
class Building:
    row: int  # 1-based
    col: int
    type: str
    floors: int = 1
    vp: int = 0
    square: bool = False

    @property
    def cost_inhabitants(self) -> int:
        return 1 if self.type in ("public_service", "factory", "harbor", "office") else 0

    @property
    def cost_energy(self) -> int:
        return 1 if self.type in ("tower_block", "shop", "office") else 0

    @property
    def needs_activation(self) -> bool:
        return self.type not in ("park", "monument")

    @property
    def absorbs(self) -> bool:
        """Whether it takes one energy barrel against pollution: a park does (L336), a
        square does not (L617)."""
        return self.type == "park" and not self.square

    def to_json(self) -> dict[str, Any]:
        return {
            "row": self.row, "col": self.col, "type": self.type, "floors": self.floors,
            "vp": self.vp, "square": self.square,
        }


@dataclass(frozen=True)
class City:
    mode: str
    buildings: tuple[Building, ...]  # reading order
    inhabitants: int
    energy: int

    @property
    def board(self) -> CityBoard:
        return BOARDS[self.mode]

    @property
    def tables(self) -> Tables:
        return TABLES[self.mode]

    @property
    def spaces(self) -> int:
        return self.board.rows * self.board.cols


def city_of(state: State, seat: int) -> City:
    player = state.players[seat]
    return city_from(state.mode, player.city, player.inhabitants, player.energy)


def city_from(
    mode: str, stacks: Sequence[Sequence[Sequence[str]]], inhabitants: int, energy: int
) -> City:
    """The city of a player's stacks (``Player.city``: rows of stacks of tile ids)."""
    buildings = [
        _building(r + 1, c + 1, stack[-1], len(stack))
        for r, row in enumerate(stacks)
        for c, stack in enumerate(row)
        if stack
    ]
    return City(mode, tuple(buildings), inhabitants, energy)


@lru_cache(maxsize=4096)
def _building(row: int, col: int, top_id: str, floors: int) -> Building:
    """The building of a stack: made once (issue 25), as every view scores every city.
    Only a stackable type is ever stacked (rules.py), so a stack is its top tile and its
    height. The same object each time also makes the allocation cache's look-ups cheap."""
    top = TILES[top_id]
    return Building(row=row, col=col, type=top.type, floors=floors, vp=top.vp,
                    square=top.square)


def make_city(
    mode: str, buildings: Sequence[Building], inhabitants: int, energy: int
) -> City:
    """A city from a list of buildings in any order (tests and benchmarks)."""
    ordered = tuple(sorted(buildings, key=lambda b: (b.row, b.col)))
    spots = [(b.row, b.col) for b in ordered]
    if len(set(spots)) != len(spots):
        raise ValueError("two buildings on one space")
    return City(mode, ordered, inhabitants, energy)


_LONGEST: Final = tuple(
    max((len(run) for run in format(bits, "b").split("0")), default=0) for bits in range(64)
)


class Scorer:
    """Scores the buildings of one city for a mask of activated buildings (bit i =
    building i in reading order). Masks always include the parks and monuments."""

    def __init__(self, city: City, *, runs: bool = True) -> None:
        # runs=False leaves out the harbor runs (the allocation search adds them itself).
        self.city = city
        self.runs = runs
        t = city.tables
        self.t = t
        b = city.buildings
        self.n = len(b)
        at = {(x.row, x.col): i for i, x in enumerate(b)}
        self.neighbours: list[list[int]] = []
        for x in b:
            around = [
                (x.row - 1, x.col), (x.row + 1, x.col), (x.row, x.col - 1), (x.row, x.col + 1)
            ]
            self.neighbours.append([at[p] for p in around if p in at])
        self.always = 0
        for i, x in enumerate(b):
            if not x.needs_activation:
                self.always |= 1 << i

        def of(kind: str) -> list[int]:
            return [i for i, x in enumerate(b) if x.type == kind]

        def nb_mask(i: int, kinds: tuple[str, ...]) -> int:
            m = 0
            for j in self.neighbours[i]:
                if b[j].type in kinds:
                    m |= 1 << j
            return m

        self.towers = [(i, t.tower[min(b[i].floors, t.max_floors)]) for i in of("tower_block")]
        districts = city.board.districts
        self.services = [
            (i, b[i].vp, 1 << districts[b[i].row - 1][b[i].col - 1])
            for i in of("public_service")
        ]
        stack_kinds = ("tower_block", "office") if city.mode == "expert" else ("tower_block",)
        self.parks = [(i, nb_mask(i, stack_kinds)) for i in of("park")]
        self.factories = [
            (i, nb_mask(i, ("shop",)), nb_mask(i, ("harbor",)), nb_mask(i, ("office",)))
            for i in of("factory")
        ]
        self.factory_value = (
            t.factory.get("shop", 0), t.factory.get("harbor", 0), t.factory.get("office", 0)
        )
        self.harbors = [(i, b[i].vp, b[i].row, b[i].col) for i in of("harbor")]
        self.offices = [(i, b[i].floors) for i in of("office")]
        self.office_nb = {i: nb_mask(i, ("office",)) for i, _ in self.offices}
        self.office_floors = dict(self.offices)
        self.office_mask = sum(1 << i for i, _ in self.offices)
        mon = t.monument
        self.monuments = [
            (
                i,
                nb_mask(i, ("shop",)), nb_mask(i, ("public_service",)),
                nb_mask(i, ("factory", "harbor")),
                sum(mon.get("park", 0) for j in self.neighbours[i] if b[j].type == "park"),
            )
            for i in of("monument")
        ]
        self.monument_values = (
            mon.get("shop", 0), mon.get("public_service", 0), mon.get("factory", 0)
        )

    def without_runs(self) -> Scorer:
        """This scorer leaving out the harbor runs (the allocation search adds them)."""
        out = copy.copy(self)
        out.runs = False
        return out

    def restricted(self, items: int) -> Scorer:
        """A scorer that leaves out every term the buildings of ``items`` (a mask) cannot
        change: ``restricted(items).score(m | x) - restricted(items).score(m)`` equals
        ``score(m | x) - score(m)`` for any ``x`` within ``items``. The search scores an
        office block's subsets and the public services alone this way (issue 25). A term
        is kept if a building of ``items`` is in it: a tower, harbor or factory itself, a
        park, factory or monument beside one, every public service or office if one of
        them is (the districts, the office groups), every harbor when runs are counted."""
        out = copy.copy(self)
        out.towers = [x for x in self.towers if items >> x[0] & 1]
        if not any(items >> x[0] & 1 for x in self.services):
            out.services = []
        out.parks = [x for x in self.parks if items & x[1]]
        out.factories = [x for x in self.factories
                         if items >> x[0] & 1 or items & (x[1] | x[2] | x[3])]
        if not self.runs:
            out.harbors = [x for x in self.harbors if items >> x[0] & 1]
        if not any(items >> i & 1 for i, _ in self.offices):
            out.offices = []
        out.monuments = [x for x in self.monuments if items & (x[1] | x[2] | x[3])]
        return out

    def score(self, mask: int) -> int:
        """The buildings' points for this activation mask (no customers, no penalties):
        the sum of ``categories``, computed without the bookkeeping (the search calls it
        for every subset it tries)."""
        t = self.t
        total = 0
        for i, v in self.towers:
            if mask >> i & 1:
                total += v
        if self.services:
            districts = 0
            for i, vp, d in self.services:
                if mask >> i & 1:
                    districts |= d
                    total += vp
            total += t.public_service[min(districts.bit_count(), len(t.public_service) - 1)]
        park = t.park
        top = len(park) - 1
        for _, nb in self.parks:
            total += park[min((mask & nb).bit_count(), top)]
        fs, fh, fo = self.factory_value
        for i, shops, harbors, offices in self.factories:
            if mask >> i & 1:
                total += fs * (mask & shops).bit_count() + fh * (mask & harbors).bit_count() \
                    + fo * (mask & offices).bit_count()
        if self.harbors:
            if self.runs:
                return total + self._harbors_and_rest(mask)
            for i, vp, _, _ in self.harbors:
                if mask >> i & 1:
                    total += vp
        if self.offices:
            total += self.office_points(mask)
        if self.monuments:
            total += self._monument_points(mask)
        return total

    def _harbors_and_rest(self, mask: int) -> int:
        out = self.categories(mask)
        return out["harbors"] + self._offices_and_monuments(mask)

    def _offices_and_monuments(self, mask: int) -> int:
        return self.office_points(mask) + self._monument_points(mask)

    def _monument_points(self, mask: int) -> int:
        total = 0
        ms, mp, mf = self.monument_values
        for _, shops, services, industry, parks in self.monuments:
            total += parks + ms * (mask & shops).bit_count() + mp * (mask & services).bit_count() \
                + mf * (mask & industry).bit_count()
        return total

    def office_points(self, mask: int) -> int:
        """The offices' points: each office group's row of the table (L458-463)."""
        total = 0
        if self.offices:  # (most cities have none)
            t = self.t
            floors = self.office_floors
            active = mask & self.office_mask
            while active:
                seed = active & -active
                group, frontier = seed, seed
                while frontier:
                    low = frontier & -frontier
                    frontier ^= low
                    grow = self.office_nb[low.bit_length() - 1] & active & ~group
                    group |= grow
                    frontier |= grow
                active &= ~group
                row = t.office[min(group.bit_count(), len(t.office) - 1)]
                g = group
                while g:
                    low = g & -g
                    g ^= low
                    total += row[min(floors[low.bit_length() - 1], len(row) - 1)]
        return total

    def categories(self, mask: int, points: list[int] | None = None) -> dict[str, int]:
        """Points by category; fills ``points`` (one entry per building) when given."""
        t = self.t
        out = dict.fromkeys(CATEGORIES, 0)
        pts = points if points is not None else [0] * self.n
        for i, v in self.towers:
            if mask >> i & 1:
                pts[i] = v
                out["tower_blocks"] += v
        districts = 0
        for i, vp, d in self.services:
            if mask >> i & 1:
                districts |= d
                pts[i] = vp
                out["public_services"] += vp
        top = len(t.public_service) - 1
        out["public_services"] += t.public_service[min(districts.bit_count(), top)]
        for i, nb in self.parks:
            v = t.park[min((mask & nb).bit_count(), len(t.park) - 1)]
            pts[i] = v
            out["parks"] += v
        fs, fh, fo = self.factory_value
        for i, shops, harbors, offices in self.factories:
            if mask >> i & 1:
                v = fs * (mask & shops).bit_count() + fh * (mask & harbors).bit_count() \
                    + fo * (mask & offices).bit_count()
                pts[i] = v
                out["factories"] += v
        if self.harbors and not self.runs:
            for i, vp, _, _ in self.harbors:
                if mask >> i & 1:
                    pts[i] = vp
                    out["harbors"] += vp
        elif self.harbors:
            rows: dict[int, int] = {}
            cols: dict[int, int] = {}
            for i, vp, r, c in self.harbors:
                if mask >> i & 1:
                    pts[i] = vp
                    out["harbors"] += vp
                    rows[r] = rows.get(r, 0) | 1 << c
                    cols[c] = cols.get(c, 0) | 1 << r
            top = len(t.harbor) - 1
            longest_row = max((_LONGEST[m] for m in rows.values()), default=0)
            longest_col = max((_LONGEST[m] for m in cols.values()), default=0)
            out["harbors"] += t.harbor[min(longest_row, top)] + t.harbor[min(longest_col, top)]
        if self.offices:
            active = 0
            for i, _ in self.offices:
                if mask >> i & 1:
                    active |= 1 << i
            floors = dict(self.offices)
            while active:
                seed = active & -active
                group, frontier = seed, seed
                while frontier:
                    low = frontier & -frontier
                    frontier ^= low
                    grow = self.office_nb[low.bit_length() - 1] & active & ~group
                    group |= grow
                    frontier |= grow
                active &= ~group
                row = t.office[min(group.bit_count(), len(t.office) - 1)]
                g = group
                while g:
                    low = g & -g
                    g ^= low
                    i = low.bit_length() - 1
                    v = row[min(floors[i], len(row) - 1)]
                    pts[i] = v
                    out["offices"] += v
        ms, mp, mf = self.monument_values
        for i, shops, services, industry, parks in self.monuments:
            v = parks + ms * (mask & shops).bit_count() + mp * (mask & services).bit_count() \
                + mf * (mask & industry).bit_count()
            pts[i] = v
            out["monuments"] += v
        return out
