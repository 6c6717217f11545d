"""The three score tracks: spaces 0 to 20, the 7, 13 and 18 spaces (yellow) that give a
token from the region's pile while it lasts, and one marker per player; markers sharing
a space stand one under the other in seat order (the row grows), so none hides another.
A marker past 20 shows its "20" side: a white ring, and the panel gives the exact
score."""

from __future__ import annotations

from engine.neotopia.render import pieces
from engine.neotopia.render.canvas import MIN_TEXT, Box, Canvas, clip
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

LABEL_W = 236
NUMBER_H = 24  # the space's number along the top of each space
MARKER_D = 30  # a marker's diameter: its letter reads 11 px at 550 wide
ROW_GAP = 6


def _sharing(board: Board, region: str) -> int:
    """The most markers standing on one space of the region's track."""
    count: dict[int, int] = {}
    for p in board.players:
        space = track_space(p.scores.get(region, 0), board.track_length)
        count[space] = count.get(space, 0) + 1
    return max(count.values(), default=1)


def row_height(board: Board, region: str) -> int:
    """Markers sharing a space stand one under the other: the row grows to hold them."""
    return max(62, NUMBER_H + 4 + _sharing(board, region) * (MARKER_D + 2))


def tracks_height(board: Board) -> int:
    rows = track_rows((0, 0, 0, 0), board)
    return rows[-1][3] if rows else 0


def track_rows(box: Box, board: Board) -> tuple[Box, ...]:
    """One row per region, in the board's region order."""
    x0, y0, x1, _ = box
    rows: list[Box] = []
    y = y0
    for region in regions_of(board):
        h = row_height(board, region)
        rows.append((x0, y, x1, y + h))
        y += h + ROW_GAP
    return tuple(rows)


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
    name = f"{letter} {tr(REGION_NAME.get(region, region))}"
    c.text((x0 + 10, y0 + 16), clip(name, LABEL_W - 24, MIN_TEXT, bold=True), MIN_TEXT,
           shade(edge, 0.45), anchor="lm", bold=True)
    top, left = board.piles.get(region, (None, 0))
    ly = y0 + 46
    x = x0 + 10
    if top is not None and left:
        pieces.token(c, x0 + 24, ly, 14, top, minimum=MIN_TEXT)
        x = x0 + 44 + c.text((x0 + 44, ly), f"x{left}", MIN_TEXT, INK, anchor="lm", bold=True)
    else:
        x += c.text((x0 + 10, ly), tr("pile empty"), MIN_TEXT, MUTED, anchor="lm")
    last = board.last_project.get(region)
    if last:
        label = clip(tr("last {card}", card=last), x0 + LABEL_W - 14 - x - 8, MIN_TEXT)
        c.text((x0 + LABEL_W - 14, ly), label, MIN_TEXT, INK, anchor="rm")
    for space in range(board.track_length + 1):
        sx0, sy0, sx1, sy1 = space_box(box, board, space)
        prize = space in board.thresholds
        fill = (255, 232, 160) if prize else PANEL
        c.d.rectangle((sx0, sy0, sx1 - 2, sy1), fill=fill, outline=edge, width=1)
        # The yellow spaces give the pile's top token (shown in the label column).
        c.text(((sx0 + sx1 - 2) / 2, sy0 + NUMBER_H / 2 + 1), str(space), MIN_TEXT,
               INK if prize else MUTED, anchor="mm", bold=prize)
    here: dict[int, list[int]] = {}
    for p in board.players:
        here.setdefault(track_space(p.scores.get(region, 0), board.track_length),
                        []).append(p.seat)
    for space, seats in here.items():
        _markers(c, space_box(box, board, space), board, region, seats)


def marker_spots(box: Box, count: int) -> list[tuple[float, float, float]]:
    """Centres and diameter of ``count`` markers sharing a space: one under the other,
    in seat order, under the space's number."""
    sx0, sy0, sx1, _sy1 = box
    w = sx1 - sx0 - 2
    d = float(min(MARKER_D, w - 4))
    top = sy0 + NUMBER_H + 2
    return [(sx0 + w / 2, top + d / 2 + i * (d + 2), d) for i in range(count)]


def _markers(c: Canvas, box: Box, board: Board, region: str, seats: list[int]) -> None:
    for seat, (cx, cy, d) in zip(seats, marker_spots(box, len(seats)), strict=True):
        p = board.players[seat]
        pieces.badge(c, cx, cy, d, p.colour, minimum=MIN_TEXT)
        if p.scores.get(region, 0) > board.track_length:
            r = d / 2 + 1
            c.d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=WHITE, width=2)
