"""An animated GIF of the city, one frame per public view, for the end-of-game message."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.canvas import encode_gif
from engine.neotopia.render import pieces
from engine.neotopia.render.board import round_label
from engine.neotopia.render.canvas import Canvas
from engine.neotopia.render.geometry import HexLayout, fit_layout
from engine.neotopia.render.hexboard import draw_city
from engine.neotopia.render.model import Board, View, read_board, require_public
from engine.neotopia.render.palette import BACKGROUND, HIGHLIGHT, INK, WHITE
from engine.neotopia.render.words import language, tr

FRAME_W = 640  # a GIF this size stays small and Discord shows it whole
CITY_H = 580
BAND_H = 44
MARGIN = 8
FRAME_MS = 500
LAST_MS = 3000


def render_timelapse(views: Sequence[View], *, locale: str = "en") -> bytes:
    """GIF bytes: the city after each of ``views`` (public views, e.g. one per round); the
    labels in ``locale``."""
    if not views:
        raise ValueError("render_timelapse needs at least one view")
    for v in views:
        require_public(v, "render_timelapse")
    boards = [read_board(v) for v in views]
    size, city = _layout(boards[-1])
    with language(locale):
        frames = [_frame(b, city, size) for b in boards]
    return encode_gif(frames, FRAME_MS, LAST_MS)


def timelapse_layout(views: Sequence[View]) -> tuple[tuple[int, int], HexLayout]:
    """Frame size and city placement, the same for every frame (the board never moves)."""
    if not views:
        raise ValueError("render_timelapse needs at least one view")
    return _layout(read_board(views[-1]))


def _layout(board: Board) -> tuple[tuple[int, int], HexLayout]:
    area = (MARGIN, BAND_H + MARGIN, FRAME_W - MARGIN, BAND_H + MARGIN + CITY_H)
    return (FRAME_W, BAND_H + CITY_H + 2 * MARGIN), fit_layout(board.geometry, area)


def _frame(board: Board, city: HexLayout, size: tuple[int, int]) -> Image.Image:
    width, height = size
    c = Canvas.new(width, height, BACKGROUND)
    c.d.rectangle((0, 0, width, BAND_H), fill=INK)
    cy = BAND_H // 2
    label = tr("Final city") if board.phase == "over" else round_label(board)
    x = MARGIN + 4 + c.text((MARGIN + 4, cy), label, 20, HIGHLIGHT, anchor="lm", bold=True) + 16
    for p in board.players:
        if x > width - 80:
            break
        pieces.badge(c, x + 12, cy, 24, p.colour, on_dark=True)
        total = sum(p.scores.values())
        x += 28 + c.text((x + 28, cy), str(total), 18, WHITE, anchor="lm", bold=True) + 16
    draw_city(c, board, city, numbers=False, labels=False)
    return c.im
