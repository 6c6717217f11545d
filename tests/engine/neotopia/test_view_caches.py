"""What Neotopia's views keep between calls (issue 25) changes nothing they show.

The views keep, per data set, each card's copies and each cell's fixed keys, and, per
region's elements, the statuses and maps lately made; the state's JSON is copied without
``deepcopy``. Here tables are played side by side, so every kept value meets other
tables' boards, and each view is checked against the plain definitions: a hand card's
status from every copy of its pattern on the board, a region's map cell by cell. A view
handed out and then changed, and a state's JSON changed, leave every later view as it was.
The full comparison with the engine before this work is ``benchmarks/neotopia_equivalence.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from engine.core import Rng
from engine.neotopia import GAME
from engine.neotopia.data import DataSet
from engine.neotopia.patterns import orientations
from engine.neotopia.state import NeotopiaState
from tests.engine.neotopia.helpers import HOUSE, position

Copy = list[tuple[str, str]]
COPIES: dict[tuple[str, str, bool, str], list[Copy]] = {}


def copies(data: DataSet, card: str, mirror: bool, region: str) -> list[Copy]:
    """Every copy of the card's pattern inside the region: each orientation at each
    anchor, in that order (the same cells twice count once)."""
    key = (data.id, card, mirror, region)
    if key in COPIES:
        return COPIES[key]
    out: list[Copy] = []
    COPIES[key] = out
    seen: set[frozenset[tuple[str, str]]] = set()
    for shape in orientations(data.name, card, mirror):
        for anchor in data.region(region).cells:
            a = data.cells[anchor]
            cells = []
            for dq, dr, colour in shape:
                target = data.by_coord.get((a.q + dq, a.r + dr))
                if target is None or data.cells[target].region != region:
                    break
                cells.append((target, colour))
            else:
                if frozenset(cells) not in seen:
                    seen.add(frozenset(cells))
                    out.append(cells)
    return out


def expected_status(st: NeotopiaState, card: str) -> dict[str, Any]:
    """``textview.card_status`` as its docstring defines it, from the board alone."""
    data, board = st.data, st.board
    mirror = bool(st.options["mirror"])
    ptype = data.cards[card].type
    size = len(data.cards[card].pattern)
    last = {r.id: st.last_project(r.id) for r in data.regions}
    blocked = [r.id for r in data.regions
               if last[r.id] is not None and data.cards[str(last[r.id])].type == ptype]
    closest: dict[str, Any] | None = None
    complete: list[str] = []
    fits = False

    def missing(copy: Copy) -> list[tuple[str, str]]:
        return [(c, colour) for c, colour in copy if c not in board]

    for reg in data.regions:
        fitting = [c for c in copies(data, card, mirror, reg.id)
                   if all(board.get(cell, colour) == colour for cell, colour in c)]
        fits = fits or bool(fitting)
        if reg.id in blocked:
            continue
        if any(not missing(c) for c in fitting):
            complete.append(reg.id)
        partial = [c for c in fitting if missing(c)]
        if not partial:
            continue
        # The first copy needing the fewest elements, then the fewest outer cells.
        best = missing(min(partial, key=lambda c: (
            len(missing(c)), sum(data.cells[x].kind == "outer" for x, _ in missing(c)))))
        if closest is None or len(best) < len(closest["missing"]):
            closest = {"region": reg.id, "have": size - len(best), "size": size,
                       "missing": [[c, colour, data.cells[c].kind == "outer"]
                                   for c, colour in sorted(best)]}
    return {"closest": closest, "blocked": blocked, "complete": complete, "fits": fits}


def glyphs(lines: list[str]) -> dict[str, str]:
    """A region map read back: cell number -> the glyph after it."""
    found = [(m.group(1), m.group(2)) for line in lines
             for m in re.finditer(r"(\d\d)(\S)", line)]
    out = dict(found)
    assert len(out) == len(found), f"a cell number appears twice: {lines}"
    return out


def expected_glyph(st: NeotopiaState, cell: str) -> str:
    kind = st.data.cells[cell].kind
    if cell in st.board:
        return st.board[cell]
    if st.cell_tokens.get(cell) is not None:
        return "+"
    return {"centre": "*", "outer": "o"}.get(kind, ".")


def side_by_side(games: int, seed: int) -> Iterator[NeotopiaState]:
    """Seeded 4-player tables, one random action each in turn (one with mirrored
    patterns): each state as it is after its action, until every table is over."""
    tables = [GAME.setup(4, {"mirror": n == 1}, seed + n) for n in range(games)]
    rng = Rng.from_seed(seed)
    while any(GAME.outcome(st) is None for st in tables):
        for st in tables:
            if GAME.outcome(st) is not None:
                continue
            seat = min(GAME.pending(st).waiting)
            legal = GAME.legal_actions(st, seat)
            GAME.apply(st, seat, legal[rng.randbelow(len(legal))])
            yield st


def test_hand_statuses_and_maps_match_the_board_whatever_was_viewed_before() -> None:
    checked = 0
    for n, st in enumerate(side_by_side(3, 40)):
        # The service views a state read back from its snapshot.
        back = GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(st))))
        seat = st.current
        view = GAME.view(back, seat)
        if n % 3 == 0:
            hand = view["players"][seat]["hand"]
            assert [c["id"] for c in hand] == st.hands[seat]
            for card in hand:
                assert card["status"] == expected_status(st, card["id"]), card["id"]
                checked += 1
        for drawn in view["board"]["map"]:
            region = st.data.region(drawn["region"])
            assert glyphs(drawn["lines"]) == {c[1:]: expected_glyph(st, c)
                                              for c in region.cells}
    assert checked > 500


def every_container(value: Any) -> Iterator[dict[str, Any] | list[Any]]:
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from every_container(v)
    elif isinstance(value, list):
        yield value
        for v in value:
            yield from every_container(v)


def vandalise(value: Any) -> None:
    """Change every list and dict inside ``value`` (what a careless caller might do)."""
    for container in list(every_container(value)):
        if isinstance(container, dict):
            container["vandalised"] = True
        else:
            container.append("vandalised")


def test_a_view_changed_by_its_caller_changes_no_later_view() -> None:
    states = list(side_by_side(1, 7))
    for st in states[::25]:
        seat = st.current
        before = [json.dumps(GAME.view(st, s)) for s in (None, seat)]
        for s in (None, seat):
            vandalise(GAME.view(st, s))
        assert [json.dumps(GAME.view(st, s)) for s in (None, seat)] == before


def test_a_state_shares_nothing_with_its_json_or_its_copy() -> None:
    st = list(side_by_side(1, 11))[120]
    saved = json.dumps(GAME.state_to_json(st))
    vandalise(GAME.state_to_json(st))
    vandalise(st.copy().to_json())
    data = json.loads(saved)
    restored = GAME.state_from_json(data)
    vandalise(data)
    assert json.dumps(GAME.state_to_json(st)) == saved
    assert json.dumps(GAME.state_to_json(restored)) == saved



def test_every_card_status_on_random_boards() -> None:
    """Boards no game reaches but a status must read alike: cells filled at random, often
    with one colour, so that every copy holding an element may be ruled out and the
    closest copy is one holding none (the fewest outer cells first)."""
    rng = Rng.from_seed(17)
    colours = HOUSE.colour_ids
    cells = list(HOUSE.cells)
    for n in range(40):
        one = colours[n % len(colours)]
        board = {c: one if n % 2 else colours[rng.randbelow(len(colours))]
                 for c in cells if rng.randbelow(100) < 5 + n}
        st = position(board=board, hands={0: sorted(HOUSE.cards)}, mirror=n % 4 == 1)
        for card in GAME.view(st, 0)["players"][0]["hand"]:
            assert card["status"] == expected_status(st, card["id"]), (n, card["id"])
