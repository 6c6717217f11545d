"""Groups (neotopia.fr.txt L570-574): adjacent elements of one colour in one region.

The final image joins each player's largest group per region, the group that scores
1 point per element; the sizes match the outcome's ``group`` detail (a test checks).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.neotopia.render.geometry import Cell, directions


def groups(cells: Iterable[Cell], elements: Mapping[str, str], grid: str = "hex"
           ) -> list[tuple[str, str, tuple[str, ...]]]:
    """Every group as (region, colour, cell ids sorted), in cell order of the view. Cells
    of different regions are never adjacent (RULINGS: counted per region)."""
    steps = directions(grid)
    cells = list(cells)
    at = {(c.region, c.q, c.r): c for c in cells}
    seen: set[str] = set()
    found: list[tuple[str, str, tuple[str, ...]]] = []
    for start in cells:
        colour = elements.get(start.id)
        if colour is None or start.id in seen:
            continue
        members, stack = [], [start]
        seen.add(start.id)
        while stack:
            cell = stack.pop()
            members.append(cell.id)
            for dq, dr in steps:
                nb = at.get((cell.region, cell.q + dq, cell.r + dr))
                if nb is not None and nb.id not in seen and elements.get(nb.id) == colour:
                    seen.add(nb.id)
                    stack.append(nb)
        found.append((start.region, colour, tuple(sorted(members))))
    return found


def largest_groups(cells: Iterable[Cell], elements: Mapping[str, str],
                   colours: Iterable[str], grid: str = "hex"
                   ) -> dict[tuple[str, str], tuple[str, ...]]:
    """For each region and each of ``colours``: its largest group (the first found among
    equals, so the drawing is stable; any of them scores the same)."""
    wanted = set(colours)
    best: dict[tuple[str, str], tuple[str, ...]] = {}
    for region, colour, members in groups(cells, elements, grid):
        if colour in wanted and len(members) > len(best.get((region, colour), ())):
            best[(region, colour)] = members
    return best
