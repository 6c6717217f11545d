"""The three score tracks: spaces 0 to 20, the 7, 13 and 18 spaces that give a token
from the region's pile while it lasts, and one marker per player in a fixed corner of
the space (seat order), so markers never hide each other. A marker past 20 shows its
"20" side: a white ring, and the panel gives the exact score."""

from __future__ import annotations

from engine.neotopia.render import pieces
from engine.neotopia.render.canvas import Box, Canvas
from engine.neotopia.render.model import Board
from engine.neotopia.render.palette import (
    INK,
    MUTED,
    PANEL,
    REGION_EDGE,
    REGION_LETTER,
    REGION_NAME,
    REGION_TINT,
    WHITE,
    shade,
)
from engine.neotopia.render.panels import regions_of
from engine.neotopia.render.words import tr

LABEL_W = 170
ROW_H = 62
ROW_GAP = 6


def tracks_height(board: Board) -> int:
    n = len(regions_of(board))
    return n * ROW_H + (n - 1) * ROW_GAP


def track_rows(box: Box, board: Board) -> tuple[Box, ...]:
    """One row per region, in the board's region order."""
    x0, y0, x1, _ = box
    return tuple((x0, y0 + i * (ROW_H + ROW_GAP), x1, y0 + i * (ROW_H + ROW_GAP) + ROW_H)
                 for i in range(len(regions_of(board))))


def draw_tracks(c: Canvas, box: Box, board: Board) -> None:
    for row, region in zip(track_rows(box, board), regions_of(board), strict=True):
        track_row(c, row, board, region)


def space_box(box: Box, board: Board, space: int) -> Box:
    x0, y0, x1, y1 = box
    n = board.track_length + 1
    w = (x1 - x0 - LABEL_W) / n
    left = x0 + LABEL_W + space * w
    return (round(left), y0, round(left + w), y1)


def track_space(score: int, length: int = 20) -> int:
    """Where a marker stands: up to ``length`` on the first side, then past ``length``
    on the "20" side from the start again (22 stands on 2)."""
    return score if score <= length else (score - 1) % length + 1


def track_row(c: Canvas, box: Box, board: Board, region: str) -> None:
    x0, y0, _x1, y1 = box
    edge = REGION_EDGE.get(region, MUTED)
    c.d.rounded_rectangle((x0, y0, x0 + LABEL_W - 6, y1), radius=8,
                          fill=REGION_TINT.get(region, PANEL), outline=edge, width=2)
    letter = REGION_LETTER.get(region, "?")
    c.text((x0 + 10, y0 + 15), f"{letter} {tr(REGION_NAME.get(region, region))}", 17,
           shade(edge, 0.45), anchor="lm", bold=True)
    top, left = board.piles.get(region, (None, 0))
    ly = y0 + 40
    if top is not None and left:
        pieces.token(c, x0 + 19, ly, 10, top)
        c.text((x0 + 33, ly), f"x{left}", 14, INK, anchor="lm", bold=True)
    else:
        c.text((x0 + 10, ly), tr("pile empty"), 13, MUTED, anchor="lm")
    last = board.last_project.get(region)
    if last:
        label = tr("last {card}", card=last)
        c.text((x0 + LABEL_W - 14, ly), label, 14, INK, anchor="rm")
    for space in range(board.track_length + 1):
        sx0, sy0, sx1, sy1 = space_box(box, board, space)
        prize = space in board.thresholds
        fill = (255, 232, 160) if prize else PANEL
        c.d.rectangle((sx0, sy0, sx1 - 2, sy1), fill=fill, outline=edge, width=1)
        c.text((sx0 + 3, sy0 + 1), str(space), 13, INK if prize else MUTED, anchor="la",
               bold=prize)
        if prize and top is not None and left:
            pieces.token(c, sx1 - 10, sy0 + 9, 6, top)
    here: dict[int, list[int]] = {}
    for p in board.players:
        here.setdefault(track_space(p.scores.get(region, 0), board.track_length),
                        []).append(p.seat)
    for space, seats in here.items():
        _markers(c, space_box(box, board, space), board, region, seats)


def marker_spots(box: Box, count: int) -> list[tuple[float, float, float]]:
    """Centres and diameter of ``count`` markers sharing a space: one big marker alone,
    two one above the other, three or four in a square, in seat order."""
    sx0, sy0, sx1, sy1 = box
    w, h = sx1 - sx0 - 2, sy1 - sy0 - 16
    left, top = sx0, sy0 + 15
    if count == 1:
        d = min(28.0, w - 4.0, h - 2.0)
        return [(left + w / 2, top + h / 2, d)]
    if count == 2:
        d = min(w - 4.0, (h - 2) / 2)
        return [(left + w / 2, top + d / 2 + i * (d + 1), d) for i in range(2)]
    d = min((w - 3) / 2, (h - 2) / 2)
    return [(left + 1 + d / 2 + (i % 2) * (d + 1), top + d / 2 + (i // 2) * (d + 1), d)
            for i in range(count)]


def _markers(c: Canvas, box: Box, board: Board, region: str, seats: list[int]) -> None:
    for seat, (cx, cy, d) in zip(seats, marker_spots(box, len(seats)), strict=True):
        p = board.players[seat]
        pieces.badge(c, cx, cy, d, p.colour)
        if p.scores.get(region, 0) > board.track_length:
            r = d / 2 + 1
            c.d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=WHITE, width=2)
