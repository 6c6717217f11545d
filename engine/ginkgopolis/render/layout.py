"""Where things go: the city grid mapped to pixels, whatever shape the city takes.

The city is scaled to the bounding box of its buildings and tokens. ``CityLayout`` is
public so that tests can compute where a building or token was drawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.ginkgopolis.render.canvas import Box

Cell = tuple[int, int]
View = dict[str, Any]

# Cell pitch bounds (pixels): large enough to read when Discord halves the image,
# small enough that a sprawling city still fits a sane width.
MAX_PITCH = 120
MIN_PITCH = 56


@dataclass(frozen=True)
class Bounds:
    min_x: int
    min_y: int
    max_x: int
    max_y: int

    @property
    def cols(self) -> int:
        return self.max_x - self.min_x + 1

    @property
    def rows(self) -> int:
        return self.max_y - self.min_y + 1

    def union(self, other: Bounds) -> Bounds:
        return Bounds(
            min(self.min_x, other.min_x),
            min(self.min_y, other.min_y),
            max(self.max_x, other.max_x),
            max(self.max_y, other.max_y),
        )


@dataclass(frozen=True)
class CityLayout:
    """Cell (x, y) of the game maps to a pitch-sized square; the tile sits inside it."""

    bounds: Bounds
    left: int
    top: int
    pitch: int

    @property
    def gap(self) -> int:
        return max(6, self.pitch // 8)

    @property
    def width(self) -> int:
        return self.bounds.cols * self.pitch

    @property
    def height(self) -> int:
        return self.bounds.rows * self.pitch

    def cell_box(self, x: int, y: int) -> Box:
        px = self.left + (x - self.bounds.min_x) * self.pitch
        py = self.top + (y - self.bounds.min_y) * self.pitch
        return (px, py, px + self.pitch, py + self.pitch)

    def tile_box(self, x: int, y: int) -> Box:
        x0, y0, x1, y1 = self.cell_box(x, y)
        g = self.gap // 2
        return (x0 + g, y0 + g, x1 - (self.gap - g), y1 - (self.gap - g))


def require_public(view: View, who: str) -> None:
    """Images posted to the table are drawn from the public view only."""
    if view.get("me") is not None or view.get("seat") is not None:
        raise ValueError(f"{who} takes the public view: view(state, None)")


def cells_of(view: View) -> list[Cell]:
    """Every cell the city image must show: buildings and urbanization tokens."""
    cells = [(int(b["x"]), int(b["y"])) for b in view["board"]]
    cells += [(int(v[0]), int(v[1])) for v in view["tokens"].values()]
    return cells


def labelled_cells(view: View) -> list[Cell]:
    """The empty cells the board labels with their coordinates: where a token stands, and
    every cell beside a building, where a token may move to."""
    built = {(int(b["x"]), int(b["y"])) for b in view["board"]}
    tokens = {(int(x), int(y)) for x, y in view["tokens"].values()}
    beside = {(x + dx, y + dy) for x, y in built
              for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    return sorted((beside | tokens) - built)


def bounds_of(cells: Iterable[Cell]) -> Bounds:
    pts = list(cells) or [(0, 0)]
    xs = [x for x, _ in pts]
    ys = [y for _, y in pts]
    return Bounds(min(xs), min(ys), max(xs), max(ys))


def views_bounds(views: Sequence[View]) -> Bounds:
    b = bounds_of(cells_of(views[0]))
    for v in views[1:]:
        b = b.union(bounds_of(cells_of(v)))
    return b


def fit_pitch(
    bounds: Bounds, max_width: int, max_height: int, *, lo: int = MIN_PITCH, hi: int = MAX_PITCH
) -> int:
    """The largest even pitch that fits the box, never below ``lo`` (the box then grows).

    Even, so that a cell's centre falls on a whole pixel wherever the cell is: a token or
    a label centred in it is drawn the same in every cell."""
    pitch = min(hi, max_width // bounds.cols, max_height // bounds.rows)
    return max(lo, pitch - pitch % 2)


def labelled_pitch(bounds: Bounds, pitch: int, widest: int, max_height: int,
                   labelled: int) -> int:
    """``pitch``, raised to ``labelled`` (where a tile's labels read 11 px at 550 wide)
    when the city then still fits ``widest`` by ``max_height``: a city of nine columns
    takes some width from the panels rather than shrink its labels."""
    if pitch < labelled and bounds.cols * labelled <= widest and (
            bounds.rows * labelled <= max_height):
        return labelled
    return pitch


def place_city(bounds: Bounds, area: Box, pitch: int) -> CityLayout:
    """Centre a city of ``bounds`` at ``pitch`` in ``area``."""
    x0, y0, x1, y1 = area
    left = x0 + (x1 - x0 - bounds.cols * pitch) // 2
    top = y0 + (y1 - y0 - bounds.rows * pitch) // 2
    return CityLayout(bounds, left, top, pitch)


def districts(view: View) -> list[list[Cell]]:
    """Groups of >= 2 orthogonally adjacent buildings whose top tiles share a colour.

    Same order as the engine's scoring (flood fill from cells sorted by row, then
    column), so district numbers on the final image match the score breakdown.
    """
    color = {(int(b["x"]), int(b["y"])): str(b["color"]) for b in view["board"]}
    seen: set[Cell] = set()
    found: list[list[Cell]] = []
    for start in sorted(color, key=lambda c: (c[1], c[0])):
        if start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            x, y = stack.pop()
            group.append((x, y))
            for nb in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                if nb in color and nb not in seen and color[nb] == color[start]:
                    seen.add(nb)
                    stack.append(nb)
        if len(group) >= 2:
            found.append(sorted(group, key=lambda c: (c[1], c[0])))
    return found


Placed = tuple[str, int, int]  # column ("right" beside the city, "left" under it), top, height


def two_columns(heights: Iterable[tuple[int, int]], right_top: int, left_top: int,
                gap: int) -> tuple[list[Placed], dict[str, int]]:
    """Blocks (the board's panels, the final image's rows) fill the column beside the
    city, then the room under it: each goes where it ends higher, so that four or five
    players do not make a tall narrow strip. ``heights``: each block's height beside
    the city and under it. Returns where each went and each column's bottom."""
    bottoms = {"right": right_top, "left": left_top}
    placed: list[Placed] = []
    for h_right, h_left in heights:
        side = "right" if bottoms["right"] + h_right <= bottoms["left"] + h_left else "left"
        h = h_right if side == "right" else h_left
        placed.append((side, bottoms[side], h))
        bottoms[side] += h + gap
    return placed, bottoms
