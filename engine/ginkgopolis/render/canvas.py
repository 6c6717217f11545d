"""A Pillow image and its drawing context, with the text and encoding helpers."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.ginkgopolis.render.fonts import bold_stroke, font
from engine.ginkgopolis.render.palette import RGB

Box = tuple[int, int, int, int]

# Fixed PNG settings: the default zlib level, no metadata, so equal pixels give equal bytes.
PNG_COMPRESS_LEVEL = 6


@dataclass
class Canvas:
    im: Image.Image
    d: ImageDraw.ImageDraw

    @classmethod
    def new(cls, width: int, height: int, background: RGB) -> Canvas:
        im = Image.new("RGB", (width, height), background)
        return cls(im, ImageDraw.Draw(im))

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: RGB,
        *,
        anchor: str = "la",
        bold: bool = False,
    ) -> int:
        """Draw text; returns its advance width so callers can lay out a line.

        Text is snapped to whole pixels and its coverage mask cached: the same labels
        recur on every board, and rasterising (above all the stroke of the fake bold)
        is most of the drawing time.
        """
        stroke = bold_stroke(size) if bold else 0
        if text:
            mask, left, top = _text_mask(text, size, stroke, anchor)
            x, y = round(xy[0]) + left, round(xy[1]) + top
            self.im.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
        return text_width(text, size, bold=bold)

    def png(self) -> bytes:
        return encode_png(self.im)


@lru_cache(maxsize=8192)
def _text_mask(text: str, size: int, stroke: int, anchor: str) -> tuple[Image.Image, int, int]:
    """Coverage of ``text`` and its offset from the anchor point (never mutated)."""
    f = font(size)
    box = f.getbbox(text, anchor=anchor, stroke_width=stroke)
    left, top = math.floor(box[0]), math.floor(box[1])
    right, bottom = math.ceil(box[2]), math.ceil(box[3])
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text(
        (-left, -top), text, font=f, fill=255, anchor=anchor, stroke_width=stroke, stroke_fill=255
    )
    return mask, left, top


def text_width(text: str, size: int, *, bold: bool = False) -> int:
    return _text_width(text, size, bold)


@lru_cache(maxsize=8192)
def _text_width(text: str, size: int, bold: bool) -> int:
    stroke = bold_stroke(size) if bold else 0
    return round(font(size).getlength(text)) + 2 * stroke


def fit_size(text: str, max_width: int, size: int, *, bold: bool = False, minimum: int = 8) -> int:
    """The largest font size up to ``size`` at which ``text`` fits in ``max_width``."""
    while size > minimum and text_width(text, size, bold=bold) > max_width:
        size -= 1
    return size


def encode_png(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()
