"""The city's outline and the cyclic order of the urbanization tokens (ruling G2).

The outline is walked along the outer boundary of the city, clockwise on screen
(x grows to the right, y grows downward), keeping the city on the right hand. Each
unit edge of the boundary faces one empty cell; the outline is the sequence of those
cells with consecutive repeats folded. A cell at a narrow passage may appear more
than once, which is why positions are indices into the walk, not cells.

Where two city cells touch only at a corner, the walk turns left at that corner, so
that it follows one 4-connected empty region (tokens move orthogonally) instead of
jumping into a hole. Cells enclosed by the city (holes) are not on the outline.

The 12 tokens A..L must stand on distinct outline cells whose walk indices, read
from A, are increasing: the letters appear clockwise in cyclic order. When a move
breaks that, ``restore`` keeps as many tokens as possible where they stand and moves
the fewest others to the first free outline cells in their gaps; the search order is
fixed, so the result is deterministic.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping
from typing import Any

from engine.ginkgopolis.cards import LETTERS

Cell = tuple[int, int]

# Clockwise on screen: north, east, south, west.
_DIRS: tuple[Cell, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))


def neighbours(cell: Cell) -> list[Cell]:
    x, y = cell
    return [(x + dx, y + dy) for dx, dy in _DIRS]


# The rules ask for the same outline and the same restoration more than once in a row
# (the token's options, then its move): both are pure, so the last few are remembered.
_CACHE_SIZE = 64
_outlines: dict[frozenset[Cell], tuple[Cell, ...]] = {}
_restored: dict[tuple[Any, ...], dict[str, Cell] | None] = {}


def outline(city: Iterable[Cell]) -> list[Cell]:
    key = frozenset(city)
    walk = _outlines.get(key)
    if walk is None:
        if len(_outlines) >= _CACHE_SIZE:
            _outlines.clear()
        walk = _outlines[key] = tuple(_outline(key))
    return list(walk)


def _outline(cells: frozenset[Cell]) -> list[Cell]:
    if not cells:
        return []
    # Trace the boundary from vertex to vertex, reading only the four cells around each:
    # a boundary edge leaves a vertex where the cell on its right is city and the cell on
    # its left is not (east: south-east in, north-east out; south: south-west in,
    # south-east out; west: north-west in, south-west out; north: north-east in,
    # north-west out). Only where the city touches itself at a corner do two edges
    # leave; the walk then turns left. Directions: 0 north, 1 east, 2 south, 3 west.
    x, y = min(cells, key=lambda c: (c[1], c[0]))
    # The top row's leftmost cell: its top edge, heading east, starts the walk (nothing
    # above it or to its left is city, so nothing else leaves that vertex).
    walk: list[Cell] = [(x, y - 1)]
    direction, vx, vy = 1, x + 1, y
    while True:
        nw = (vx - 1, vy - 1) in cells
        ne = (vx, vy - 1) in cells
        sw = (vx - 1, vy) in cells
        se = (vx, vy) in cells
        if (se and nw and not ne and not sw) or (ne and sw and not nw and not se):
            direction = (direction + 3) % 4
        elif se and not ne:
            direction = 1
        elif sw and not se:
            direction = 2
        elif nw and not sw:
            direction = 3
        else:
            direction = 0
        if direction == 1 and vx == x and vy == y:
            break
        if direction == 1:
            empty = (vx, vy - 1)
            vx += 1
        elif direction == 2:
            empty = (vx, vy)
            vy += 1
        elif direction == 3:
            empty = (vx - 1, vy)
            vx -= 1
        else:
            empty = (vx - 1, vy - 1)
            vy -= 1
        if walk[-1] != empty:
            walk.append(empty)
    if len(walk) > 1 and walk[0] == walk[-1]:
        walk.pop()
    return walk


def occurrences(walk: list[Cell]) -> dict[Cell, list[int]]:
    """Where each cell of the walk stands on it (a cell at a narrow passage, more than once)."""
    occ: dict[Cell, list[int]] = {}
    for i, cell in enumerate(walk):
        at = occ.get(cell)
        if at is None:
            occ[cell] = [i]
        else:
            at.append(i)
    return occ



def rotated_letters(first: str) -> list[str]:
    i = LETTERS.index(first)
    return [LETTERS[(i + k) % 12] for k in range(12)]


def order_ok(
    walk: list[Cell], tokens: Mapping[str, Cell], occ: dict[Cell, list[int]] | None = None
) -> bool:
    """True if every token is on the outline, on distinct cells, in clockwise A..L order."""
    if len(set(tokens.values())) != len(tokens):
        return False
    if occ is None:
        occ = occurrences(walk)
    if any(cell not in occ for cell in tokens.values()):
        return False
    size = len(walk)
    if len(occ) == size:
        # Each cell met once (the common case): one index per token, read from A.
        start = occ[tokens["A"]][0]
        prev = 0
        for letter in LETTERS[1:]:
            at = (occ[tokens[letter]][0] - start) % size
            if at <= prev:
                return False
            prev = at
        return True
    for start in occ[tokens["A"]]:
        prev = 0
        for letter in LETTERS[1:]:
            nxt = [(i - start) % size for i in occ[tokens[letter]] if (i - start) % size > prev]
            if not nxt:
                break
            prev = min(nxt)
        else:
            return True
    return False


def restore(
    walk: list[Cell], tokens: Mapping[str, Cell], fixed: str, blocked: Iterable[Cell] = ()
) -> dict[str, Cell] | None:
    """Token positions in cyclic order, moving the fewest tokens other than ``fixed``.

    ``blocked`` are cells no token may take (the city). Returns None if no placement
    exists with ``fixed`` where it stands.
    """
    key = (tuple(walk), tuple(sorted(tokens.items())), fixed, frozenset(blocked))
    if key in _restored:
        found = _restored[key]
        return None if found is None else dict(found)
    if len(_restored) >= _CACHE_SIZE:
        _restored.clear()
    placed = _restore(walk, tokens, fixed, key[3])
    _restored[key] = None if placed is None else dict(placed)
    return placed


def _restore(
    walk: list[Cell], tokens: Mapping[str, Cell], fixed: str, blocked_set: frozenset[Cell]
) -> dict[str, Cell] | None:
    occ = occurrences(walk)
    if order_ok(walk, tokens, occ):
        return dict(tokens)
    fixed_cell = tokens[fixed]
    if fixed_cell not in occ:
        return None
    size = len(walk)
    seq = rotated_letters(fixed)[1:]
    simple = len(occ) == size and not any(
        cell in blocked_set for letter, cell in tokens.items() if letter != fixed
    )
    for origin in occ[fixed_cell]:
        # Each token's walk indices counted from the fixed one, computed once per origin
        # rather than once per subset tried.
        rel = {
            letter: sorted((i - origin) % size for i in occ[tokens[letter]])
            for letter in seq
            if tokens[letter] in occ
        }
        conflicts = _conflicts(seq, rel)
        room = _room(walk, size, origin, seq, rel, blocked_set) if simple else None
        for mask in _MASKS:
            if conflicts is not None and _crossing(mask, conflicts):
                continue
            if room is not None and not _fits(mask, *room):
                continue
            placed = _place(walk, size, origin, rel, tokens, fixed, seq, mask, blocked_set)
            if placed is not None:
                return placed
    return None


def _conflicts(seq: list[str], rel: dict[str, list[int]]) -> list[int] | None:
    """For tokens that each stand on a cell met once on the walk (the common case): the
    pairs (as two-bit masks over ``seq``) of a token and a later one standing at or before
    it, which cannot both stay. None when some token's cell is met twice or is off the
    walk; then every subset goes through ``_place``, which handles those cases."""
    spots = []
    for letter in seq:
        at = rel.get(letter)
        if at is None or len(at) != 1:
            return None
        spots.append(at[0])
    n = len(seq)
    return [
        (1 << i) | (1 << j) for i in range(n) for j in range(i + 1, n) if spots[j] <= spots[i]
    ]


def _room(
    walk: list[Cell],
    size: int,
    origin: int,
    seq: list[str],
    rel: dict[str, list[int]],
    blocked: frozenset[Cell],
) -> tuple[list[int], list[int]] | None:
    """Each token's index from the fixed one, and how many cells a token may take up to
    each index (prefix counts of cells off the city), when every cell is met once.

    Then ``_place`` succeeds exactly when the kept tokens are in order and every gap
    between two kept ones has as many free cells as tokens to move into it (``_fits``):
    the only cells taken in a gap are those the moved tokens take, one each.
    """
    spots = []
    for letter in seq:
        at = rel.get(letter)
        if at is None or len(at) != 1:
            return None
        spots.append(at[0])
    free = [0] * (size + 1)
    for r in range(1, size):
        free[r] = free[r - 1] + (walk[(origin + r) % size] not in blocked)
    free[size] = free[size - 1]
    return spots, free


def _fits(mask: int, spots: list[int], free: list[int]) -> bool:
    prev, moved = 0, 0
    for i, at in enumerate(spots):
        if not mask >> i & 1:
            moved += 1
            continue
        if at <= prev or free[at - 1] - free[prev] < moved:
            return False
        prev, moved = at, 0
    return free[len(free) - 2] - free[prev] >= moved


def _crossing(mask: int, pairs: list[int]) -> bool:
    """True when ``mask`` keeps both tokens of a pair out of order (``_place`` would fail)."""
    # A plain loop: any() over a generator costs twice as much on this hot path.
    for pair in pairs:  # noqa: SIM110
        if mask & pair == pair:
            return True
    return False


# Which of the 11 other tokens stay, most kept first: the fixed order of the search.
_MASKS: tuple[int, ...] = tuple(
    sorted(range(1 << (len(LETTERS) - 1)), key=lambda m: (-bin(m).count("1"), m))
)


def _place(
    walk: list[Cell],
    size: int,
    origin: int,
    rel: dict[str, list[int]],
    tokens: Mapping[str, Cell],
    fixed: str,
    seq: list[str],
    mask: int,
    blocked: frozenset[Cell],
) -> dict[str, Cell] | None:
    # Assign the kept tokens (bit i of ``mask`` keeps seq[i]) the smallest increasing
    # indices after the fixed one.
    index: dict[str, int] = {}
    prev = 0
    for i, letter in enumerate(seq):
        if not mask >> i & 1:
            continue
        spots = rel.get(letter)
        if spots is None:
            return None
        k = bisect_right(spots, prev)
        if k == len(spots):
            return None
        prev = spots[k]
        index[letter] = prev
    used = {tokens[fixed]} | {tokens[letter] for letter in index}
    result = {fixed: tokens[fixed]} | {letter: tokens[letter] for letter in index}
    prev = 0
    for pos, letter in enumerate(seq):
        if letter in index:
            prev = index[letter]
            continue
        limit = next((index[nx] for nx in seq[pos + 1 :] if nx in index), size)
        chosen = None
        for r in range(prev + 1, limit):
            cell = walk[(origin + r) % size]
            if cell not in used and cell not in blocked:
                chosen = r
                break
        if chosen is None:
            return None
        cell = walk[(origin + chosen) % size]
        used.add(cell)
        result[letter] = cell
        prev = chosen
    return result
