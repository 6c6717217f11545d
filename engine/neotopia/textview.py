"""Text drawings for the text view: each region's map, each card's pattern, and how far
each project of a hand is from being built. Only codes and glyphs here; every word a
player reads is in ``templates/<locale>/neotopia/``.

The drawing puts one axial row ``r`` on each printed line, a cell at column ``2q + r``:
the board turned by 30 degrees (a rotation, never a mirror, so a mirror-sensitive pattern
keeps its hand). Two cells touch exactly when they are side by side on a line, or on
neighbouring lines one column apart; the tests check the drawing against the neighbour
lists of the data set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.neotopia.data import DataSet
from engine.neotopia.patterns import orientations

# Glyphs after a cell's number when no element stands on it.
FREE, CENTRE, TOKEN, OUTER = ".", "*", "+", "o"
# A map cell is its two-digit number and one glyph; cells on a line stand 4 columns apart
# so that a one-column gap separates them, and each half step of the lattice is 2 columns.
CELL_WIDTH, HALF_STEP = 3, 2


def column(grid: str, q: int, r: int) -> int:
    """The drawing column of a cell, in half steps (a square grid keeps its columns)."""
    return 2 * q + r if grid == "hex" else 2 * q


def _lines(grid: str, items: Iterable[tuple[int, int, str]], step: int) -> list[str]:
    placed = [(r, column(grid, q, r), text) for q, r, text in items]
    if not placed:
        return []
    top = min(p[0] for p in placed)
    left = min(p[1] for p in placed)
    width = max(len(p[2]) for p in placed)
    rows: dict[int, list[str]] = {}
    for r, x, text in placed:
        line = rows.setdefault(r - top, [])
        start = (x - left) * step
        line.extend(" " * (start + width - len(line)))
        line[start:start + len(text)] = list(text)
    height = max(rows) + 1
    return ["".join(rows.get(i, [])).rstrip() for i in range(height)]


def cell_glyph(data: DataSet, cell_id: str, element: str | None, token: str | None) -> str:
    cell = data.cells[cell_id]
    if element is not None:
        mark = element
    elif token is not None:
        mark = TOKEN
    elif cell.kind == "centre":
        mark = CENTRE
    elif cell.kind == "outer":
        mark = OUTER
    else:
        mark = FREE
    return cell_id[1:] + mark


def region_map(data: DataSet, board: Mapping[str, str], tokens: Mapping[str, str],
               region: str) -> list[str]:
    """The region's cells as printed lines: the number of each cell (its id without the
    region letter) and what is on it."""
    reg = next(r for r in data.regions if r.id == region)
    items = [(data.cells[c].q, data.cells[c].r,
              cell_glyph(data, c, board.get(c), tokens.get(c))) for c in reg.cells]
    return _lines(data.grid, items, HALF_STEP)


def map_positions(data: DataSet, region: str) -> dict[str, tuple[int, int]]:
    """Where each cell's number starts in ``region_map`` (line, column)."""
    reg = next(r for r in data.regions if r.id == region)
    cells = [data.cells[c] for c in reg.cells]
    top = min(c.r for c in cells)
    left = min(column(data.grid, c.q, c.r) for c in cells)
    return {c.id: (c.r - top, (column(data.grid, c.q, c.r) - left) * HALF_STEP)
            for c in cells}


def pattern_lines(grid: str, pattern: Iterable[tuple[int, int, str]] | Iterable[Any]
                  ) -> list[str]:
    """A card's pattern drawn with its colour letters, on the map's lattice (one column
    per half step, so touching letters stand 2 apart on a line or 1 apart across)."""
    return _lines(grid, [(int(p[0]), int(p[1]), str(p[2])) for p in pattern], 1)


@dataclass(frozen=True)
class _Copies:
    """Every distinct copy of a card's pattern lying inside one region, indexed by cell:
    the data alone decides them, so they are found once per (data set, card, mirror,
    region) (a hand's status is shown in every private view: issue 25)."""

    cells: tuple[tuple[tuple[str, str], ...], ...]  # per copy, its (cell, colour) pairs
    outer: tuple[int, ...]  # per copy, how many of its cells are outer cells
    by_cell: dict[str, tuple[tuple[int, str], ...]]  # cell -> (copy, colour wanted there)


_COPIES: dict[tuple[str, str, bool, str], _Copies] = {}


def _copies(data: DataSet, card: str, mirror: bool, region: str) -> _Copies:
    key = (data.name, card, mirror, region)
    found = _COPIES.get(key)
    if found is not None:
        return found
    reg = next(r for r in data.regions if r.id == region)
    copies: list[tuple[tuple[str, str], ...]] = []
    seen: set[frozenset[tuple[str, str]]] = set()
    for shape in orientations(data.name, card, mirror):
        for anchor in reg.cells:
            a = data.cells[anchor]
            cells: list[tuple[str, str]] = []
            for dq, dr, colour in shape:
                target = data.by_coord.get((a.q + dq, a.r + dr))
                if target is None or data.cells[target].region != region:
                    break
                cells.append((target, colour))
            else:
                fixed = frozenset(cells)
                if fixed not in seen:
                    seen.add(fixed)
                    copies.append(tuple(cells))
    by_cell: dict[str, list[tuple[int, str]]] = {}
    for n, copy in enumerate(copies):
        for cell, colour in copy:
            by_cell.setdefault(cell, []).append((n, colour))
    found = _Copies(tuple(copies),
                    tuple(sum(data.cells[c].kind == "outer" for c, _ in copy)
                          for copy in copies),
                    {cell: tuple(wanted) for cell, wanted in by_cell.items()})
    _COPIES[key] = found
    return found


def _closest(data: DataSet, board: Mapping[str, str], card: str, mirror: bool, region: str
             ) -> tuple[bool, bool, tuple[tuple[str, str], ...] | None]:
    """Over every copy of the card's pattern in the region that fits the board (free
    cells, or elements of the right colours): whether any fits, whether one stands whole,
    and the first copy needing the fewest elements, inner cells first (an outer cell
    needs New Building Permits), as its (cell, colour) pairs."""
    index = _copies(data, card, mirror, region)
    count = len(index.cells)
    dead = bytearray(count)
    have = [0] * count
    outer_have = [0] * count
    for cell, wanted in index.by_cell.items():
        placed = board.get(cell)
        if placed is None:
            continue
        outer = data.cells[cell].kind == "outer"
        for n, colour in wanted:
            if colour != placed:
                dead[n] = 1
            else:
                have[n] += 1
                outer_have[n] += outer
    fits = complete = False
    best = -1
    best_key = (0, 0)
    for n in range(count):
        if dead[n]:
            continue
        fits = True
        need = len(index.cells[n]) - have[n]
        if not need:
            complete = True
        elif best < 0 or (need, index.outer[n] - outer_have[n]) < best_key:
            best, best_key = n, (need, index.outer[n] - outer_have[n])
    return fits, complete, index.cells[best] if best >= 0 else None


def card_status(data: DataSet, board: Mapping[str, str], last_types: Mapping[str, str | None],
                card: str, mirror: bool) -> dict[str, Any]:
    """Why a project of the hand is not built yet, as data for the templates.

    ``closest`` is the copy needing the fewest elements in a region whose last project is
    of another type (the diversity rule), as ``{"region", "have", "size", "missing":
    [[cell, colour, outer], ...]}``; ``blocked`` lists the regions the diversity rule
    closes to this card; ``complete`` the open regions where a whole copy already stands
    (it cannot be built from it: the player must place the last element); ``fits`` is
    false when no copy fits anywhere on the free cells.
    """
    ptype = data.cards[card].type
    size = len(data.cards[card].pattern)
    blocked = [r.id for r in data.regions if last_types.get(r.id) == ptype]
    closest: dict[str, Any] | None = None
    complete: list[str] = []
    fits = False
    for reg in data.regions:
        any_fits, whole, copy = _closest(data, board, card, mirror, reg.id)
        fits = fits or any_fits
        if reg.id in blocked:
            continue
        if whole:
            complete.append(reg.id)
        if copy is None:
            continue
        best = [(c, colour) for c, colour in copy if c not in board]
        if closest is None or len(best) < len(closest["missing"]):
            closest = {"region": reg.id, "have": size - len(best), "size": size,
                       "missing": [[c, colour, data.cells[c].kind == "outer"]
                                   for c, colour in sorted(best)]}
    return {"closest": closest, "blocked": blocked, "complete": complete, "fits": fits}
