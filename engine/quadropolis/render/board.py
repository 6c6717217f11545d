"""The public board image: header, construction site, legend, and every player's city."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.quadropolis.render import icons
from engine.quadropolis.render.canvas import Box, Canvas, clip_text
from engine.quadropolis.render.city import CityLayout
from engine.quadropolis.render.model import Board, Tile
from engine.quadropolis.render.palette import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    KIND_NAME,
    KINDS,
    MUTED,
    PANEL,
    PANEL_EDGE,
    WHITE,
)
from engine.quadropolis.render.panel import draw_panel, name_line, panel_size
from engine.quadropolis.render.read import read_board, require_public
from engine.quadropolis.render.site import SiteLayout, draw_site, site_layout
from engine.quadropolis.render.tiles import draw_back, draw_tile

View = dict[str, Any]

WIDTH = 760
MARGIN = 12
HEADER_H = 52
SITE_PITCH = 80
CITY_PITCH = 56


@dataclass(frozen=True)
class BoardLayout:
    size: tuple[int, int]
    site: SiteLayout
    side: Box
    panels: tuple[Box, ...]
    cities: tuple[CityLayout, ...]


def board_layout(board: Board) -> BoardLayout:
    site = site_layout(MARGIN, HEADER_H + MARGIN, SITE_PITCH)
    side = (MARGIN + site.size + MARGIN, HEADER_H + MARGIN, WIDTH - MARGIN,
            HEADER_H + MARGIN + site.size)
    pw, ph = panel_size(board, CITY_PITCH)
    pw = (WIDTH - 3 * MARGIN) // 2
    top = side[3] + MARGIN
    panels: list[Box] = []
    for i, _ in enumerate(board.players):
        x = MARGIN + (i % 2) * (pw + MARGIN)
        y = top + (i // 2) * (ph + MARGIN)
        panels.append((x, y, x + pw, y + ph))
    from engine.quadropolis.render.panel import panel_city

    cities = tuple(panel_city(board, b, CITY_PITCH) for b in panels)
    rows = (len(panels) + 1) // 2
    height = top + rows * (ph + MARGIN)
    return BoardLayout((WIDTH, height), site, side, tuple(panels), cities)


def render_board(view: View, names: Sequence[str] | None = None) -> bytes:
    """PNG of the public board. Refuses a seat's view: what is posted holds no secret."""
    require_public(view, "render_board")
    board = read_board(view, names)
    return draw_board(board).png()


def draw_board(board: Board) -> Canvas:
    lay = board_layout(board)
    c = Canvas.new(*lay.size, BACKGROUND)
    draw_header(c, board, lay.size[0])
    draw_site(c, board, lay.site)
    draw_side(c, board, lay.side)
    for box, p in zip(lay.panels, board.players, strict=True):
        draw_panel(c, board, p, box, CITY_PITCH, current=p.seat == board.current)
    return c


def round_label(board: Board) -> str:
    if board.over:
        return "Game over"
    return f"Round {board.round}/{board.rounds} · turn {board.turn}/4"


def draw_header(c: Canvas, board: Board, width: int, *, title: str = "Quadropolis") -> None:
    c.d.rectangle((0, 0, width, HEADER_H), fill=INK)
    cy = HEADER_H // 2
    x = MARGIN + 4
    x += c.text((x, cy), title, 26, WHITE, anchor="lm", bold=True) + 16
    label = round_label(board)
    w = c.text((x + 10, cy), label, 20, INK, anchor="lm", bold=True)
    c.d.rounded_rectangle((x, cy - 16, x + w + 20, cy + 16), radius=8, fill=HIGHLIGHT)
    c.text((x + 10, cy), label, 20, INK, anchor="lm", bold=True)
    x += w + 34
    mode = "Expert" if board.expert else "Classic"
    if board.squares:
        mode += " + Squares"
    c.text((width - MARGIN - 4, cy), mode, 18, (230, 226, 216), anchor="rm", bold=True)


def draw_side(c: Canvas, board: Board, box: Box) -> None:
    """Whose turn, the first player, the expert pool, and a legend of the marks."""
    x0, y0, x1, y1 = box
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    x = x0 + 10
    y = y0 + 18
    width = x1 - x0 - 20
    if board.current is not None and not board.over:
        c.text((x, y), "To play", 16, MUTED, anchor="lm", bold=True)
        y += 24
        name_line(c, board, board.players[board.current], x, y, width, 17)
        y += 32
    if board.first is not None:
        c.text((x, y), "First player (Mayor)", 16, MUTED, anchor="lm", bold=True)
        y += 24
        name_line(c, board, board.players[board.first], x, y, width, 17)
        y += 32
    if board.expert and not board.over:
        c.text((x, y), "Architects in the pool", 16, MUTED, anchor="lm", bold=True)
        y += 26
        ax = x
        for n in range(1, 6):
            count = board.pool.count(n)
            icons.architect(c, ax + 11, y, 26, n, None)
            ax += 24 + c.text((ax + 24, y), f"×{count}", 16, INK, anchor="lm", bold=True) + 6
        y += 30
    y += 4
    c.d.line([(x, y), (x1 - 10, y)], fill=PANEL_EDGE, width=2)
    y += 8
    draw_legend(c, (x, y, x1 - 10, y1 - 8), board.expert)


def draw_legend(c: Canvas, box: Box, expert: bool) -> None:
    """A sample of each kind with its name, then the other marks, in one column."""
    x0, y0, x1, y1 = box
    kinds = [k for k in KINDS if expert or k not in ("office", "monument")]
    rows = len(kinds) + 2
    step = min(30, (y1 - y0) // rows)
    s = step - 4
    y = y0
    for kind in kinds:
        draw_tile(c, (x0, y, x0 + s, y + s), Tile("", kind), details=False)
        c.text((x0 + s + 8, y + s / 2), KIND_NAME[kind], 16, INK, anchor="lm")
        y += step
    draw_back(c, (x0, y, x0 + s, y + s))
    c.text((x0 + s + 8, y + s / 2), clip_text("face down", x1 - x0 - s - 8, 16), 16, INK,
           anchor="lm")
    y += step
    icons.urbanist(c, x0 + s / 2, y + s / 2, s)
    c.text((x0 + s + 8, y + s / 2), "Urbanist", 16, INK, anchor="lm")
