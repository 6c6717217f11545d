"""Where the grid of towers goes: tests sample pixels at the places computed here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.skybridge.render.canvas import MARGIN, WIDTH, Box

GAP: Final = 14
CELL_W: Final = (WIDTH - 2 * MARGIN - 2 * GAP) // 3
COLUMN_W: Final = 84
HEADER_H: Final = 56
LABEL_H: Final = 42
ROOF_H: Final = 28
PLANK_OUT: Final = 6
TOP_PAD: Final = 10
# A one-storey bridge must hold its letter at the smallest text size, so storeys never
# get thinner than this: a tall board makes a taller image instead.
UNIT_MIN: Final = 20
UNIT_MAX: Final = 24
# An empty or low row keeps room for a few storeys, so the board does not jump in size
# with every early move.
ROW_STOREYS_MIN: Final = 4


@dataclass(frozen=True)
class Layout:
    unit: int  # pixels per storey
    column_h: tuple[int, int, int]  # per grid row: from the highest roof's tip to the ground
    board_top: int

    @classmethod
    def for_view(cls, view: Mapping[str, Any]) -> Layout:
        heights = {t["foundation"]: int(t["height"]) for t in view["board"]}
        tallest = max(heights.values(), default=0)
        unit = max(UNIT_MIN, min(UNIT_MAX, 280 // max(tallest, 1)))
        rows = tuple(
            unit * max(ROW_STOREYS_MIN, *(heights.get(3 * r + c, 0) for c in (1, 2, 3)))
            + ROOF_H + TOP_PAD
            for r in range(3)
        )
        return cls(unit=unit, column_h=(rows[0], rows[1], rows[2]), board_top=HEADER_H)

    @property
    def board_bottom(self) -> int:
        return self.board_top + sum(self.column_h) + 3 * LABEL_H + 2 * GAP

    def cell(self, foundation: int) -> Box:
        row, col = divmod(foundation - 1, 3)
        x = MARGIN + col * (CELL_W + GAP)
        y = self.board_top + sum(self.column_h[:row]) + row * (LABEL_H + GAP)
        return (x, y, x + CELL_W, y + self.column_h[row] + LABEL_H)

    def ground(self, foundation: int) -> int:
        return self.cell(foundation)[3] - LABEL_H

    def column(self, foundation: int) -> tuple[int, int]:
        x0, _, x1, _ = self.cell(foundation)
        middle = (x0 + x1) // 2 - 16  # left of centre: bridge arrows go on the right
        return (middle - COLUMN_W // 2, middle + COLUMN_W // 2)

    def piece_box(self, foundation: int, level: int, storeys: int) -> Box:
        """The rectangle of a block or bridge resting ``level`` storeys above the ground."""
        x0, x1 = self.column(foundation)
        ground = self.ground(foundation)
        return (x0, ground - (level + storeys) * self.unit, x1, ground - level * self.unit)

    def roof_box(self, foundation: int, height: int) -> Box:
        x0, x1 = self.column(foundation)
        ground = self.ground(foundation)
        return (x0 - 6, ground - height * self.unit - ROOF_H, x1 + 6, ground - height * self.unit)
