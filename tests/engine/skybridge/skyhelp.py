"""Build Skybridge positions by hand for the scenario tests.

A tower is written bottom first as tokens: a colour letter then the piece,
``3`` / ``2`` for blocks, ``=`` for a bridge (write it in both towers), ``^`` for a
roof. Example: ``{5: "R3 Y2 G^"}``.
"""

from __future__ import annotations

from engine.core.conformance import canonical
from engine.skybridge.actions import Place
from engine.skybridge.board import FOUNDATIONS, Board
from engine.skybridge.game import SkybridgeGame
from engine.skybridge.pieces import LETTERS, PER_COLOUR, Kind, Piece
from engine.skybridge.seating import rotation
from engine.skybridge.state import SkybridgeState

GAME = SkybridgeGame()
COLOUR_OF = {letter: colour for colour, letter in LETTERS.items()}
KIND_OF: dict[str, Kind] = {"3": "block3", "2": "block2", "=": "bridge", "^": "roof"}


def board_of(layout: dict[int, str]) -> Board:
    towers: list[list[Piece]] = [[] for _ in FOUNDATIONS]
    for f, text in layout.items():
        towers[f - 1] = [Piece(KIND_OF[tok[1]], COLOUR_OF[tok[0]]) for tok in text.split()]
    return Board(towers)


def scenario(
    seats: int = 4,
    layout: dict[int, str] | None = None,
    *,
    turn_seat: int = 0,
    turn_colour: str | None = None,
    options: dict[str, bool] | None = None,
) -> SkybridgeState:
    """A state with seat 0 first, the given board, supplies reduced by what is on it,
    and the turn at ``turn_seat`` (playing ``turn_colour`` in the 2-player game)."""
    state = GAME.setup(seats, options or {}, 0)
    state.first = 0
    state.board = board_of(layout or {})
    for colour, kinds in state.supply.items():
        for kind in kinds:
            piece = Piece(kind, colour)
            if kind == "bridge":
                on_board = int(any(piece in t for t in state.board.towers))
            else:
                on_board = sum(t.count(piece) for t in state.board.towers)
            kinds[kind] = PER_COLOUR[kind] - on_board
    ring = rotation(state)
    state.turn = next(
        i
        for i, slot in enumerate(ring)
        if slot.seat == turn_seat and (turn_colour is None or slot.colour == turn_colour)
    )
    return state


def texts(state: SkybridgeState, seat: int) -> list[str]:
    return [a.text() for a in GAME.legal_actions(state, seat)]


def play(state: SkybridgeState, seat: int, text: str) -> list[dict[str, object]]:
    action = GAME.parse_action(state, seat, text)
    return [e.to_json() for e in GAME.apply(state, seat, action)]


def snapshot(state: SkybridgeState) -> str:
    return canonical(GAME.state_to_json(state))


def place(text: str) -> Place:
    from engine.skybridge.actions import parse_text

    return parse_text(text).place
