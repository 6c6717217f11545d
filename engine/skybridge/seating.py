"""Who plays which colour, and in which order (S6, S7)."""

from __future__ import annotations

from engine.skybridge.pieces import COLOURS
from engine.skybridge.state import SkybridgeState, Slot


def seat_colours(seats: int) -> list[list[str]]:
    """4 and 3 players: one colour each. 2 players: seat 0 red+green, seat 1 yellow+blue."""
    if seats == 2:
        return [[COLOURS[0], COLOURS[2]], [COLOURS[1], COLOURS[3]]]
    return [[COLOURS[s]] for s in range(seats)]


def fourth_colour(seats: int) -> str | None:
    """The colour nobody owns in the 3-player game, whose blocks every seat shares out."""
    return COLOURS[3] if seats == 3 else None


def owner_of(seats: int, colour: str) -> int | None:
    for seat, colours in enumerate(seat_colours(seats)):
        if colour in colours:
            return seat
    return None


def rotation(state: SkybridgeState) -> list[Slot]:
    """Clockwise from the first player; 2 players: A1 B1 A2 B2 (S6, S7)."""
    n = state.seats
    order = [(state.first + i) % n for i in range(n)]
    colours = seat_colours(n)
    if n != 2:
        return [Slot(s, colours[s][0]) for s in order]
    if state.options["choose_colour"]:
        return [Slot(s, None) for s in order]
    return [Slot(s, colours[s][i]) for i in range(2) for s in order]
