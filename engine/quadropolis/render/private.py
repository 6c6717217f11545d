"""A seat's image, sent by DM: the site, what the seat may play, and its city large.

The construction site is the same as on the public board; beside it, the seat's
resources and the architects it may still play (classic: its own; expert: the pool).
Below, the seat's city at a size where every printed detail reads. While the seat has
a tile to place, the spaces where it may go are outlined.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.quadropolis.render import icons
from engine.quadropolis.render.board import (
    HEADER_H,
    LEGEND_PER_ROW,
    LEGEND_ROW,
    MARGIN,
    SITE_PITCH,
    WIDTH,
    draw_header,
    draw_legend,
    draw_side,
    legend_items,
)
from engine.quadropolis.render.canvas import Box, Canvas
from engine.quadropolis.render.city import CityLayout, city_layout, draw_city
from engine.quadropolis.render.model import Board, Player
from engine.quadropolis.render.palette import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    player_fill,
)
from engine.quadropolis.render.panel import counts, name_line
from engine.quadropolis.render.read import read_board
from engine.quadropolis.render.site import SiteLayout, draw_site, site_layout
from engine.quadropolis.render.words import language, tr

View = dict[str, Any]

CITY_HEAD_H = 46


@dataclass(frozen=True)
class PrivateLayout:
    size: tuple[int, int]
    site: SiteLayout
    side: Box
    city_panel: Box
    city: CityLayout
    legend: Box


def private_layout(board: Board) -> PrivateLayout:
    site = site_layout(MARGIN, HEADER_H + MARGIN, SITE_PITCH)
    side = (MARGIN + site.size + MARGIN, HEADER_H + MARGIN, WIDTH - MARGIN,
            HEADER_H + MARGIN + site.size)
    pitch = 104 if board.expert else 124
    probe = city_layout(0, 0, pitch, board.city_rows, board.city_cols)
    top = side[3] + MARGIN
    panel = (MARGIN, top, WIDTH - MARGIN, top + CITY_HEAD_H + probe.height + MARGIN)
    city = city_layout((WIDTH - probe.width) // 2, top + CITY_HEAD_H, pitch, board.city_rows,
                       board.city_cols)
    rows = -(-len(legend_items(board)) // LEGEND_PER_ROW)
    legend = (MARGIN, panel[3] + MARGIN, WIDTH - MARGIN,
              panel[3] + MARGIN + 8 + rows * LEGEND_ROW)
    return PrivateLayout((WIDTH, legend[3] + MARGIN), site, side, panel, city, legend)


def render_private(view: View, names: Sequence[str] | None = None, *,
                   locale: str = "en") -> bytes:
    """PNG for one seat (``view(state, seat)``): refuses the public view; the labels in
    ``locale``."""
    if view.get("seat") is None:
        raise ValueError("render_private takes a seat's view: view(state, seat)")
    with language(locale):
        return _private(view, names)


def _private(view: View, names: Sequence[str] | None) -> bytes:
    board = read_board(view, names)
    seat = int(view["seat"])
    me = board.players[seat]
    lay = private_layout(board)
    c = Canvas.new(*lay.size, BACKGROUND)
    draw_header(c, board, lay.size[0])
    draw_site(c, board, lay.site)
    draw_side(c, board, lay.side)
    _city_panel(c, board, me, lay)
    taken = view.get("taken") or {}
    if board.taken is not None and board.taken.seat == seat:
        for text in taken.get("options") or ():
            cell = _cell(str(text))
            if cell is not None:
                _outline(c, lay.city, cell)
    draw_legend(c, lay.legend, board)
    return c.png()


def _city_panel(c: Canvas, board: Board, me: Player, lay: PrivateLayout) -> None:
    x0, y0, x1, y1 = lay.city_panel
    c.d.rounded_rectangle(lay.city_panel, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    c.d.rounded_rectangle((x0, y0, x0 + 10, y1), radius=4, fill=player_fill(me.color),
                          outline=INK)
    cy = y0 + CITY_HEAD_H // 2 + 2
    x = name_line(c, board, me, x0 + 20, cy, 300, 20)
    x = counts(c, me, x + 14, cy, show_architects=False, size=19)
    if not board.over:
        if board.expert:
            c.text((x1 - 12, cy), tr("architects: the shared pool"), 16, MUTED, anchor="rm")
        else:
            held = me.architects
            label = tr("your architects:") if held else tr("all your architects are played")
            ax = x1 - 12 - len(held) * 32
            c.text((ax - 8, cy), label, 16, MUTED, anchor="rm")
            for n in held:
                icons.architect(c, ax + 15, cy, 36, n, me.color, letter=False)
                ax += 32
    draw_city(c, board, me, lay.city, details=True)


def _cell(text: str) -> tuple[int, int] | None:
    """``r3c1`` -> (2, 0); anything else (``discard``) -> None."""
    if not (text.startswith("r") and "c" in text):
        return None
    row, _, col = text[1:].partition("c")
    if not (row.isdigit() and col.isdigit()):
        return None
    return int(row) - 1, int(col) - 1


def _outline(c: Canvas, city: CityLayout, cell: tuple[int, int]) -> None:
    x0, y0, x1, y1 = city.cell_box(*cell)
    w = max(4, city.pitch // 20)
    c.d.rounded_rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), radius=8, outline=HIGHLIGHT, width=w)
