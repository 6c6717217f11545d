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

from collections import OrderedDict
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
               region: str, elements: RegionBoard | None = None) -> list[str]:
    """The region's cells as printed lines: the number of each cell (its id without the
    region letter) and what is on it. ``elements``: the region's (``region_boards``),
    when the caller has them."""
    derived = _derived(data)
    if elements is None:
        elements = region_boards(data, board)[region]
    bit = derived.bit
    # A cell shows a token's mark whatever the token: which cells hold one is enough.
    marked = tuple(c for c, t in tokens.items()
                   if t is not None and bit.get(c, ("",))[0] == region)
    key = (region, elements, marked)
    lines = derived.maps.get(key)
    if lines is None:
        reg = next(r for r in data.regions if r.id == region)
        items = [(data.cells[c].q, data.cells[c].r,
                  cell_glyph(data, c, board.get(c), tokens.get(c))) for c in reg.cells]
        lines = tuple(_lines(data.grid, items, HALF_STEP))
        derived.maps[key] = lines
        if len(derived.maps) > derived.KEPT:
            derived.maps.popitem(last=False)
    return list(lines)


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
    """Every distinct copy of a card's pattern lying inside one region, as bit masks over
    the region's cells (bit ``i``: the region's ``i``-th cell) and over the copies (bit
    ``n``: copy ``n``): the data alone decides them, so they are found once per (data set,
    card, mirror, region) (a hand's status is shown in every private view: issue 25)."""

    cells: tuple[tuple[tuple[str, str], ...], ...]  # per copy, its (cell, colour) pairs
    masks: tuple[int, ...]  # per copy, its cells
    outer: tuple[int, ...]  # per copy, its outer cells
    # Per cell of the region: colour placed there -> the copies that cover the cell and
    # want another colour on it (a copy that meets one of them no longer fits).
    wrong: tuple[dict[str, int], ...]
    cover: tuple[int, ...]  # per cell: the copies that cover it
    every: int  # all the copies
    by_outer: tuple[int, ...]  # the copies by how many outer cells they have, then order


# A region's elements as the statuses read them: (colour, cells of that colour as bits of
# the region's cells), by colour. Equal for equal elements, whatever else the board holds.
RegionBoard = tuple[tuple[str, int], ...]
# What ``_closest`` finds: whether a copy fits, whether one stands whole, the best copy.
_Found = tuple[bool, bool, tuple[tuple[str, str], ...] | None]


class _Derived:
    """What the text view derives from one data set and keeps: each cell's region and bit,
    the copies of each card's pattern per region, and the statuses and maps lately
    computed for a region's elements (a table's views follow each other with few cells
    changed; bounded, the oldest dropped first: dropping them all at once took 2 ms)."""

    KEPT = 4096

    def __init__(self, data: DataSet) -> None:
        self.data = data
        self.bit: dict[str, tuple[str, int]] = {
            c: (r.id, 1 << i) for r in data.regions for i, c in enumerate(r.cells)}
        self.copies: dict[tuple[str, bool, str], _Copies] = {}
        # One (cell, colour) pair shared by every copy holding it: a data set has a few
        # hundred, its copies a hundred thousand.
        self.pairs: dict[tuple[str, str], tuple[str, str]] = {}
        self.closest: OrderedDict[tuple[str, bool, str, RegionBoard], _Found] = OrderedDict()
        # (card, mirror, region) -> the elements last asked about, the copies they rule
        # out and the copies holding one of them (bits over the copies), what was found.
        self.last: dict[tuple[str, bool, str], tuple[RegionBoard, int, int, _Found]] = {}
        self.maps: OrderedDict[tuple[str, RegionBoard, tuple[str, ...]], tuple[str, ...]] = \
            OrderedDict()


# Axial coordinates as one int, q * _ROW + r: boards span far less than _ROW / 2 cells.
_ROW = 1 << 16

# By the data set's identity (kept alive here, so its id is never another's): a data set
# edited on disk and loaded again under the same name is a new object.
_DERIVED: dict[int, _Derived] = {}


def _derived(data: DataSet) -> _Derived:
    found = _DERIVED.get(id(data))
    if found is None or found.data is not data:
        found = _DERIVED[id(data)] = _Derived(data)
    return found


def region_boards(data: DataSet, board: Mapping[str, str]) -> dict[str, RegionBoard]:
    """Each region's elements as ``card_status`` reads them (make once per view)."""
    bit = _derived(data).bit
    masks: dict[str, dict[str, int]] = {r.id: {} for r in data.regions}
    for cell, colour in board.items():
        where = bit.get(cell)
        if where is not None:
            held = masks[where[0]]
            held[colour] = held.get(colour, 0) | where[1]
    return {r: tuple(sorted(m.items())) for r, m in masks.items()}


def _copies(data: DataSet, card: str, mirror: bool, region: str) -> _Copies:
    derived = _derived(data)
    found = derived.copies.get((card, mirror, region))
    if found is None:
        # Every card's copies at once, the first time a status is asked with ``mirror``
        # (some 30 ms for the house set): a table's first views then pay nothing more.
        for other in data.cards:
            for reg in data.regions:
                if (other, mirror, reg.id) not in derived.copies:
                    derived.copies[(other, mirror, reg.id)] = _index(derived, other, mirror,
                                                                     reg.id)
        found = derived.copies[(card, mirror, region)]
    return found


def _index(derived: _Derived, card: str, mirror: bool, region: str) -> _Copies:
    data = derived.data
    reg = data.region(region)
    # Coordinates as one int (q * _ROW + r): the region's cells (not another region's),
    # and each orientation's offsets, so that a target is one sum and one lookup.
    spot = {data.cells[c].q * _ROW + data.cells[c].r: i for i, c in enumerate(reg.cells)
            if data.cells[c].region == region}
    anchors = [data.cells[c].q * _ROW + data.cells[c].r for c in reg.cells]
    names = reg.cells
    copies: list[tuple[tuple[str, str], ...]] = []
    masks: list[int] = []
    cover = [0] * len(names)
    want: list[dict[str, int]] = [{} for _ in names]
    pairs = derived.pairs
    # Distinct orientations never give the same copy twice: a copy's cells, moved to the
    # origin, are its orientation (``orientations`` keeps one of each), and one
    # orientation at two anchors covers two different sets of cells.
    for shape in orientations(data.name, card, mirror):
        offsets = [(dq * _ROW + dr, colour) for dq, dr, colour in shape]
        for anchor in anchors:
            places: list[tuple[int, str]] = []
            for offset, colour in offsets:
                i = spot.get(anchor + offset)
                if i is None:
                    break
                places.append((i, colour))
            else:
                n = 1 << len(copies)
                copies.append(tuple([pairs.setdefault((names[i], colour), (names[i], colour))
                                     for i, colour in places]))
                mask = 0
                for i, colour in places:
                    mask |= 1 << i
                    cover[i] |= n
                    wanted = want[i]
                    wanted[colour] = wanted.get(colour, 0) | n
                masks.append(mask)
    outer = sum(1 << i for i, c in enumerate(reg.cells) if data.cells[c].kind == "outer")
    colours = set(data.colour_ids).union(*want)
    return _Copies(
        cells=tuple(copies), masks=tuple(masks), outer=tuple(m & outer for m in masks),
        wrong=tuple({colour: cover[i] & ~want[i].get(colour, 0) for colour in colours}
                    for i in range(len(reg.cells))),
        cover=tuple(cover), every=(1 << len(copies)) - 1,
        by_outer=tuple(sorted(range(len(copies)),
                              key=lambda n: ((masks[n] & outer).bit_count(), n))))


def _closest(data: DataSet, card: str, mirror: bool, region: str, elements: RegionBoard
             ) -> _Found:
    """Over every copy of the card's pattern in the region that fits the board (free
    cells, or elements of the right colours): whether any fits, whether one stands whole,
    and the first copy needing the fewest elements, inner cells first (an outer cell
    needs New Building Permits), as its (cell, colour) pairs. ``elements``: the region's
    (``region_boards``)."""
    derived = _derived(data)
    key = (card, mirror, region, elements)
    found = derived.closest.get(key)
    if found is not None:
        return found
    index = _copies(data, card, mirror, region)
    wrong, cover = index.wrong, index.cover
    # The copies an element rules out, and those holding one, are those of the last
    # elements asked about plus those of the cells filled since (a board only grows);
    # from scratch when the elements are not a superset (another table's). When no copy
    # still fitting then covers a cell filled since, nothing it finds can change.
    dead = occupied = touched = reached = 0
    before: dict[str, int] = {}
    last = derived.last.get((card, mirror, region))
    if last is not None:
        held = dict(elements)
        if all(not cells & ~held.get(colour, 0) for colour, cells in last[0]):
            before = dict(last[0])
            dead, touched = last[1], last[2]
        else:
            last = None
    for colour, cells in elements:
        occupied |= cells
        added = cells & ~before.get(colour, 0)
        while added:
            low = added & -added
            added ^= low
            i = low.bit_length() - 1
            covering = cover[i]
            reached |= covering
            # A colour no copy wants (none of the data set's) rules out every copy here.
            dead |= wrong[i].get(colour, covering)
    if last is not None and not reached & ~last[1]:
        derived.last[(card, mirror, region)] = (elements, *last[1:])
        return _keep(derived, key, last[3])
    touched |= reached
    alive = index.every & ~dead
    fits = complete = False
    best = -1
    if alive:
        fits = True
        free = ~occupied
        # The copies holding an element need fewer than the others, which need the whole
        # pattern: only those are counted (bit n: copy n, lowest first).
        near = alive & touched
        if near:
            masks = index.masks
            counted = []
            while near:
                low = near & -near
                near ^= low
                counted.append(low.bit_length() - 1)
            needs = [(masks[n] & free).bit_count() for n in counted]
            complete = 0 in needs
            fewest = min((need for need in needs if need), default=0)
            if fewest:
                closest = [n for n, need in zip(counted, needs, strict=True)
                           if need == fewest]
                best = closest[0]
                if len(closest) > 1:
                    # Among them, the first needing the fewest outer cells.
                    outer = index.outer
                    best = min(closest, key=lambda n: (outer[n] & free).bit_count())
        far = alive & ~touched
        if best < 0 and far:
            # None holding an element needs some: the first untouched copy with the
            # fewest outer cells.
            best = next(n for n in index.by_outer if far >> n & 1)
    found = (fits, complete, index.cells[best] if best >= 0 else None)
    derived.last[(card, mirror, region)] = (elements, dead, touched, found)
    return _keep(derived, key, found)


def _keep(derived: _Derived, key: tuple[str, bool, str, RegionBoard], found: _Found
          ) -> _Found:
    derived.closest[key] = found
    if len(derived.closest) > derived.KEPT:
        derived.closest.popitem(last=False)
    return found


def card_status(data: DataSet, board: Mapping[str, str], last_types: Mapping[str, str | None],
                card: str, mirror: bool, regions: Mapping[str, RegionBoard] | None = None
                ) -> dict[str, Any]:
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
    if regions is None:
        regions = region_boards(data, board)
    for reg in data.regions:
        any_fits, whole, copy = _closest(data, card, mirror, reg.id, regions[reg.id])
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
