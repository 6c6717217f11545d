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

from engine.neotopia.data import DataSet, derived_from
from engine.neotopia.patterns import shapes

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
    key = (region, len(elements), *[item for pair in elements for item in pair], *marked)
    lines = derived.maps.get(key)
    if lines is not None:
        derived.maps.move_to_end(key)
    else:
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
    outer: tuple[int, ...]  # per copy, its outer cells
    # Per cell of the region: colour placed there -> the copies that cover the cell and
    # want another colour on it (a copy that meets one of them no longer fits), and
    # colour -> the copies that want that colour there.
    wrong: tuple[dict[str, int], ...]
    want: tuple[dict[str, int], ...]
    cover: tuple[int, ...]  # per cell: the copies that cover it
    every: int  # all the copies
    size: int  # the cells of the pattern
    width: int  # the copies: the width of a field of ``_counts``
    fields: int  # bit 0 of every field of ``_counts``
    levels: int  # bit 0 of every level's field
    partial: int  # the fields of levels 1 to size - 1, moved down to bit 0
    outer_cover: tuple[tuple[int, int], ...]  # per outer cell: its bit, the copies covering it
    by_outer: tuple[int, ...]  # the copies with no outer cell, one, two...


# A region's elements as the statuses read them: (colour, cells of that colour as bits of
# the region's cells), by colour. Equal for equal elements, whatever else the board holds.
RegionBoard = tuple[tuple[str, int], ...]
# What a region's elements make of a card's copies there, as one int (``_found``):
# whether a copy fits (bit 0), whether one stands whole (bit 1), the closest copy's number
# plus one (0: none; bits 2-33), how many elements it lacks (bits 34 and up).
# And how far each copy is, as one int (``_counts``): the copies still fitting (no element
# of another colour on their cells), then those by how many of their cells hold their
# colour (level k: k cells; only copies still fitting), each a field as wide as the copies
# are many (bit n of a field: copy n), so that an element is counted in a few operations
# on the whole int (``_add``).
# Plain ints in dicts of strings: the garbage collector never tracks them (where a tuple
# is tracked, nested ones until older, rarer collections that then take milliseconds).

# A region's elements as kept: its cells holding an element (bits), the element placed
# there last (its bit and colour), what was found of each card there and how far its
# copies are (card -> int), and the same for the region less that element (None: not
# kept). A board only grows, so a card's copies there are counted from that one by one
# element instead of from every element, whichever table asks (the service views many
# tables in turn; a state read back from JSON has the same elements).
_Node = tuple[int, int, str, dict[str, int], dict[str, int], dict[str, int] | None,
              dict[str, int] | None]


class _Derived:
    """What the text view derives from one data set and keeps: each cell's region and bit,
    the copies of each card's pattern per region, each region's elements lately seen and
    the cards' progress there, and the maps lately drawn (a table's views follow each other
    with few cells changed; bounded, the least recently used dropped first).

    The keys kept are flat tuples of strings and numbers, the values tuples of strings or
    dicts of numbers: the garbage collector stops tracking them the first time it sees
    them. Nested tuples it tracks until later, older collections, which then come more
    often and take milliseconds; a bigger dict takes longer to grow again after the
    entries dropped (1.3 ms at 16,384 entries)."""

    # Regions' elements (each with some fifty cards, in the hands of the table that asks:
    # some 10 KB, 10 MB for all) and maps: a table in play asks about its three regions
    # and, after a placement, the one it changed as it was before.
    REGIONS = 1024
    KEPT = 1024

    def __init__(self, data: DataSet) -> None:
        self.data = data
        self.bit: dict[str, tuple[str, int]] = {
            c: (r.id, 1 << i) for r in data.regions for i, c in enumerate(r.cells)}
        self.outer = frozenset(c for c, cell in data.cells.items() if cell.kind == "outer")
        self.copies: dict[tuple[str, bool, str], _Copies] = {}
        # One (cell, colour) pair shared by every copy holding it: a data set has a few
        # hundred, its copies a hundred thousand.
        self.pairs: dict[tuple[str, str], tuple[str, str]] = {}
        # (mirror, region, colour, cells, colour, cells...) -> the region as kept.
        self.regions: OrderedDict[tuple[str | int, ...], _Node] = OrderedDict()
        # (region, count of the elements' items, the elements' items, cells with a token)
        self.maps: OrderedDict[tuple[str | int, ...], tuple[str, ...]] = OrderedDict()


# Axial coordinates as one int, q * _ROW + r: boards span far less than _ROW / 2 cells.
_ROW = 1 << 16

_derived = derived_from(_Derived)


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
    # origin, are its orientation (``shapes`` keeps one of each), and one orientation at
    # two anchors covers two different sets of cells.
    for shape in shapes(data, card, mirror):
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
    outer_cells = [i for i, c in enumerate(reg.cells) if data.cells[c].kind == "outer"]
    outer = sum(1 << i for i in outer_cells)
    colours = set(data.colour_ids).union(*want)
    size, width = len(data.cards[card].pattern), len(copies)
    by_outer = [0] * (size + 1)
    for n, mask in enumerate(masks):
        by_outer[(mask & outer).bit_count()] |= 1 << n
    return _Copies(
        cells=tuple(copies), outer=tuple(m & outer for m in masks),
        wrong=tuple({colour: cover[i] & ~want[i].get(colour, 0) for colour in colours}
                    for i in range(len(reg.cells))),
        want=tuple(want), cover=tuple(cover), every=(1 << len(copies)) - 1,
        size=size, width=width, fields=sum(1 << width * f for f in range(size + 2)),
        levels=sum(1 << width * f for f in range(1, size + 2)),
        partial=(1 << width * (size - 1)) - 1,
        outer_cover=tuple((1 << i, cover[i]) for i in outer_cells if cover[i]),
        by_outer=tuple(by_outer))


def _flat(mirror: bool, region: str, elements: RegionBoard) -> tuple[str | int, ...]:
    return (mirror, region, *[item for pair in elements for item in pair])


def _region(derived: _Derived, board: Mapping[str, str], region: str,
            elements: RegionBoard, mirror: bool) -> _Node:
    """The region's elements as kept (made on first sight)."""
    key = _flat(mirror, region, elements)
    regions = derived.regions
    found = regions.get(key)
    if found is not None:
        regions.move_to_end(key)
        return found
    occupied = 0
    for _, cells in elements:
        occupied |= cells
    b, colour = 0, ""
    before = None
    if occupied and isinstance(board, dict):
        # The region's element placed last (a board keeps the order elements came in,
        # through JSON too), taken away: the region as it was before that placement.
        bit = derived.bit
        for cell in reversed(board):
            where = bit.get(cell)
            if where is not None and where[0] == region:
                b, colour = where[1], board[cell]
                if dict(elements).get(colour, 0) & b:
                    before = regions.get(_flat(mirror, region, tuple(
                        (c, m & ~b) for c, m in elements if m & ~b)))
                break
    found = regions[key] = (occupied, b, colour, {}, {},
                            None if before is None else before[3],
                            None if before is None else before[4])
    if len(regions) > derived.REGIONS:
        regions.popitem(last=False)
    return found


def _progress(derived: _Derived, node: _Node, elements: RegionBoard, region: str,
              card: str, mirror: bool) -> int:
    """What the region's elements make of the card's copies there (``_found``), not yet
    kept: counted from the region less its last element when that was asked about the
    card, else from every element."""
    index = derived.copies.get((card, mirror, region)) or _copies(derived.data, card,
                                                                  mirror, region)
    occupied, b, colour = node[0], node[1], node[2]
    last = node[6].get(card) if node[6] is not None else None
    if last is not None:
        i = b.bit_length() - 1
        if not index.cover[i] & last:
            # No copy still fitting covers the cell: nothing changes.
            assert node[5] is not None
            found, counts = node[5][card], last
        else:
            counts = _add(index, last, i, colour)
            found = _found(index, counts, occupied)
    else:
        # Every copy ruled out by an element first, then the others counted up.
        wrong, cover = index.wrong, index.cover
        alive = index.every
        cells = []
        for colour, held in elements:
            while held:
                low = held & -held
                held ^= low
                i = low.bit_length() - 1
                # A colour no copy wants (none of the data set's) rules out every copy.
                alive &= ~wrong[i].get(colour, cover[i])
                cells.append((i, colour))
        counts = alive | alive << index.width
        want = index.want
        for i, colour in cells:
            if want[i].get(colour, 0) & alive:
                counts = _add(index, counts, i, colour)
        found = _found(index, counts, occupied)
    node[3][card] = found
    node[4][card] = counts
    return found


def _add(index: _Copies, counts: int, i: int, colour: str) -> int:
    """``counts`` (``_counts``) with an element of ``colour`` on cell ``i``: the copies it
    rules out dropped from every field, those wanting it there one level up (each copy
    stands at one level: the fields of those wanting it move up one field at once)."""
    killed = index.wrong[i].get(colour, index.cover[i]) & counts
    if killed:
        counts &= ~(killed * index.fields)
    moved = counts & (index.want[i].get(colour, 0) & counts) * index.levels
    return counts ^ moved | moved << index.width


def _found(index: _Copies, counts: int, occupied: int) -> int:
    """Over every copy that fits (free cells, or elements of the right colours): whether
    any fits, whether one stands whole, and the first copy needing the fewest elements,
    inner cells first (an outer cell needs New Building Permits), with that number."""
    every, width, size = index.every, index.width, index.size
    if not counts & every:
        return 0
    whole = 2 if counts >> width * (size + 1) else 0
    # The copies holding an element but not whole (levels 1 to size - 1): the highest
    # level holding one is the highest bit's field.
    partial = counts >> 2 * width & index.partial
    if partial:
        field = (partial.bit_length() - 1) // width
        need = size - 1 - field
        near = partial >> width * field & every
        if near & (near - 1):
            # More than one: the first needing the fewest outer cells still free.
            needing = 0
            for b, covering in index.outer_cover:
                if not occupied & b:
                    needing |= covering
            inner = near & ~needing
            if inner:
                best = (inner & -inner).bit_length() - 1
            else:
                outer, free = index.outer, ~occupied
                counted = []
                while near:
                    low = near & -near
                    near ^= low
                    counted.append(low.bit_length() - 1)
                best = min(counted, key=lambda n: ((outer[n] & free).bit_count(), n))
        else:
            best = near.bit_length() - 1
        return 1 | whole | (best + 1) << 2 | need << 34
    # None holding an element needs some: the first copy holding none with the fewest
    # outer cells.
    far = counts >> width & every
    for group in index.by_outer:
        if far & group:
            best = ((far & group) & -(far & group)).bit_length() - 1
            return 1 | whole | (best + 1) << 2 | size << 34
    return 1 | whole


def card_statuses(data: DataSet, board: Mapping[str, str],
                  last_types: Mapping[str, str | None], cards: Iterable[str], mirror: bool,
                  regions: Mapping[str, RegionBoard] | None = None
                  ) -> list[dict[str, Any]]:
    """``card_status`` of each card (a hand), each region's elements looked up once."""
    derived = _derived(data)
    if regions is None:
        regions = region_boards(data, board)
    seen = []
    for reg in data.regions:
        elements = regions[reg.id]
        seen.append((reg.id, _region(derived, board, reg.id, elements, mirror), elements))
    # The regions the diversity rule closes, by the type of their last project.
    closed: dict[str, list[str]] = {}
    for reg in data.regions:
        last = last_types.get(reg.id)
        if last is not None:
            closed.setdefault(last, []).append(reg.id)
    out = []
    for card in cards:
        pattern = data.cards[card]
        ptype, size = pattern.type, len(pattern.pattern)
        blocked = list(closed.get(ptype, ()))
        complete: list[str] = []
        fits = False
        chosen: tuple[str, int, int, int] | None = None  # region, occupied, copy, need
        for region, node, elements in seen:
            found = node[3].get(card)
            if found is None:
                found = _progress(derived, node, elements, region, card, mirror)
            fits = fits or bool(found & 1)
            if region in blocked:
                continue
            if found & 2:
                complete.append(region)
            best = (found >> 2 & 0xFFFFFFFF) - 1
            need = found >> 34
            if best >= 0 and (chosen is None or need < chosen[3]):
                chosen = (region, node[0], best, need)
        closest: dict[str, Any] | None = None
        if chosen is not None:
            region, occupied, best, need = chosen
            bit, outer = derived.bit, derived.outer
            copy = derived.copies[(card, mirror, region)].cells[best]
            closest = {"region": region, "have": size - need, "size": size,
                       "missing": [[c, colour, c in outer] for c, colour in sorted(copy)
                                   if not bit[c][1] & occupied]}
        out.append({"closest": closest, "blocked": blocked, "complete": complete,
                    "fits": fits})
    return out


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
    return card_statuses(data, board, last_types, [card], mirror, regions)[0]
