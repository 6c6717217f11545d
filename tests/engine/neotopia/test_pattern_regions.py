"""A project's pattern lies wholly in one region (engine/neotopia/patterns.py; RULINGS:
cells of different regions never count together): a copy of a pattern whose cells cross a
region border completes nothing.

In the house set no two regions touch, so no pattern can even be drawn across a border
there; a data set may place regions side by side (datacheck derives neighbours within a
region only). The tests below give one cell of a straight line to another region, in a
copy of the house set, and check that the region, not the geometry, decides.
"""

from __future__ import annotations

import dataclasses

from engine.neotopia import patterns
from engine.neotopia.data import Cell, DataSet
from tests.engine.neotopia.helpers import HOUSE

LINE = "C04"  # four red elements in a straight line


def _line_in_one_region() -> list[str]:
    """Four cells in a straight line, all in one region, in the direction of C04."""
    (q0, r0, _), (q1, r1, _) = HOUSE.cards[LINE].pattern[:2]
    dq, dr = q1 - q0, r1 - r0
    for cell in HOUSE.cells.values():
        ids = [HOUSE.by_coord.get((cell.q + k * dq, cell.r + k * dr)) for k in range(4)]
        if all(i is not None and HOUSE.cells[i].region == cell.region for i in ids):
            return [i for i in ids if i is not None]
    raise AssertionError("no straight line of four cells in the house set")


def _moved_to_other_region(data: DataSet, cell_id: str) -> DataSet:
    """``data`` with ``cell_id`` belonging to another region (same coordinates)."""
    cell = data.cells[cell_id]
    other = next(r.id for r in data.regions if r.id != cell.region)
    cells = {**data.cells, cell_id: Cell(cell.id, other, cell.q, cell.r, cell.kind)}
    # Neighbours are within a region: the moved cell has none, and is nobody's.
    neighbours = {c: tuple(n for n in ns if n != cell_id) for c, ns in data.neighbours.items()}
    neighbours[cell_id] = ()
    regions = tuple(dataclasses.replace(r, cells=(*(c for c in r.cells if c != cell_id),
                                                  *((cell_id,) if r.id == other else ())))
                    for r in data.regions)
    return dataclasses.replace(data, cells=cells, neighbours=neighbours, regions=regions)


def test_the_line_completes_its_project_inside_one_region() -> None:
    line = _line_in_one_region()
    board = dict.fromkeys(line, "R")
    for cell in line:
        assert patterns.completed(HOUSE, board, cell, [LINE], False) == [LINE]


def test_a_pattern_whose_cells_cross_a_region_border_completes_no_project() -> None:
    line = _line_in_one_region()
    board = dict.fromkeys(line, "R")
    for moved in (line[0], line[-1], line[1]):
        split = _moved_to_other_region(HOUSE, moved)
        assert split.cells[moved].region != HOUSE.cells[moved].region
        for cell in line:
            assert patterns.completed(split, board, cell, [LINE], False) == [], (moved, cell)
            assert patterns.completed(split, board, cell, [LINE], True) == [], (moved, cell)


def test_the_ai_sees_no_opportunity_across_a_region_border() -> None:
    line = _line_in_one_region()
    # Three of the four in place: the fourth cell is the one opportunity of the line.
    board = dict.fromkeys(line[:3], "R")
    assert line[3] in {cell for cell, _ in patterns.opportunities(HOUSE, board, [LINE],
                                                                  False)}
    split = _moved_to_other_region(HOUSE, line[3])
    found = patterns.opportunities(split, board, [LINE], False)
    assert (line[3], "R") not in found
