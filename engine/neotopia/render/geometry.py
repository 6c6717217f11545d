"""The board's hex lattice in pixels: cells, manufactures' drawing slots, the centre.

Everything comes from the view (``board.cells`` with axial ``q, r``; the flat-top
formula ``x = 1.5 q``, ``y = √3 (r + q / 2)``), so a transcribed printed board draws
without touching this code.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

SQRT3 = math.sqrt(3.0)


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
    slots: tuple[tuple[int, int], ...]  # axial drawing slots, from the centre outwards


@dataclass(frozen=True)
class Geometry:
    cells: tuple[Cell, ...]
    regions: tuple[str, ...]  # clockwise, as the data lists them
    region_centre: Mapping[str, tuple[int, int]]
    manufactures: tuple[Manufacture, ...]
    production: tuple[int, int]

    def cell(self, cell_id: str) -> Cell:
        return self.by_id()[cell_id]

    def by_id(self) -> dict[str, Cell]:
        return {c.id: c for c in self.cells}

    def unit_bounds(self) -> tuple[float, float, float, float]:
        """Extent of every cell and slot in hex-radius units (hexes included)."""
        pts = [(c.q, c.r) for c in self.cells]
        pts += [s for m in self.manufactures for s in m.slots] + [self.production]
        xs = [1.5 * q for q, _ in pts]
        ys = [SQRT3 * (r + q / 2) for q, r in pts]
        return min(xs) - 1, min(ys) - SQRT3 / 2, max(xs) + 1, max(ys) + SQRT3 / 2


@dataclass(frozen=True)
class HexLayout:
    """Axial (q, r) to pixels: ``radius`` is the centre-to-corner distance of a cell."""

    radius: float
    ox: float  # pixel position of (0, 0)
    oy: float

    def centre(self, q: float, r: float) -> tuple[float, float]:
        return (self.ox + 1.5 * q * self.radius, self.oy + SQRT3 * (r + q / 2) * self.radius)

    def polygon(self, q: float, r: float, inset: float = 0.0) -> list[tuple[float, float]]:
        cx, cy = self.centre(q, r)
        return hex_points(cx, cy, self.radius - inset)

    def unit_to_px(self, ux: float, uy: float) -> tuple[float, float]:
        return (self.ox + ux * self.radius, self.oy + uy * self.radius)


def hex_points(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    """Corners of a flat-top hexagon, rounded to a tenth of a pixel (stable output)."""
    return [(round(cx + dx * radius, 1), round(cy + dy * radius, 1)) for dx, dy in _UNIT_HEX]


_UNIT_HEX: tuple[tuple[float, float], ...] = tuple(
    (math.cos(math.radians(60 * i)), math.sin(math.radians(60 * i))) for i in range(6)
)


def fit_layout(geo: Geometry, box: tuple[int, int, int, int], *,
               max_radius: float = 60.0) -> HexLayout:
    """The largest whole-pixel radius at which the board fits ``box``, centred in it."""
    x0, y0, x1, y1 = box
    ux0, uy0, ux1, uy1 = geo.unit_bounds()
    radius = float(min(max_radius, math.floor(min((x1 - x0) / (ux1 - ux0),
                                                  (y1 - y0) / (uy1 - uy0)))))
    ox = x0 + ((x1 - x0) - (ux1 - ux0) * radius) / 2 - ux0 * radius
    oy = y0 + ((y1 - y0) - (uy1 - uy0) * radius) / 2 - uy0 * radius
    return HexLayout(radius, round(ox), round(oy))


@lru_cache(maxsize=4)
def pattern_unit_bounds(cells: tuple[tuple[int, int], ...]) -> tuple[float, float, float, float]:
    xs = [1.5 * q for q, _ in cells]
    ys = [SQRT3 * (r + q / 2) for q, r in cells]
    return min(xs) - 1, min(ys) - SQRT3 / 2, max(xs) + 1, max(ys) + SQRT3 / 2
