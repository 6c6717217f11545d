"""Final scoring (S5): roofed towers, bridges joining them, and the breakdown."""

from __future__ import annotations

from engine.core.protocol import Outcome, ScoreLine, Standing, rank_totals, seat_name
from engine.skybridge.board import FOUNDATIONS, Board
from engine.skybridge.seating import seat_colours


def colour_lines(board: Board, colour: str) -> list[ScoreLine]:
    """What one colour scores: each tower it roofs, plus what its own bridge adds.

    A bridge from a roofed tower adds the tower at its other end, roofed or not
    and whoever roofed it; if the colour roofs both ends, the two towers count
    twice, i.e. the bridge line adds both heights once more.
    """
    roofs = [f for f in FOUNDATIONS if board.roof_colour(f) == colour]
    lines = [
        ScoreLine(
            "roof",
            board.height(f),
            {"colour": colour, "foundation": f, "storeys": board.height(f)},
        )
        for f in roofs
    ]
    ends = board.bridge_ends(colour)
    if ends is None:
        return lines
    a, b = ends
    if a in roofs and b in roofs:
        both = board.height(a) + board.height(b)
        lines.append(
            ScoreLine(
                "bridge_double", both, {"colour": colour, "foundations": [a, b], "storeys": both}
            )
        )
    elif a in roofs or b in roofs:
        roofed, other = (a, b) if a in roofs else (b, a)
        lines.append(
            ScoreLine(
                "bridge",
                board.height(other),
                {"colour": colour, "from": roofed, "to": other, "storeys": board.height(other)},
            )
        )
    return lines


def seat_lines(board: Board, seats: int, seat: int) -> list[ScoreLine]:
    """2 players score each of their colours and add them up (S6)."""
    return [line for colour in seat_colours(seats)[seat] for line in colour_lines(board, colour)]


def colour_points(board: Board, colour: str) -> int:
    """The points of ``colour_lines``, without building the lines (the AIs call this often)."""
    roofs = [f for f in FOUNDATIONS if board.roof_colour(f) == colour]
    total = sum(board.height(f) for f in roofs)
    ends = board.bridge_ends(colour)
    if ends is not None:
        a, b = ends
        total += (board.height(b) if a in roofs else 0) + (board.height(a) if b in roofs else 0)
    return total


def points_by_colour(board: Board) -> dict[str, int]:
    """``colour_points`` of every colour on the board, in one pass over the towers."""
    roofs: dict[str, list[int]] = {}
    ends: dict[str, list[int]] = {}
    for f, tower in enumerate(board.towers, 1):
        if tower and tower[-1].kind == "roof":
            roofs.setdefault(tower[-1].colour, []).append(f)
        for piece in tower:
            if piece.kind == "bridge":
                ends.setdefault(piece.colour, []).append(f)
    points = {c: sum(board.height(f) for f in fs) for c, fs in roofs.items()}
    for colour, (a, b) in ends.items():
        mine = roofs.get(colour, [])
        extra = (board.height(b) if a in mine else 0) + (board.height(a) if b in mine else 0)
        if extra:
            points[colour] = points.get(colour, 0) + extra
    return points


def seat_totals(board: Board, seats: int) -> list[int]:
    return [sum(colour_points(board, c) for c in colours) for colours in seat_colours(seats)]


def standings(board: Board, seats: int) -> tuple[Standing, ...]:
    lines = [seat_lines(board, seats, s) for s in range(seats)]
    totals = [sum(ln.points for ln in seat) for seat in lines]
    ranks = rank_totals(totals)
    return tuple(
        Standing(
            seat=s, name=seat_name(s), total=totals[s], lines=tuple(lines[s]), rank=ranks[s]
        )
        for s in range(seats)
    )


def outcome(board: Board, seats: int) -> Outcome:
    return Outcome(standings(board, seats))
