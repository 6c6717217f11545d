"""The public board image: header, construction site, side panel, legend, and every
player's city."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.quadropolis.render import icons
from engine.quadropolis.render.canvas import Box, Canvas, clip
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
from engine.quadropolis.render.panel import draw_panel, name_line, panel_city, panel_size
from engine.quadropolis.render.read import read_board, require_public
from engine.quadropolis.render.site import SiteLayout, draw_site, site_layout
from engine.quadropolis.render.tiles import draw_back, draw_tile
from engine.quadropolis.render.words import language, tr

View = dict[str, Any]

WIDTH = 760
MARGIN = 12
HEADER_H = 52
LEGEND_ROW = 34
LEGEND_PER_ROW = 4
SITE_PITCH = 80


def city_pitch(board: Board) -> int:
    """As large as two panels side by side allow (the expert city is one column wider)."""
    return 56 if board.expert else 66


@dataclass(frozen=True)
class BoardLayout:
    size: tuple[int, int]
    site: SiteLayout
    side: Box
    legend: Box
    panels: tuple[Box, ...]
    cities: tuple[CityLayout, ...]


def board_layout(board: Board) -> BoardLayout:
    """Where render_board puts everything, for drawing and for tests."""
    site = site_layout(MARGIN, HEADER_H + MARGIN, SITE_PITCH)
    side = (MARGIN + site.size + MARGIN, HEADER_H + MARGIN, WIDTH - MARGIN,
            HEADER_H + MARGIN + site.size)
    rows = -(-len(legend_items(board)) // LEGEND_PER_ROW)
    legend = (MARGIN, side[3] + MARGIN, WIDTH - MARGIN, side[3] + MARGIN + 8 + rows * LEGEND_ROW)
    pitch = city_pitch(board)
    _, ph = panel_size(board, pitch)
    pw = (WIDTH - 3 * MARGIN) // 2
    top = legend[3] + MARGIN
    panels: list[Box] = []
    for i, _ in enumerate(board.players):
        x = MARGIN + (i % 2) * (pw + MARGIN)
        y = top + (i // 2) * (ph + MARGIN)
        panels.append((x, y, x + pw, y + ph))
    cities = tuple(panel_city(board, b, pitch) for b in panels)
    rows = (len(panels) + 1) // 2
    height = top + rows * (ph + MARGIN)
    return BoardLayout((WIDTH, height), site, side, legend, tuple(panels), cities)


def render_board(view: View, names: Sequence[str] | None = None, *,
                 locale: str = "en") -> bytes:
    """PNG of the public board. Refuses a seat's view: what is posted holds no secret.

    ``names`` are the seats' display names, drawn next to their colours; the labels are
    in ``locale``.
    """
    require_public(view, "render_board")
    with language(locale):
        return draw_board(read_board(view, names)).png()


def draw_board(board: Board) -> Canvas:
    lay = board_layout(board)
    c = Canvas.new(*lay.size, BACKGROUND)
    draw_header(c, board, lay.size[0])
    draw_site(c, board, lay.site)
    draw_side(c, board, lay.side)
    draw_legend(c, lay.legend, board)
    for box, p in zip(lay.panels, board.players, strict=True):
        draw_panel(c, board, p, box, city_pitch(board), current=p.seat == board.current)
    return c


def round_label(board: Board) -> str:
    if board.over:
        return tr("Game over")
    return tr("Round {r}/{n} · turn {t}/4", r=board.round, n=board.rounds, t=board.turn)


def draw_header(c: Canvas, board: Board, width: int, *, title: str = "Quadropolis") -> None:
    c.d.rectangle((0, 0, width, HEADER_H), fill=INK)
    cy = HEADER_H // 2
    x = MARGIN + 4
    x += c.text((x, cy), title, 26, WHITE, anchor="lm", bold=True) + 16
    label = round_label(board)
    w = c.text((x + 10, cy), label, 20, INK, anchor="lm", bold=True)
    c.d.rounded_rectangle((x, cy - 16, x + w + 20, cy + 16), radius=8, fill=HIGHLIGHT)
    c.text((x + 10, cy), label, 20, INK, anchor="lm", bold=True)
    mode = tr("Expert") if board.expert else tr("Classic")
    if board.squares:
        mode += tr(" + Squares")
    c.text((width - MARGIN - 4, cy), mode, 18, (230, 226, 216), anchor="rm", bold=True)


def draw_side(c: Canvas, board: Board, box: Box) -> None:
    """Whose turn and what they took, the Mayor, the expert pool, the last move."""
    x0, y0, x1, y1 = box
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    x = x0 + 10
    y = y0 + 18
    width = x1 - x0 - 20
    if board.current is not None and not board.over:
        c.text((x, y), tr("To play"), 16, MUTED, anchor="lm", bold=True)
        y += 25
        name_line(c, board, board.players[board.current], x, y, width, 17)
        y += 28
        if board.taken is not None:
            t = board.taken
            draw_tile(c, (x, y, x + 72, y + 72), t.tile)
            c.text((x + 82, y + 14), tr("taken with"), 16, MUTED, anchor="lm")
            c.text((x + 82, y + 38), f"{t.architect}@{t.slot}", 20, INK, anchor="lm", bold=True)
            c.text((x + 82, y + 60), tr("to place"), 16, MUTED, anchor="lm")
            y += 84
        y += 6
    if board.mayor is not None:
        title = tr("Mayor: first next round") if not board.over else tr("Mayor")
        c.text((x, y), clip(title, width, 16, bold=True), 16, MUTED, anchor="lm", bold=True)
        y += 25
        name_line(c, board, board.players[board.mayor], x, y, width, 17)
        y += 34
    if board.expert and not board.over:
        c.text((x, y), tr("Architects in the pool"), 16, MUTED, anchor="lm", bold=True)
        y += 28
        for row in ((1, 2, 3), (4, 5)):
            ax = x
            for n in row:
                icons.architect(c, ax + 13, y, 30, n, None)
                ax += 28 + c.text((ax + 28, y), f"×{board.pool.count(n)}", 18, INK,
                                  anchor="lm", bold=True) + 14
            y += 36
    if board.last:
        c.text((x, y1 - 44), tr("Last move"), 16, MUTED, anchor="lm", bold=True)
        c.text((x, y1 - 20), clip(board.last, width, 17), 17, INK, anchor="lm")


def legend_items(board: Board) -> list[tuple[str, str]]:
    items = [(k, tr(KIND_NAME[k])) for k in KINDS
             if board.expert or k not in ("office", "monument")]
    if board.squares:
        items.append(("square", tr("square (park)")))
    return [*items, ("back", tr("face-down tile")), ("urbanist", tr("Urbanist"))]


def draw_legend(c: Canvas, box: Box, board: Board) -> None:
    """A sample of each kind with its name, then the other marks."""
    x0, y0, x1, _y1 = box
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    col_w = (x1 - x0 - 16) // LEGEND_PER_ROW
    s = LEGEND_ROW - 8
    for i, (key, words) in enumerate(legend_items(board)):
        x = x0 + 8 + (i % LEGEND_PER_ROW) * col_w
        y = y0 + 4 + (i // LEGEND_PER_ROW) * LEGEND_ROW + 4
        if key == "back":
            draw_back(c, (x, y, x + s, y + s))
        elif key == "urbanist":
            icons.urbanist(c, x + s / 2, y + s / 2, s)
        elif key == "square":
            draw_tile(c, (x, y, x + s, y + s), Tile("", "park", square=True), details=False)
        else:
            draw_tile(c, (x, y, x + s, y + s), Tile("", key), details=False)
        c.text((x + s + 8, y + s / 2), clip(words, col_w - s - 10, 17), 17, INK, anchor="lm")
