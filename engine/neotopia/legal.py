"""Where an element may go, and what a seat may do now (every stage of a turn).

Placement rule (L282-284): a free cell, the centre of an empty region, or next to an
element already placed; never an outer cell (N2). Starting elements (L193-197, N3): the
centre of an empty region or next to another player's element. New Building Permits
(L742-749): a free outer cell next to an element, in a region the manufacture touches.
"""

from __future__ import annotations

from collections.abc import Container

from engine.core.protocol import Action, Pending
from engine.neotopia.actions import Back, Build, Draw, EndTurn, Place, Take, UseBonus
from engine.neotopia.data import DataSet
from engine.neotopia.state import NeotopiaState


def region_empty(st: NeotopiaState, region: str) -> bool:
    board = st.board
    return not any(c in board for c in st.data.region(region).cells)


def _next_to(st: NeotopiaState, cell: str, colour_not: str | None = None) -> bool:
    board = st.board
    for n in st.data.neighbours[cell]:
        colour = board.get(n)
        if colour is not None and colour != colour_not:
            return True
    return False


def _normal(data: DataSet, board: Container[str], region: str) -> list[str]:
    # Every colour on the board is a string, so "next to an element" is "a neighbour is
    # on the board": no colour to compare, the hot path of every menu.
    reg = data.region(region)
    for c in reg.cells:
        if c in board:
            break
    else:
        return [reg.centre]
    out = []
    for c, near in data.inner_cells[region]:
        if c not in board:
            for n in near:
                if n in board:
                    out.append(c)
                    break
    return out


def _any_normal(data: DataSet, board: Container[str], region: str) -> bool:
    """``bool(_normal(...))``, stopping at the first open cell."""
    reg = data.region(region)
    for c in reg.cells:
        if c in board:
            break
    else:
        return True
    for c, near in data.inner_cells[region]:
        if c not in board:
            for n in near:
                if n in board:
                    return True
    return False


def _permit(data: DataSet, board: Container[str], region: str) -> list[str]:
    nb = data.neighbours
    return [c for c in data.region(region).outer_cells
            if c not in board and any(n in board for n in nb[c])]


def normal_cells(st: NeotopiaState, region: str) -> list[str]:
    return _normal(st.data, st.board, region)


def permit_cells(st: NeotopiaState, region: str) -> list[str]:
    return _permit(st.data, st.board, region)


class Reach:
    """The cells an element may go to, per region, for one set of occupied cells: each
    region is scanned on first use and remembered. Placement depends on which cells are
    occupied and on nothing else (not their colours, not whose turn it is), so ``of``
    hands the same Reach to every question asked of the same board: the AI's menu, the
    check of its choice, the bonuses and the end of the turn scan each region once. The
    lists it returns are shared, not to be changed."""

    __slots__ = ("_board", "_data", "_normal", "_open", "_permit")

    def __init__(self, data: DataSet, occupied: frozenset[str]) -> None:
        self._data = data
        self._board = occupied
        self._normal: dict[str, list[str]] = {}
        self._open: dict[str, bool] = {}
        self._permit: dict[str, list[str]] = {}

    @classmethod
    def of(cls, st: NeotopiaState) -> Reach:
        # Keyed by the occupied cells in the order they were filled (a board is only ever
        # added to): a tuple hashes and compares in a fraction of a region's scan.
        key = tuple(st.board)
        data = st.data
        reach = _REACHES.get(key)
        if reach is None or reach._data is not data:
            if len(_REACHES) >= _REACHES_KEPT:
                _REACHES.clear()
            reach = _REACHES[key] = cls(data, frozenset(key))
        return reach

    def normal(self, region: str) -> list[str]:
        cells = self._normal.get(region)
        if cells is None:
            cells = self._normal[region] = _normal(self._data, self._board, region)
        return cells

    def any_normal(self, region: str) -> bool:
        cells = self._normal.get(region)
        if cells is not None:
            return bool(cells)
        found = self._open.get(region)
        if found is None:
            found = self._open[region] = _any_normal(self._data, self._board, region)
        return found

    def permit(self, region: str) -> list[str]:
        cells = self._permit.get(region)
        if cells is None:
            cells = self._permit[region] = _permit(self._data, self._board, region)
        return cells


# The last boards asked about: a playout asks about one board at a time, a search about
# the few it is comparing.
_REACHES_KEPT = 16
_REACHES: dict[tuple[str, ...], Reach] = {}


def start_cells(st: NeotopiaState, seat: int) -> list[str]:
    data = st.data
    own = st.colour_of(seat)
    out: list[str] = []
    for reg in data.regions:
        if region_empty(st, reg.id):
            out.append(reg.centre)
            continue
        out.extend(c for c in reg.cells if c not in st.board and data.cells[c].kind != "outer"
                   and _next_to(st, c, colour_not=own))
    return out


def place_cells(st: NeotopiaState) -> list[str]:
    """The cells the element being taken may go to."""
    assert st.taking is not None
    source = st.taking["source"]
    reach = Reach.of(st)
    if source == "reserve":
        return [c for r in st.data.regions for c in reach.normal(r.id)]
    regions = st.data.manufacture(source).regions
    if st.bonus == "building_permits":
        return [c for r in regions for c in reach.permit(r)]
    return [c for r in regions for c in reach.normal(r)]


def draws(st: NeotopiaState) -> list[Action]:
    out: list[Action] = [_draw(c) for c in st.offer]
    if st.deck:
        out.append(_draw(None))
    return out


def takes(st: NeotopiaState, permits: bool = False, reach: Reach | None = None
          ) -> list[Action]:
    out: list[Action] = []
    reach = reach or Reach.of(st)
    data = st.data
    for m in data.manufactures:
        held = st.manufactures[m.id]
        if not held:
            continue
        a, b = m.regions
        if (reach.permit(a) or reach.permit(b)) if permits else \
                (reach.any_normal(a) or reach.any_normal(b)):
            out.extend(_take(m.id, c) for c in data.colour_ids if c in held)
    return out


def normal_actions(st: NeotopiaState, reach: Reach | None = None) -> list[Action]:
    return draws(st) + takes(st, reach=reach)


def any_normal_action(st: NeotopiaState, reach: Reach | None = None) -> bool:
    """``bool(normal_actions(st, reach))``, without building the menu (asked after every
    action, to tell whether the turn goes on)."""
    if st.offer or st.deck:
        return True
    reach = reach or Reach.of(st)
    data = st.data
    for m in data.manufactures:
        held = st.manufactures[m.id]
        if not held:
            continue
        a, b = m.regions
        if (reach.any_normal(a) or reach.any_normal(b)) and \
                any(c in held for c in data.colour_ids):
            return True
    return False


def initiative_takes(st: NeotopiaState, reach: Reach | None = None) -> list[Action]:
    reach = reach or Reach.of(st)
    data = st.data
    if not any(reach.any_normal(r.id) for r in data.regions):
        return []
    return [_take("reserve", c) for c in data.colour_ids if st.reserve[c] > 0]


def usable_bonuses(st: NeotopiaState, seat: int, reach: Reach | None = None) -> list[str]:
    """The bonus kinds the seat holds and could spend now (one bonus per turn, L713)."""
    if st.bonus_used or st.phase != "play":
        return []
    reach = reach or Reach.of(st)
    out = []
    for kind in dict.fromkeys(st.tokens[seat]):
        if kind == "subsidy":
            ok = bool(st.offer or st.deck)
        elif kind == "automation":
            ok = any_normal_action(st, reach)
        elif kind == "private_initiative":
            ok = bool(initiative_takes(st, reach))
        else:
            ok = bool(takes(st, permits=True, reach=reach))
        if ok:
            out.append(kind)
    return sorted(out, key=["subsidy", "automation", "private_initiative",
                            "building_permits"].index)


# Actions are immutable values: the menus hand out the same few objects (a source and a
# colour, a cell, a card) rather than build equal ones for every menu (a frozen
# dataclass costs a microsecond to build; a place menu lists some twenty cells).
_TAKES: dict[tuple[str, str], Take] = {}


def _take(source: str, colour: str) -> Take:
    take = _TAKES.get((source, colour))
    if take is None:
        take = _TAKES[(source, colour)] = Take(source, colour)
    return take


_PLACES: dict[str, Place] = {}
_DRAWS: dict[str | None, Draw] = {}


def _place(cell: str) -> Place:
    place = _PLACES.get(cell)
    if place is None:
        place = _PLACES[cell] = Place(cell)
    return place


def _draw(card: str | None) -> Draw:
    draw = _DRAWS.get(card)
    if draw is None:
        draw = _DRAWS[card] = Draw(card)
    return draw


def legal_actions(st: NeotopiaState, seat: int) -> list[Action]:
    if st.phase == "over" or seat != st.current:
        return []
    stage = st.stage
    if stage == "start":
        return [_place(c) for c in start_cells(st, seat)]
    if stage == "turn":
        reach = Reach.of(st)
        out: list[Action] = normal_actions(st, reach) if st.actions_left > 0 else []
        out.extend(UseBonus(k) for k in usable_bonuses(st, seat, reach))
        if st.actions_left == 0:
            out.append(EndTurn())
        return out
    if stage == "place":
        return [*map(_place, place_cells(st)), Back()]
    if stage == "build":
        return [*(Build(c) for c in st.build_options), Build(None)]
    if stage == "subsidy":
        return draws(st)
    if stage == "automation":
        return normal_actions(st)
    if stage == "initiative":
        return initiative_takes(st)
    if stage == "permits":
        return takes(st, permits=True)
    return []


def is_legal(st: NeotopiaState, seat: int, action: Action) -> bool:
    """``action in legal_actions(st, seat)``, without building the menu of the turn stage
    (the check of every action): the same tests, asked of the one action only."""
    if st.phase == "over" or seat != st.current:
        return False
    stage = st.stage
    # Actions are frozen dataclasses: equal only to an action of the very same class.
    kind = type(action)
    if stage == "turn":
        if kind is Take:
            assert isinstance(action, Take)
            return st.actions_left > 0 and action in _takes_from(st, action.source)
        if kind is Draw:
            assert isinstance(action, Draw)
            if st.actions_left <= 0:
                return False
            return bool(st.deck) if action.card is None else action.card in st.offer
        if kind is EndTurn:
            return st.actions_left == 0
        if kind is UseBonus:
            assert isinstance(action, UseBonus)
            return action.bonus in usable_bonuses(st, seat)
        return False
    if stage == "place":
        if kind is Back:
            return True
        if kind is Place:
            assert isinstance(action, Place)
            return action.cell in place_cells(st)
        return False
    return action in legal_actions(st, seat)


def _takes_from(st: NeotopiaState, source: str) -> list[Action]:
    """The entries of ``takes(st)`` (not the permits') whose source is ``source``."""
    data = st.data
    for m in data.manufactures:
        if m.id != source:
            continue
        held = st.manufactures[m.id]
        if not held:
            return []
        reach = Reach.of(st)
        a, b = m.regions
        if reach.any_normal(a) or reach.any_normal(b):
            return [_take(m.id, c) for c in data.colour_ids if c in held]
        return []
    return []


def pending(st: NeotopiaState) -> Pending:
    if st.phase == "over":
        return Pending({})
    return Pending({st.current: st.stage})
