"""What a seat (or the public) sees. Skybridge has no secrets: every seat sees the
whole board; only the list of legal moves is personal."""

from __future__ import annotations

from typing import Any

from engine.skybridge.board import FOUNDATIONS, row_col
from engine.skybridge.pieces import COLOURS, LETTERS
from engine.skybridge.rules import current_slot, legal_moves, slot_colours
from engine.skybridge.scoring import outcome, seat_lines
from engine.skybridge.seating import fourth_colour, owner_of, rotation, seat_colours
from engine.skybridge.state import SkybridgeState

ESTIMATE_NOTE = "live estimate: what each player would score if the game ended now"


def view(state: SkybridgeState, seat: int | None) -> dict[str, Any]:
    slot = current_slot(state)
    lines = [seat_lines(state.board, state.seats, s) for s in range(state.seats)]
    ring = rotation(state)
    # Colours out for good (elimination option); in the 2-player game one colour of a
    # seat may be out while the other still plays.
    gone = {c for i in state.eliminated for c in slot_colours(state, ring[i])}
    out: dict[str, Any] = {
        "game": "skybridge",
        "seats": state.seats,
        "viewer": seat,
        "options": dict(state.options),
        "moves": state.board.pieces_placed(),
        "board": _board(state),
        "colours": {c: {"letter": LETTERS[c], "owner": owner_of(state.seats, c)} for c in COLOURS},
        "fourth_colour": fourth_colour(state.seats),
        "supply": {c: dict(kinds) for c, kinds in state.supply.items()},
        "players": [
            {
                "seat": s,
                "colours": seat_colours(state.seats)[s],
                "extra": dict(state.extra[s]) if state.extra else {},
                "colours_out": [c for c in seat_colours(state.seats)[s] if c in gone],
                "eliminated": all(c in gone for c in seat_colours(state.seats)[s]),
                "score_estimate": sum(ln.points for ln in lines[s]),
            }
            for s in range(state.seats)
        ],
        "order": [
            {"seat": sl.seat, "colour": sl.colour, "out": i in state.eliminated}
            for i, sl in enumerate(ring)
        ],
        "turn": None
        if slot is None
        else {"seat": slot.seat, "index": state.turn, "colours": slot_colours(state, slot)},
        "score_estimate": {
            "note": ESTIMATE_NOTE,
            "totals": [sum(ln.points for ln in seat_ls) for seat_ls in lines],
            "lines": [
                [{"key": ln.key, "points": ln.points, "detail": dict(ln.detail)} for ln in seat_ls]
                for seat_ls in lines
            ],
        },
        "last": dict(state.last) if state.last is not None else None,
        "over": state.over,
        "outcome": outcome(state.board, state.seats).to_json() if state.over else None,
    }
    if seat is not None:
        out["legal"] = [a.text() for a in legal_moves(state, seat)]
    return out


def _board(state: SkybridgeState) -> list[dict[str, Any]]:
    board = state.board
    towers = []
    for f in FOUNDATIONS:
        pieces: list[dict[str, Any]] = []
        level = 0
        for piece in board.tower(f):
            entry: dict[str, Any] = {
                "kind": piece.kind,
                "colour": piece.colour,
                "letter": LETTERS[piece.colour],
                "storeys": piece.storeys,
                "level": level,
            }
            if piece.kind == "bridge":
                ends = board.bridge_ends(piece.colour)
                assert ends is not None
                entry["to"] = ends[1] if ends[0] == f else ends[0]
            pieces.append(entry)
            level += piece.storeys
        roof = board.roof_colour(f)
        row, col = row_col(f)
        towers.append(
            {
                "foundation": f,
                "row": row,
                "col": col,
                "height": board.height(f),
                "pieces": pieces,
                "roof": roof,
                "roof_owner": owner_of(state.seats, roof) if roof is not None else None,
            }
        )
    return towers
