"""Who must decide now, and every action a seat may take: the menus are built from it.

Two decisions per turn, each a short menu: ``take`` (architect@slot, grouped by
architect: at most 5 groups of at most 20) and ``place`` (r2c3 ... or discard: at most
21 choices).
"""

from __future__ import annotations

from engine.core.protocol import Pending
from engine.quadropolis.actions import QAction
from engine.quadropolis.rules import legal_actions as _legal
from engine.quadropolis.state import State


def pending(state: State) -> Pending:
    seat = state.to_play
    if seat is None:
        return Pending({})
    return Pending({seat: state.phase})


def legal_actions(state: State, seat: int) -> list[QAction]:
    if state.over or seat != state.to_play:
        return []
    return _legal(state, seat)
