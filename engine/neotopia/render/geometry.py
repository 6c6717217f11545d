"""The board's lattice in pixels: cells, manufactures' drawing slots, the centre.

Everything comes from the view (``board.cells`` with ``q, r`` and ``board.grid``), so a
transcribed printed board draws without touching this code. Two lattices, as the data
schema allows (neotopia-house-set.md, section D):

- ``hex``: axial ``(q, r)``, flat-top cells, ``x = 1.5 q``, ``y = √3 (r + q / 2)``;
- ``square``: ``x = 1.8 q``, ``y = 1.8 r``, square cells.

Positions are in units of the cell "radius" (centre to corner for a hexagon).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

SQRT3 = math.sqrt(3.0)
SQUARE_PITCH = 1.8
GRIDS = ("hex", "square")


def unit_xy(grid: str, q: float, r: float) -> tuple[float, float]:
    if grid == "square":
        return SQUARE_PITCH * q, SQUARE_PITCH * r
    return 1.5 * q, SQRT3 * (r + q / 2)


def half_extent(grid: str) -> tuple[float, float]:
    """Half the width and height of one cell, in units."""
    if grid == "square":
        return SQUARE_PITCH / 2, SQUARE_PITCH / 2
    return 1.0, SQRT3 / 2


def directions(grid: str) -> tuple[tuple[int, int], ...]:
    """Neighbour steps of the lattice, as in the data set's ``board.grid.directions``."""
    if grid == "square":
        return ((0, -1), (1, 0), (0, 1), (-1, 0))
    return ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


@dataclass(frozen=True)
class Cell:
    id: str
    region: str
    q: int
    r: int
    kind: str  # centre, bonus, outer, normal

    @property
    def number(self) -> str:
        """The cell's number inside its region (``D11`` -> ``11``), drawn on empty cells."""
        return self.id[1:] if len(self.id) > 1 and self.id[0].isalpha() else self.id


@dataclass(frozen=True)
class Manufacture:
    id: str
    regions: tuple[str, ...]
    slots: tuple[tuple[int, int], ...]  # drawing slots, from the centre outwards


@dataclass(frozen=True)
class Geometry:
    cells: tuple[Cell, ...]
    regions: tuple[str, ...]  # clockwise, as the data lists them
    region_centre: Mapping[str, tuple[int, int]]
    manufactures: tuple[Manufacture, ...]
    production: tuple[int, int]
    grid: str = "hex"

    def by_id(self) -> dict[str, Cell]:
        return {c.id: c for c in self.cells}

    def unit_bounds(self) -> tuple[float, float, float, float]:
        """Extent of every cell and slot in units (whole cells included)."""
        pts = [(c.q, c.r) for c in self.cells]
        pts += [s for m in self.manufactures for s in m.slots] + [self.production]
        return points_bounds(self.grid, pts)


def points_bounds(grid: str, pts: list[tuple[int, int]]) -> tuple[float, float, float, float]:
    xy = [unit_xy(grid, q, r) for q, r in pts]
    hx, hy = half_extent(grid)
    xs = [x for x, _ in xy]
    ys = [y for _, y in xy]
    return min(xs) - hx, min(ys) - hy, max(xs) + hx, max(ys) + hy


@dataclass(frozen=True)
class HexLayout:
    """Lattice ``(q, r)`` to pixels: ``radius`` is one unit (a hexagon's centre-to-corner
    distance) in pixels. Named for the house board; it draws a square lattice too."""

    radius: float
    ox: float  # pixel position of (0, 0)
    oy: float
    grid: str = "hex"

    def centre(self, q: float, r: float) -> tuple[float, float]:
        x, y = unit_xy(self.grid, q, r)
        return (self.ox + x * self.radius, self.oy + y * self.radius)

    def polygon(self, q: float, r: float, inset: float = 0.0) -> list[tuple[float, float]]:
        cx, cy = self.centre(q, r)
        return cell_points(self.grid, cx, cy, self.radius - inset)

    def unit_to_px(self, ux: float, uy: float) -> tuple[float, float]:
        return (self.ox + ux * self.radius, self.oy + uy * self.radius)


def cell_points(grid: str, cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    """The outline of one cell of ``grid`` centred on (cx, cy)."""
    if grid == "square":
        h = radius * SQUARE_PITCH / 2
        return [(round(cx - h, 1), round(cy - h, 1)), (round(cx + h, 1), round(cy - h, 1)),
                (round(cx + h, 1), round(cy + h, 1)), (round(cx - h, 1), round(cy + h, 1))]
    return hex_points(cx, cy, radius)


def hex_points(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    """Corners of a flat-top hexagon, rounded to a tenth of a pixel (stable output)."""
    return [(round(cx + dx * radius, 1), round(cy + dy * radius, 1)) for dx, dy in _UNIT_HEX]


_UNIT_HEX: tuple[tuple[float, float], ...] = tuple(
    (math.cos(math.radians(60 * i)), math.sin(math.radians(60 * i))) for i in range(6)
)


def fit_layout(geo: Geometry, box: tuple[int, int, int, int], *,
               max_radius: float = 60.0) -> HexLayout:
    """The largest whole-pixel unit at which the board fits ``box``, centred in it."""
    x0, y0, x1, y1 = box
    ux0, uy0, ux1, uy1 = geo.unit_bounds()
    radius = float(min(max_radius, math.floor(min((x1 - x0) / (ux1 - ux0),
                                                  (y1 - y0) / (uy1 - uy0)))))
    ox = x0 + ((x1 - x0) - (ux1 - ux0) * radius) / 2 - ux0 * radius
    oy = y0 + ((y1 - y0) - (uy1 - uy0) * radius) / 2 - uy0 * radius
    return HexLayout(radius, round(ox), round(oy), geo.grid)


@lru_cache(maxsize=256)
def pattern_unit_bounds(cells: tuple[tuple[int, int], ...], grid: str = "hex"
                        ) -> tuple[float, float, float, float]:
    return points_bounds(grid, list(cells))
