"""An animated GIF of every city, one frame per round, for the end-of-game message."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from engine.canvas import encode_gif
from engine.quadropolis.render import icons
from engine.quadropolis.render.canvas import Canvas
from engine.quadropolis.render.city import CityLayout, city_layout, draw_city
from engine.quadropolis.render.model import Board
from engine.quadropolis.render.palette import BACKGROUND, HIGHLIGHT, INK, PANEL, WHITE
from engine.quadropolis.render.read import read_board, require_public
from engine.quadropolis.render.words import language, tr

View = dict[str, Any]

BAND_H = 44
MARGIN = 10
CITY_HEAD = 30
FRAME_MS = 900
LAST_MS = 3500


def render_timelapse(views: Sequence[View], *, locale: str = "en") -> bytes:
    """GIF bytes: every city after each of ``views`` (public views, one per round); the
    labels in ``locale``."""
    if not views:
        raise ValueError("render_timelapse needs at least one view")
    for v in views:
        require_public(v, "render_timelapse")
    boards = [read_board(v) for v in views]
    size, cities = timelapse_layout(boards[-1])
    with language(locale):
        frames = [_frame(b, cities, size) for b in boards]
    return encode_gif(frames, FRAME_MS, LAST_MS)


def _pitch(board: Board) -> int:
    return 48 if board.expert else 56


def timelapse_layout(board: Board) -> tuple[tuple[int, int], tuple[CityLayout, ...]]:
    """Frame size and the place of each city, shared by every frame (for tests too)."""
    pitch = _pitch(board)
    probe = city_layout(0, 0, pitch, board.city_rows, board.city_cols)
    cw, ch = probe.width, probe.height + CITY_HEAD
    cols = 2 if len(board.players) > 1 else 1
    rows = (len(board.players) + cols - 1) // cols
    width = cols * cw + (cols + 1) * MARGIN
    height = BAND_H + rows * ch + (rows + 1) * MARGIN
    cities = []
    for i, _ in enumerate(board.players):
        x = MARGIN + (i % cols) * (cw + MARGIN)
        y = BAND_H + MARGIN + (i // cols) * (ch + MARGIN) + CITY_HEAD
        cities.append(city_layout(x, y, pitch, board.city_rows, board.city_cols))
    return (width, height), tuple(cities)


def _frame(board: Board, cities: Sequence[CityLayout], size: tuple[int, int]) -> Image.Image:
    width, height = size
    c = Canvas.new(width, height, BACKGROUND)
    c.d.rectangle((0, 0, width, BAND_H), fill=INK)
    cy = BAND_H // 2
    label = tr("Final cities") if board.over else tr("Start of round {r}/{n}", r=board.round,
                                                      n=board.rounds)
    x = MARGIN + c.text((MARGIN + 4, cy), label, 22, HIGHLIGHT, anchor="lm", bold=True) + 20
    c.text((x, cy), "Quadropolis", 18, WHITE, anchor="lm", bold=True)
    for lay, p in zip(cities, board.players, strict=True):
        x0 = lay.left - lay.margin
        y0 = lay.top - (2 * lay.margin if board.expert else lay.margin) - CITY_HEAD
        c.d.rounded_rectangle((x0, y0, x0 + lay.width, y0 + CITY_HEAD - 4), radius=6, fill=PANEL)
        icons.badge(c, x0 + 14, y0 + CITY_HEAD // 2 - 2, 22, p.color)
        tx = x0 + 32
        icons.meeple(c, tx + 8, y0 + CITY_HEAD // 2 - 2, 18)
        tx += 18 + c.text((tx + 18, y0 + CITY_HEAD // 2 - 2), str(p.inhabitants), 16, INK,
                          anchor="lm", bold=True) + 10
        icons.barrel(c, tx + 8, y0 + CITY_HEAD // 2 - 2, 18)
        c.text((tx + 18, y0 + CITY_HEAD // 2 - 2), str(p.energy), 16, INK, anchor="lm", bold=True)
        draw_city(c, board, p, lay)
    return c.im
