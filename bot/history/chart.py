"""A small line chart of a player's rating over their games: PNG bytes from numbers."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.fonts import font

WIDTH, HEIGHT = 480, 200
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 44, 12, 28, 24
BACKGROUND = (250, 248, 242)
GRID = (220, 216, 206)
LINE = (40, 110, 170)
BAND = (205, 222, 238)  # mu ± sigma: how sure the rating is
TEXT = (60, 60, 60)


def rating_chart(series: Sequence[tuple[float, float]], title: str) -> bytes:
    """``series``: the rating (mu, sigma) before the first game, then after each: the
    line is mu, the band around it mu ± sigma."""
    points = [mu for mu, _ in series]
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN_LEFT, 6), title, fill=TEXT, font=font(13, bold=True))
    low = min(mu - sigma for mu, sigma in series)
    high = max(mu + sigma for mu, sigma in series)
    if high - low < 2:
        low, high = low - 1, high + 1
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM
    small = font(10)
    steps = max(len(points) - 1, 1)

    def at(i: int, value: float) -> tuple[float, float]:
        return (left + (right - left) * i / steps,
                bottom - (bottom - top) * (value - low) / (high - low))

    if len(series) > 1:
        upper = [at(i, mu + sigma) for i, (mu, sigma) in enumerate(series)]
        lower = [at(i, mu - sigma) for i, (mu, sigma) in enumerate(series)]
        draw.polygon(upper + lower[::-1], fill=BAND)
    for i in range(5):
        value = low + (high - low) * i / 4
        y = bottom - (bottom - top) * i / 4
        draw.line([(left, y), (right, y)], fill=GRID)
        draw.text((4, y - 6), f"{value:.1f}", fill=TEXT, font=small)
    xy = [at(i, v) for i, v in enumerate(points)]
    if len(xy) > 1:
        draw.line(xy, fill=LINE, width=2)
    for x, y in xy:
        draw.ellipse([x - 2.5, y - 2.5, x + 2.5, y + 2.5], fill=LINE)
    draw.text((left, bottom + 6), "0", fill=TEXT, font=small)
    draw.text((right - 20, bottom + 6), str(len(points) - 1), fill=TEXT, font=small)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
