"""Helpers for Quadropolis tests: states with a chosen site and chosen cities."""

from __future__ import annotations

from collections.abc import Iterable

from engine.quadropolis import GAME
from engine.quadropolis.state import State
from engine.quadropolis.tiles import TILES, all_tiles


def fresh(seats: int = 4, mode: str = "classic", seed: int = 1, squares: bool = False) -> State:
    return GAME.setup(seats, {"mode": mode, "squares": squares}, seed)


def tile_id(kind: str, *, mode: str = "classic", squares: bool = False, skip: Iterable[str] = (),
            **face: object) -> str:
    """The first tile of the mode's set of that type whose fields match ``face``."""
    avoid = set(skip)
    for tid in all_tiles(mode, squares):
        t = TILES[tid]
        if t.type != kind or tid in avoid:
            continue
        if all(getattr(t, k) == v for k, v in face.items()):
            return tid
    raise LookupError(f"no {kind} tile with {face} in {mode}")


def on_site(state: State, row: int, col: int, tid: str | None, *, face_up: bool = True) -> None:
    """Put ``tid`` on site space (row, col), swapping it with wherever it was."""
    for r in range(5):
        for c in range(5):
            if state.site[r][c] == tid and tid is not None:
                state.site[r][c] = state.site[row - 1][col - 1]
                state.face_up[r][c] = state.face_up[row - 1][col - 1]
    state.site[row - 1][col - 1] = tid
    state.face_up[row - 1][col - 1] = face_up


def build(state: State, seat: int, row: int, col: int, stack: list[str]) -> None:
    state.players[seat].city[row - 1][col - 1] = list(stack)


def accounted(state: State) -> list[str]:
    """Every tile dealt so far, wherever it is now (site, cities, taken, discards, box)."""
    out = [t for row in state.site for t in row if t is not None]
    for p in state.players:
        out += [t for row in p.city for stack in row for t in stack]
    if state.taken is not None:
        out.append(str(state.taken["tile"]))
    return out + state.discards + state.box
