"""The board posted after every move: header, the grid of towers, each player's pieces in
hand with their score so far, and the legend."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.skybridge.render.canvas import MARGIN, WIDTH, Canvas
from engine.skybridge.render.layout import Layout
from engine.skybridge.render.palette import BACKGROUND, RULE
from engine.skybridge.render.panels import draw_hands, draw_legend, hand_height, legend_height
from engine.skybridge.render.towers import draw_grid, draw_header
from engine.skybridge.render.words import language


def render_board(view: Mapping[str, Any], *, names: Sequence[str] | None = None,
                 locale: str = "en") -> bytes:
    """The board of a Skybridge view as a PNG: towers, bridges, roofs, pieces in hand,
    scores so far, whose turn; its words in ``locale``."""
    with language(locale):
        return board_canvas(view, names, hands=True).png()


def board_canvas(view: Mapping[str, Any], names: Sequence[str] | None, *, hands: bool,
                 extra: int = 0) -> Canvas:
    """The board drawn on a canvas ``extra`` pixels taller than it needs, for the final
    image to write its scores under (``hands``: with the pieces in hand)."""
    layout = Layout.for_view(view)
    over = bool(view.get("over"))
    y = layout.board_bottom + 10
    height = y + (hand_height(view) if hands else 0) + legend_height(over) + 6
    c = Canvas.new(WIDTH, height + extra, BACKGROUND)
    draw_header(c, view, names)
    draw_grid(c, layout, view)
    if hands:
        draw_hands(c, y, view, names, view["score_estimate"]["totals"])
        y += hand_height(view)
    c.d.line((MARGIN, y, WIDTH - MARGIN, y), fill=RULE, width=1)
    draw_legend(c, y + 3, over)
    return c


def board_height(view: Mapping[str, Any], *, hands: bool) -> int:
    layout = Layout.for_view(view)
    return (layout.board_bottom + 10 + (hand_height(view) if hands else 0)
            + legend_height(bool(view.get("over"))) + 6)
