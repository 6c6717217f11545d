"""Where an element may go, and what a seat may do now (every stage of a turn).

Placement rule (L282-284): a free cell, the centre of an empty region, or next to an
element already placed; never an outer cell (N2). Starting elements (L193-197, N3): the
centre of an empty region or next to another player's element. New Building Permits
(L742-749): a free outer cell next to an element, in a region the manufacture touches.
"""

from __future__ import annotations

from engine.core.protocol import Action, Pending
from engine.neotopia.actions import Back, Build, Draw, EndTurn, Place, Take, UseBonus
from engine.neotopia.state import NeotopiaState


def region_empty(st: NeotopiaState, region: str) -> bool:
    return not any(c in st.board for c in st.data.region(region).cells)


def _next_to(st: NeotopiaState, cell: str, colour_not: str | None = None) -> bool:
    for n in st.data.neighbours[cell]:
        colour = st.board.get(n)
        if colour is not None and colour != colour_not:
            return True
    return False


def normal_cells(st: NeotopiaState, region: str) -> list[str]:
    data = st.data
    reg = data.region(region)
    if region_empty(st, region):
        return [reg.centre]
    return [c for c in reg.cells
            if c not in st.board and data.cells[c].kind != "outer" and _next_to(st, c)]


def permit_cells(st: NeotopiaState, region: str) -> list[str]:
    return [c for c in st.data.region(region).outer_cells
            if c not in st.board and _next_to(st, c)]


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
    if source == "reserve":
        return [c for r in st.data.regions for c in normal_cells(st, r.id)]
    regions = st.data.manufacture(source).regions
    if st.bonus == "building_permits":
        return [c for r in regions for c in permit_cells(st, r)]
    return [c for r in regions for c in normal_cells(st, r)]


def draws(st: NeotopiaState) -> list[Action]:
    out: list[Action] = [Draw(c) for c in st.offer]
    if st.deck:
        out.append(Draw(None))
    return out


def takes(st: NeotopiaState, permits: bool = False) -> list[Action]:
    out: list[Action] = []
    for m in st.data.manufactures:
        held = st.manufactures[m.id]
        if not held:
            continue
        cells = permit_cells if permits else normal_cells
        if any(cells(st, r) for r in m.regions):
            out.extend(Take(m.id, c) for c in st.data.colour_ids if c in held)
    return out


def normal_actions(st: NeotopiaState) -> list[Action]:
    return draws(st) + takes(st)


def initiative_takes(st: NeotopiaState) -> list[Action]:
    if not any(normal_cells(st, r.id) for r in st.data.regions):
        return []
    return [Take("reserve", c) for c in st.data.colour_ids if st.reserve[c] > 0]


def usable_bonuses(st: NeotopiaState, seat: int) -> list[str]:
    """The bonus kinds the seat holds and could spend now (one bonus per turn, L713)."""
    if st.bonus_used or st.phase != "play":
        return []
    out = []
    for kind in dict.fromkeys(st.tokens[seat]):
        if kind == "subsidy":
            ok = bool(st.offer or st.deck)
        elif kind == "automation":
            ok = bool(normal_actions(st))
        elif kind == "private_initiative":
            ok = bool(initiative_takes(st))
        else:
            ok = bool(takes(st, permits=True))
        if ok:
            out.append(kind)
    return sorted(out, key=["subsidy", "automation", "private_initiative",
                            "building_permits"].index)


def legal_actions(st: NeotopiaState, seat: int) -> list[Action]:
    if st.phase == "over" or seat != st.current:
        return []
    stage = st.stage
    if stage == "start":
        return [Place(c) for c in start_cells(st, seat)]
    if stage == "turn":
        out: list[Action] = normal_actions(st) if st.actions_left > 0 else []
        out.extend(UseBonus(k) for k in usable_bonuses(st, seat))
        if st.actions_left == 0:
            out.append(EndTurn())
        return out
    if stage == "place":
        return [*(Place(c) for c in place_cells(st)), Back()]
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


def pending(st: NeotopiaState) -> Pending:
    if st.phase == "over":
        return Pending({})
    return Pending({st.current: st.stage})
