"""What the hand statuses keep between views (engine/neotopia/textview.py, issue 25) never
shows one board's status on another.

The statuses keep, per region's elements, what each card's copies there make of them,
and count a region's copies from the same region one element fewer when that was seen
(any table's). Here a state's views are checked against the plain definition of a status
(``test_view_caches.expected_status``, from every copy on the board) after the state
changes in place, after a copy of it changes differently, and on boards that reach the
same elements in another order or lose one. Pattern orientations are kept by the pattern
itself: a data set edited and loaded again under the same name gets its own.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.core import Rng
from engine.neotopia import GAME
from engine.neotopia.data import DATA_DIR, load
from engine.neotopia.patterns import orientations, shapes
from engine.neotopia.state import NeotopiaState
from tests.engine.neotopia.helpers import HOUSE, position
from tests.engine.neotopia.test_view_caches import expected_status


def statuses(st: NeotopiaState, seat: int) -> dict[str, dict[str, object]]:
    return {card["id"]: card["status"] for card in GAME.view(st, seat)["players"][seat]["hand"]}


def expected(st: NeotopiaState, seat: int) -> dict[str, dict[str, object]]:
    return {card: expected_status(st, card) for card in st.hands[seat]}


def played(seed: int, actions: int) -> NeotopiaState:
    st = GAME.setup(4, {}, seed)
    rng = Rng.from_seed(seed)
    for _ in range(actions):
        seat = min(GAME.pending(st).waiting)
        legal = GAME.legal_actions(st, seat)
        GAME.apply(st, seat, legal[rng.randbelow(len(legal))])
    return st


def free_cells(st: NeotopiaState, region: str) -> list[str]:
    return [c for c in st.data.region(region).cells if c not in st.board]


def busiest(st: NeotopiaState) -> str:
    """The region holding the most elements (where a change moves the most copies)."""
    return max(st.data.regions, key=lambda r: sum(c in st.board for c in r.cells)).id


def test_a_state_changed_in_place_is_not_shown_its_old_statuses() -> None:
    st = played(5, 60)
    seat = st.current
    assert statuses(st, seat) == expected(st, seat)
    region = busiest(st)
    before = statuses(st, seat)
    for n, cell in enumerate(free_cells(st, region)[:12]):
        st.board[cell] = st.data.colour_ids[n % 4]
        now = statuses(st, seat)
        assert now == expected(st, seat), cell
    # Twelve more elements in one region changed some card's status.
    assert now != before


def test_a_copy_changed_differently_does_not_reuse_the_others_statuses() -> None:
    st = played(9, 80)
    seat = st.current
    statuses(st, seat)  # kept for the original board
    region = busiest(st)
    cells = free_cells(st, region)[:6]
    red, green = st.copy(), st.copy()
    for cell in cells:
        red.board[cell] = "R"
        green.board[cell] = "G"
    # Each copy viewed in turn, several times: each shows its own board's statuses.
    for _ in range(2):
        for copy in (red, green, st):
            assert statuses(copy, seat) == expected(copy, seat)
    assert statuses(red, seat) != statuses(green, seat)


def test_the_same_elements_placed_in_another_order_or_one_taken_away() -> None:
    st = played(13, 120)
    seat = st.current
    want = expected(st, seat)
    assert statuses(st, seat) == want
    # The same board, its elements in reverse order: another element counts as the
    # region's last one.
    reverse = st.copy()
    reverse.board = dict(reversed(list(st.board.items())))
    assert statuses(reverse, seat) == want
    # An element taken away (no game does it; an edited position may): the region's
    # elements are then fewer than any seen since.
    lost = st.copy()
    region = busiest(st)
    gone = next(c for c in reversed(list(st.board)) if st.data.cells[c].region == region)
    del lost.board[gone]
    assert statuses(lost, seat) == expected(lost, seat)
    assert statuses(st, seat) == want


def test_tables_side_by_side_from_one_start_keep_their_own_statuses() -> None:
    """Three tables from the same position, each placing its own elements in turn: every
    view matches its own board, the region's elements one fewer being another table's."""
    start = position(hands={0: sorted(HOUSE.cards)[:20]},
                     board={"D00": "R", "D01": "G", "A00": "P", "F00": "B"})
    tables = [start.copy() for _ in range(3)]
    rng = Rng.from_seed(3)
    cells = [c for c in HOUSE.cells if c not in start.board and HOUSE.cells[c].kind != "outer"]
    for _ in range(15):
        for st in tables:
            free = [c for c in cells if c not in st.board]
            cell = free[rng.randbelow(len(free))]
            st.board[cell] = HOUSE.colour_ids[rng.randbelow(4)]
            assert statuses(st, 0) == expected(st, 0), cell


def test_orientations_of_a_data_set_edited_under_the_same_name(tmp_path: Path) -> None:
    raw = json.loads((DATA_DIR / "house.json").read_text(encoding="utf-8"))
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    name = str(path)
    first = load(name)
    bar = orientations(name, "C04", False)
    assert len(bar) == 3  # a straight bar of four: three ways on the hex grid
    # The bar bent at its end (an L of four cells): six ways.
    card = next(c for c in raw["project_cards"]["cards"] if c["id"] == "C04")
    card["pattern"] = [[0, 0, "R"], [0, 1, "R"], [0, 2, "R"], [1, 2, "R"]]
    path.write_text(json.dumps(raw), encoding="utf-8")
    edited = load(name)
    assert edited is not first
    bent = orientations(name, "C04", False)
    assert len(bent) == 6
    assert {(q, r) for q, r, _ in bent[0]} == {(0, 0), (0, 1), (0, 2), (1, 2)}
    # The data sets themselves still read their own patterns.
    assert shapes(first, "C04", False) == bar
    assert shapes(edited, "C04", False) == bent
