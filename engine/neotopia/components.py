"""The immutable values of a Neotopia data set, and the board geometry the rules use.

Built and checked by ``engine.neotopia.datacheck``; loaded by ``engine.neotopia.data``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

BONUS_KINDS = ("subsidy", "automation", "private_initiative", "building_permits")
CELL_KINDS = ("centre", "bonus", "outer", "normal")

Coord = tuple[int, int]


@dataclass(frozen=True)
class Colour:
    id: str
    name: str
    element_en: str
    element_fr: str
    count: int


@dataclass(frozen=True)
class Cell:
    id: str
    region: str
    q: int
    r: int
    kind: str


@dataclass(frozen=True)
class Region:
    id: str
    letter: str
    name_en: str
    name_fr: str
    centre: str
    bonus_cells: tuple[str, ...]
    outer_cells: tuple[str, ...]
    cells: tuple[str, ...]
    manufactures: tuple[str, ...]


@dataclass(frozen=True)
class Manufacture:
    id: str
    regions: tuple[str, str]
    start: tuple[str, ...]
    slots: tuple[Coord, ...]


@dataclass(frozen=True)
class Tile:
    id: str
    back: tuple[str, ...]
    symbol: bool
    flag: bool


@dataclass(frozen=True)
class ProjectType:
    id: str
    main: str
    second: str | None
    building: str | None
    name_en: str
    name_fr: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Card:
    id: str
    type: str
    pattern: tuple[tuple[int, int, str], ...]
    points: int | None  # None for a building card (own/other colour points)
    building: str | None


@dataclass(frozen=True)
class BonusType:
    id: str
    name_en: str
    name_fr: str
    effect: str
    count: int


@dataclass(frozen=True)
class DataSet:
    name: str
    id: str
    kind: str
    source: str
    grid: str
    directions: tuple[Coord, ...]
    colours: tuple[Colour, ...]
    cells: Mapping[str, Cell]
    neighbours: Mapping[str, tuple[str, ...]]
    regions: tuple[Region, ...]
    manufactures: tuple[Manufacture, ...]
    production_slot: Coord
    track_length: int
    thresholds: tuple[int, ...]
    pile_size: int
    bonus_types: tuple[BonusType, ...]
    tiles: tuple[Tile, ...]
    removal: Mapping[int, int]
    stack_top: tuple[str, ...]
    types: Mapping[str, ProjectType]
    cards: Mapping[str, Card]
    building_own: int
    building_other: int
    hand_size: int
    offer_size: int
    scenarios: tuple[Mapping[str, Any], ...]
    warnings: tuple[str, ...] = ()
    by_coord: Mapping[Coord, str] = field(default_factory=dict)

    # The rules ask for these thousands of times a game; a data set never changes once
    # built, so each is derived once (cached_property writes past the frozen guard).
    @cached_property
    def colour_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.colours)

    @cached_property
    def _regions_by_id(self) -> dict[str, Region]:
        return {r.id: r for r in self.regions}

    @cached_property
    def _manufactures_by_id(self) -> dict[str, Manufacture]:
        return {m.id: m for m in self.manufactures}

    @cached_property
    def inner_cells(self) -> dict[str, tuple[tuple[str, tuple[str, ...]], ...]]:
        """Per region, its cells that are not outer, in the region's order, each with
        its neighbours: what the placement rule scans."""
        return {r.id: tuple((c, self.neighbours[c]) for c in r.cells
                            if self.cells[c].kind != "outer")
                for r in self.regions}

    def region(self, region_id: str) -> Region:
        try:
            return self._regions_by_id[region_id]
        except KeyError:
            raise KeyError(region_id) from None

    def manufacture(self, manufacture_id: str) -> Manufacture:
        try:
            return self._manufactures_by_id[manufacture_id]
        except KeyError:
            raise KeyError(manufacture_id) from None

    def card_points(self, card_id: str, colour: str) -> int:
        """What ``colour`` scores for building ``card_id`` (building cards: 2 own, 4 other)."""
        card = self.cards[card_id]
        if card.points is not None:
            return card.points
        return self.building_own if card.building == colour else self.building_other


def adjacent(data: DataSet, a: str, b: str) -> bool:
    return b in data.neighbours[a]


def largest_group(data: DataSet, board: Mapping[str, str], region: str, colour: str) -> int:
    """Size of the largest set of adjacent ``colour`` elements in ``region`` (S1)."""
    best = 0
    seen: set[str] = set()
    for start in data.region(region).cells:
        if board.get(start) != colour or start in seen:
            continue
        size = 0
        todo = [start]
        seen.add(start)
        while todo:
            cell = todo.pop()
            size += 1
            for n in data.neighbours[cell]:
                if n not in seen and board.get(n) == colour:
                    seen.add(n)
                    todo.append(n)
        best = max(best, size)
    return best


def rotations(grid: str, mirror: bool) -> list[Any]:
    """The maps of pattern offsets for every allowed orientation (C2, RULINGS N7)."""

    def rot_hex(c: Coord) -> Coord:
        return (-c[1], c[0] + c[1])

    def rot_square(c: Coord) -> Coord:
        return (-c[1], c[0])

    rot = rot_hex if grid == "hex" else rot_square
    turns = 6 if grid == "hex" else 4
    maps: list[Any] = []
    for flip in (False, True) if mirror else (False,):
        for k in range(turns):
            def f(c: Coord, k: int = k, flip: bool = flip) -> Coord:
                if flip:
                    c = (c[1], c[0]) if grid == "hex" else (c[0], -c[1])
                for _ in range(k):
                    c = rot(c)
                return c
            maps.append(f)
    return maps
