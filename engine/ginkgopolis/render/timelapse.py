"""An animated GIF of the city, one frame per round, for the end-of-game message."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from engine.canvas import encode_gif
from engine.ginkgopolis.render.canvas import Canvas
from engine.ginkgopolis.render.city import draw_city
from engine.ginkgopolis.render.layout import (
    CityLayout,
    fit_pitch,
    place_city,
    require_public,
    views_bounds,
)
from engine.ginkgopolis.render.palette import BACKGROUND, HIGHLIGHT, INK, WHITE
from engine.ginkgopolis.render.panel import badge
from engine.ginkgopolis.render.words import language, tr

View = dict[str, Any]
Outcome = dict[str, Any]  # Outcome.to_json()

FRAME_MAX = 640  # pixels; a GIF this size stays small and Discord shows it whole
BAND_H = 44
MARGIN = 10
FRAME_MS = 700
LAST_MS = 3000
TITLE_FONT = 22
BAND_FONT = 18  # the scores: 15 px and more at 550 wide (frames are at most 660 wide)


def render_timelapse(views: Sequence[View], outcome: Outcome | None = None, *,
                     locale: str = "en") -> bytes:
    """GIF bytes: the city after each of ``views`` (public views, one per round). With the
    game's ``outcome`` (``Outcome.to_json()``), the last frame shows the final scores
    rather than the success-point tokens."""
    if not views:
        raise ValueError("render_timelapse needs at least one view")
    for v in views:
        require_public(v, "render_timelapse")
    size, city = timelapse_layout(views)
    totals = _totals(outcome)
    with language(locale):
        frames = [_frame(v, city, size, totals if i == len(views) - 1 else None)
                  for i, v in enumerate(views)]
    return encode_gif(frames, FRAME_MS, LAST_MS)


def timelapse_layout(views: Sequence[View]) -> tuple[tuple[int, int], CityLayout]:
    """Frame size and city placement shared by every frame (for drawing and tests).

    One size and one scale for the whole film, so the city does not jump.
    """
    bounds = views_bounds(views)
    pitch = fit_pitch(bounds, FRAME_MAX, FRAME_MAX, lo=24, hi=96)
    width = max(bounds.cols * pitch + 2 * MARGIN, 420)
    height = bounds.rows * pitch + 2 * MARGIN + BAND_H
    area = (MARGIN, BAND_H + MARGIN, width - MARGIN, height - MARGIN)
    return (width, height), place_city(bounds, area, pitch)


def _totals(outcome: Outcome | None) -> dict[int | None, int] | None:
    """Final score by seat (None: Hal)."""
    if not outcome:
        return None
    return {s.get("seat"): int(s["total"]) for s in outcome.get("standings", [])}


def _frame(view: View, city: CityLayout, size: tuple[int, int],
           totals: dict[int | None, int] | None = None) -> Image.Image:
    width, height = size
    c = Canvas.new(width, height, BACKGROUND)
    c.d.rectangle((0, 0, width, BAND_H), fill=INK)
    cy = BAND_H // 2
    final = totals is not None and view.get("phase") == "over"
    label = tr("Final scores") if final else (
        tr("Final city") if view.get("phase") == "over" else tr("Round {n}",
                                                                 n=view.get("round")))
    x = MARGIN + c.text((MARGIN, cy), label, TITLE_FONT, HIGHLIGHT, anchor="lm",
                        bold=True) + 16
    for p in view["players"]:
        if x > width - 70:
            break
        badge(c, x + 13, cy, 26, str(p["color"]), on_dark=True)
        sp = "?" if p.get("sp") is None else str(p["sp"])
        if final and totals is not None:
            sp = str(totals.get(None if p.get("hal") else p.get("seat"), sp))
        x += 30 + c.text((x + 30, cy), sp, BAND_FONT, WHITE, anchor="lm", bold=True) + 14
    draw_city(c, view, city)
    return c.im
