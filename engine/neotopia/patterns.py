"""Project patterns on the board: rotations, and matches that contain a given element.

A pattern is a list of ``(dq, dr, colour)``; it may be turned (6 ways on the hex grid)
but not mirrored unless the ``mirror`` option is on (RULINGS N7). It must lie wholly in
one region (cells of different regions are never adjacent) and may use any cell there,
outer cells included. Extra elements around it do not matter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.neotopia.data import DataSet, dataset, rotations

# One orientation of a pattern, normalised to start at (0, 0): its cells' (dq, dr, colour).
Shape = tuple[tuple[int, int, str], ...]
# One orientation of a pattern, relative to one of its cells: the other cells'
# (dq, dr, colour).
Anchored = tuple[tuple[int, int, str], ...]
Pattern = tuple[tuple[int, int, str], ...]

# Kept by what decides them, the grid, the option and the pattern itself, not by the data
# set's name and the card's id: a data set edited and loaded again under the same name
# gets its own (a few hundred entries for a data set, at most).
_SHAPES: dict[tuple[str, bool, Pattern], tuple[Shape, ...]] = {}
_ANCHORED: dict[tuple[str, bool, Pattern, str], tuple[Anchored, ...]] = {}


def shapes(data: DataSet, card_id: str, mirror: bool) -> tuple[Shape, ...]:
    """Every distinct orientation of the card's pattern, normalised to start at (0, 0)."""
    pattern = data.cards[card_id].pattern
    key = (data.grid, mirror, pattern)
    found = _SHAPES.get(key)
    if found is None:
        found = _SHAPES[key] = _shapes(data.grid, pattern, mirror)
    return found


def _shapes(grid: str, pattern: Pattern, mirror: bool) -> tuple[Shape, ...]:
    out: list[Shape] = []
    seen: set[frozenset[tuple[int, int, str]]] = set()
    for f in rotations(grid, mirror):
        cells = [(*f((p[0], p[1])), p[2]) for p in pattern]
        q0, r0 = cells[0][0], cells[0][1]
        shape = tuple((q - q0, r - r0, c) for q, r, c in cells)
        mq, mr = min(c[0] for c in cells), min(c[1] for c in cells)
        key = frozenset((q - mq, r - mr, c) for q, r, c in cells)
        if key not in seen:
            seen.add(key)
            out.append(shape)
    return tuple(out)


def orientations(name: str, card_id: str, mirror: bool) -> tuple[Shape, ...]:
    """``shapes`` of the data set a table names (as last loaded)."""
    return shapes(dataset(name), card_id, mirror)


def anchored(data: DataSet, card_id: str, colour: str, mirror: bool
             ) -> tuple[Anchored, ...]:
    """The orientations seen from a cell of ``colour``: the other cells, relative to it."""
    pattern = data.cards[card_id].pattern
    key = (data.grid, mirror, pattern, colour)
    found = _ANCHORED.get(key)
    if found is None:
        out: list[Anchored] = []
        for shape in shapes(data, card_id, mirror):
            for q0, r0, c0 in shape:
                if c0 != colour:
                    continue
                out.append(tuple((q - q0, r - r0, c) for q, r, c in shape
                                 if (q, r) != (q0, r0)))
        found = _ANCHORED[key] = tuple(dict.fromkeys(out))
    return found


def matches_at(data: DataSet, board: Mapping[str, str], cell: str, card_id: str,
               mirror: bool) -> bool:
    """Does the element on ``cell`` belong to a whole copy of the card's pattern?"""
    colour = board.get(cell)
    if colour is None:
        return False
    here = data.cells[cell]
    for others in anchored(data, card_id, colour, mirror):
        for dq, dr, c in others:
            target = data.by_coord.get((here.q + dq, here.r + dr))
            if target is None or board.get(target) != c or \
                    data.cells[target].region != here.region:
                break
        else:
            return True
    return False


def completed(data: DataSet, board: Mapping[str, str], cell: str, cards: Iterable[str],
              mirror: bool) -> list[str]:
    """The cards among ``cards`` whose pattern the element on ``cell`` completes."""
    return [c for c in cards if matches_at(data, board, cell, c, mirror)]


def opportunities(data: DataSet, board: Mapping[str, str], cards: Iterable[str],
                  mirror: bool) -> dict[tuple[str, str], list[str]]:
    """For the AI: ``(free cell, colour)`` -> cards one such element would complete."""
    out: dict[tuple[str, str], list[str]] = {}
    for card in dict.fromkeys(cards):
        for shape in shapes(data, card, mirror):
            for region in data.regions:
                for anchor in region.cells:
                    a = data.cells[anchor]
                    missing: tuple[str, str] | None = None
                    for dq, dr, colour in shape:
                        target = data.by_coord.get((a.q + dq, a.r + dr))
                        if target is None or data.cells[target].region != region.id:
                            break
                        have = board.get(target)
                        if have == colour:
                            continue
                        if have is not None or missing is not None:
                            break
                        missing = (target, colour)
                    else:
                        if missing is not None:
                            found = out.setdefault(missing, [])
                            if card not in found:
                                found.append(card)
    return out


def progress(data: DataSet, board: Mapping[str, str], cards: Iterable[str], mirror: bool
             ) -> dict[tuple[str, str], int]:
    """For the AI: ``(free cell, colour)`` -> how many copies of a hand pattern, two
    elements short, that element would bring to one element short."""
    out: dict[tuple[str, str], int] = {}
    for card in dict.fromkeys(cards):
        for shape in shapes(data, card, mirror):
            for region in data.regions:
                for anchor in region.cells:
                    a = data.cells[anchor]
                    missing: list[tuple[str, str]] = []
                    for dq, dr, colour in shape:
                        target = data.by_coord.get((a.q + dq, a.r + dr))
                        if target is None or data.cells[target].region != region.id:
                            break
                        have = board.get(target)
                        if have == colour:
                            continue
                        if have is not None or len(missing) == 2 or \
                                data.cells[target].kind == "outer":
                            break
                        missing.append((target, colour))
                    else:
                        if len(missing) == 2:
                            for key in missing:
                                out[key] = out.get(key, 0) + 1
    return out
