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

from bisect import bisect_left, bisect_right
from collections.abc import Collection, Iterable, Mapping, Sequence
from itertools import islice
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


def city_walk(city: Collection[Cell]) -> tuple[tuple[Cell, ...], dict[Cell, list[int]]]:
    """``outline(city)`` and its ``occurrences``, shared, not to be changed.

    The token's options and its move ask about the same city one after the other, and a
    search about the cities of its few simulations: the last cities are recognised by
    their cells in the order the board lists them, found by their number and last cell.
    The cells of one board (and of its copies) are the same objects, so the comparison
    is cheap: no set to build and hash, as ``outline`` does."""
    key = tuple(city)
    probe = (len(key), key[-1] if key else None)
    known = _walks.get(probe)
    if known is not None:
        for cells, walk, occ in known:
            if cells == key:
                return walk, occ
    else:
        if len(_walks) >= _CACHE_SIZE:
            _walks.clear()
        known = _walks[probe] = []
    walk = tuple(_outline(city))
    occ = occurrences(walk)
    if len(known) >= _BUCKET_SIZE:
        del known[0]
    known.append((key, walk, occ))
    return walk, occ


_BUCKET_SIZE = 8
_walks: dict[
    tuple[int, Cell | None],
    list[tuple[tuple[Cell, ...], tuple[Cell, ...], dict[Cell, list[int]]]],
] = {}


def _outline(cells: Collection[Cell]) -> list[Cell]:
    if not cells:
        return []
    # Trace the boundary from vertex to vertex, the city on the right hand. Arriving at a
    # vertex, the cell behind on the right is city and the one behind on the left is not,
    # so two cells decide: ahead on the left in the city, turn left (also where the city
    # touches itself at a corner, as ruling G2 wants); else ahead on the right in the city,
    # go straight; else turn right. The empty cell on the left of the edge taken is the one
    # behind on the left, ahead on the left, or ahead on the right, respectively.
    # Directions: 0 north, 1 east, 2 south, 3 west.
    x, y = min(cells, key=lambda c: (c[1], c[0]))
    # The top row's leftmost cell: its top edge, heading east, starts the walk (nothing
    # above it or to its left is city, so nothing else leaves that vertex).
    walk: list[Cell] = [(x, y - 1)]
    last = walk[0]
    direction, vx, vy = 1, x + 1, y
    left, right, step = _LEFT, _RIGHT, _STEP
    while True:
        lx, ly = left[direction]
        ahead_left = (vx + lx, vy + ly)
        if ahead_left in cells:
            direction = (direction + 3) & 3
            lx, ly = left[direction]
            empty = (vx + lx, vy + ly)
        else:
            rx, ry = right[direction]
            ahead_right = (vx + rx, vy + ry)
            if ahead_right in cells:
                empty = ahead_left
            else:
                direction = (direction + 1) & 3
                empty = ahead_right
        if direction == 1 and vx == x and vy == y:
            break
        if last != empty:
            walk.append(empty)
            last = empty
        sx, sy = step[direction]
        vx += sx
        vy += sy
    if len(walk) > 1 and walk[0] == walk[-1]:
        walk.pop()
    return walk


# Per direction (north, east, south, west), from a vertex: the cell ahead on the left, the
# cell ahead on the right, and the step to the next vertex. Vertex (x, y) is the top-left
# corner of cell (x, y).
_LEFT: tuple[Cell, ...] = ((-1, -1), (0, -1), (0, 0), (-1, 0))
_RIGHT: tuple[Cell, ...] = ((0, -1), (0, 0), (-1, 0), (-1, -1))
_STEP: tuple[Cell, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))


def occurrences(walk: Sequence[Cell]) -> dict[Cell, list[int]]:
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
    walk: Sequence[Cell], tokens: Mapping[str, Cell], occ: dict[Cell, list[int]] | None = None
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
    walk: Sequence[Cell], tokens: Mapping[str, Cell], fixed: str, blocked: Iterable[Cell] = ()
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
    walk: Sequence[Cell], tokens: Mapping[str, Cell], fixed: str, blocked_set: frozenset[Cell]
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
        # No mask keeping more tokens than ``_most_kept`` passes ``_fits`` (nor, when
        # only the order is known, more than the longest run already in order passes
        # ``_crossing``): the search starts at the level where the first success may be,
        # and tries the masks in the same order as before from there.
        if room is not None:
            most = _most_kept(*room)
            if most < 0:
                continue
            first = _LEVEL_START[most]
        else:
            first = 0 if conflicts is None else _LEVEL_START[_kept_at_most(seq, rel)]
        for mask in islice(_MASKS, first, None):
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


def _kept_at_most(seq: list[str], rel: dict[str, list[int]]) -> int:
    """The most tokens that can stay, when each stands on a cell met once on the walk
    (as ``_conflicts`` requires): the longest strictly increasing run of their indices,
    read in ``seq`` order (a kept set without a crossing pair is exactly such a run)."""
    tails: list[int] = []
    for letter in seq:
        at = rel[letter][0]
        k = bisect_left(tails, at)
        if k == len(tails):
            tails.append(at)
        else:
            tails[k] = at
    return len(tails)


def _most_kept(spots: list[int], free: list[int]) -> int:
    """The largest number of bits of a mask that passes ``_fits(mask, spots, free)``, or
    -1 when none does: the best chain of kept tokens, each after the previous one with
    room in the gap for the tokens moved into it, and room after the last one."""
    n = len(spots)
    size = len(free) - 1
    # best[i + 1]: the most tokens kept up to and including token i (kept), -1 if no
    # such chain; best[0] is the fixed token at index 0, a chain of none.
    best = [0] + [-1] * n
    where = [0, *spots]
    for i in range(n):
        at = spots[i]
        top = -1
        for j in range(i + 1):  # j - 1 is the previous kept token (-1: the fixed one)
            got = best[j]
            prev = where[j]
            if got > top and at > prev and free[at - 1] - free[prev] >= i - j:
                top = got
        best[i + 1] = top + 1 if top >= 0 else -1
    most = -1
    for j in range(n + 1):
        if best[j] > most and free[size - 1] - free[where[j]] >= n - j:
            most = best[j]
    return most


def _room(
    walk: Sequence[Cell],
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
# Where the masks keeping k tokens begin in _MASKS, for k = 0..11.
_LEVEL_START: tuple[int, ...] = tuple(
    next(i for i, m in enumerate(_MASKS) if bin(m).count("1") <= k)
    for k in range(len(LETTERS))
)


def _place(
    walk: Sequence[Cell],
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
