"""Hal, the automaton of the solitaire game (ruling G10).

Hal always builds with a random tile from the supply, pays no SP and no colour cost,
scores 1 SP per item his urbanizing would produce, keeps his Building cards for their
end-game effect only, and the human moves his urbanization token.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.ginkgopolis.cards import is_urbanization
from engine.ginkgopolis.outline import Cell, neighbours
from engine.ginkgopolis.state import Building, State


class HalTable(Protocol):
    """What the automaton may touch: the state and seven operations of the rules
    (``rules.Table`` is one), so that Hal reads without the rules, which call him."""

    st: State

    def emit(self, kind: str, to: int | None = None, **data: Any) -> None: ...
    def building_for(self, card: str) -> tuple[Cell, Building]: ...
    def rebuild_deck(self) -> None: ...
    def trigger_end(self, why: str, seat: int | None = None) -> None: ...
    def exhausted(self) -> None: ...
    def place_new(self, p: int, letter: str, tile: str) -> Cell: ...
    def add_floor(self, p: int, card: str, tile: str, *, sp_paid: int, res_paid: int) -> int: ...


def urbanize_value(t: HalTable, letter: str) -> int:
    cell: Cell = t.st.tokens[letter]
    return sum(t.st.board[c].height for c in neighbours(cell) if c in t.st.board)


def hal_turn(t: HalTable, op: dict[str, Any]) -> None:
    st = t.st
    p = len(st.players) - 1
    hal = st.players[p]
    card = st.hal_card
    st.hal_card = None
    if card is None:
        t.emit("hal_idle", why="no_card")
        return
    t.emit("hal_reveal", card=card)
    if st.options["expert_hal"] and is_urbanization(card) and st.deck:
        other = st.deck.pop()
        if not st.deck:
            t.rebuild_deck()
        t.emit("hal_reveal", card=other, expert=True)
        if not is_urbanization(other) or urbanize_value(t, other) > urbanize_value(t, card):
            card, other = other, card
        st.discard.append(other)
    st.revealed.append({"seat": None, "card": card, "tile": None, "gain": None})
    if is_urbanization(card):
        needed = 1
    else:
        target = t.building_for(card)[1]
        # As for players (G3), his own returned resources count towards the new floor.
        needed = target.height + 1 - (target.resources if target.owner == p else 0)
    if hal.supply_res < needed:
        # The rulebook: this final action is not completed, and the game ends.
        t.emit("hal_idle", why="no_resource")
        st.discard.append(card)
        t.trigger_end("hal_exhausted")
        return
    if not st.supply:
        t.emit("hal_idle", why="no_tile")
        st.discard.append(card)
        return
    tile = st.supply.pop()
    if not st.supply:
        t.exhausted()
    if is_urbanization(card):
        points = urbanize_value(t, card)
        hal.supply_res -= 1
        cell = t.place_new(p, card, tile)
        hal.sp += points
        t.emit("gain", seat=None, item="sp", n=points, why="hal_urbanize")
        st.discard.append(card)
        st.queue.insert(0, {"op": "token", "seat": 0, "letter": card, "cell": [cell[0], cell[1]]})
        return
    height = t.add_floor(p, card, tile, sp_paid=0, res_paid=0)
    hal.supply_res -= height
    hal.kept.append(card)
