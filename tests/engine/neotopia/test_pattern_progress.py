"""The AI's reading of patterns on the board (engine/neotopia/patterns.py): ``progress``
(a free cell and colour -> how many copies of a hand pattern, two elements short, it
brings to one short) and ``opportunities`` (one short), on copies drawn by hand; and a
cell with no element completes nothing."""

from __future__ import annotations

from engine.neotopia import patterns
from engine.neotopia.data import rotations
from tests.engine.neotopia.helpers import HOUSE

ZIGZAG = "C05"  # four red elements, not mirror-symmetric


def drawn(card: str, centre: str, turn: int = 0) -> dict[str, str]:
    """The card's pattern on the board around ``centre`` (one orientation, not mirrored)."""
    f = rotations(HOUSE.grid, False)[turn]
    c = HOUSE.cells[centre]
    out = {}
    for q, r, colour in HOUSE.cards[card].pattern:
        dq, dr = f((q, r))
        out[HOUSE.by_coord[(c.q + dq, c.r + dr)]] = colour
    return out


def one_copy() -> dict[str, str]:
    """The zigzag, whole, on normal cells of one region."""
    for centre in ("D00", "A00", "F00"):
        for turn in range(6):
            try:
                board = drawn(ZIGZAG, centre, turn)
            except KeyError:
                continue
            cells = [HOUSE.cells[c] for c in board]
            if len({c.region for c in cells}) == 1 and all(c.kind != "outer" for c in cells):
                return board
    raise AssertionError("the zigzag fits nowhere")


def test_two_elements_short_counts_both_missing_cells() -> None:
    whole = one_copy()
    cells = list(whole)
    for gone in ((cells[0], cells[1]), (cells[0], cells[3]), (cells[1], cells[2])):
        board = {c: colour for c, colour in whole.items() if c not in gone}
        found = patterns.progress(HOUSE, board, [ZIGZAG], False)
        for cell in gone:
            assert found.get((cell, whole[cell]), 0) >= 1, (gone, cell)
        # Every key is a free cell that a usual placement may take (never an outer one).
        for cell, _ in found:
            assert cell not in board and HOUSE.cells[cell].kind != "outer"


def test_one_or_three_short_is_not_progress() -> None:
    whole = one_copy()
    cells = list(whole)
    one_short = {c: colour for c, colour in whole.items() if c != cells[0]}
    three_short = {cells[0]: whole[cells[0]]}
    for board in (one_short, three_short):
        found = patterns.progress(HOUSE, board, [ZIGZAG], False)
        assert all(cell not in whole for cell, _ in found), board
    # One short is an opportunity instead: the missing cell completes it.
    assert patterns.opportunities(HOUSE, one_short, [ZIGZAG], False)[
        (cells[0], whole[cells[0]])] == [ZIGZAG]


def test_an_element_of_another_colour_blocks_the_copy() -> None:
    whole = one_copy()
    cells = list(whole)
    board = {c: colour for c, colour in whole.items() if c not in cells[:2]}
    board[cells[1]] = "B"  # the copy now needs a cell that holds a blue element
    found = patterns.progress(HOUSE, board, [ZIGZAG], False)
    assert (cells[0], whole[cells[0]]) not in found


def test_an_empty_cell_completes_nothing() -> None:
    whole = one_copy()
    cells = list(whole)
    board = {c: colour for c, colour in whole.items() if c != cells[0]}
    assert not patterns.matches_at(HOUSE, board, cells[0], ZIGZAG, False)
    assert patterns.completed(HOUSE, board, cells[0], [ZIGZAG], False) == []
    assert patterns.completed(HOUSE, whole, cells[0], [ZIGZAG], False) == [ZIGZAG]
