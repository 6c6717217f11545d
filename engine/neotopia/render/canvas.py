"""A Pillow image and its drawing context, with text helpers and a fixed PNG encoding."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.fonts import font
from engine.neotopia.render.palette import RGB

Box = tuple[int, int, int, int]

# Fixed PNG settings and no metadata: equal pixels give equal bytes.
PNG_COMPRESS_LEVEL = 6
# The smallest text on the 1000 px images: 11 px once Discord shows them 550 wide.
MIN_TEXT = 20


@dataclass
class Canvas:
    im: Image.Image
    d: ImageDraw.ImageDraw

    @classmethod
    def new(cls, width: int, height: int, background: RGB) -> Canvas:
        im = Image.new("RGB", (width, height), background)
        return cls(im, ImageDraw.Draw(im))

    def text(self, xy: tuple[float, float], text: str, size: int, fill: RGB, *,
             anchor: str = "la", bold: bool = False) -> int:
        """Draw ``text`` snapped to whole pixels; returns its advance width."""
        if text:
            mask, left, top = _text_mask(text, size, bold, anchor)
            x, y = round(xy[0]) + left, round(xy[1]) + top
            self.im.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
        return text_width(text, size, bold=bold)

    def png(self) -> bytes:
        return encode_png(self.im)


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """Coverage of ``text`` and its offset from the anchor point (cached, never mutated)."""
    f = font(size, bold=bold)
    box = f.getbbox(text, anchor=anchor)
    left, top = math.floor(box[0]), math.floor(box[1])
    right, bottom = math.ceil(box[2]), math.ceil(box[3])
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, *, bold: bool = False) -> int:
    return round(font(size, bold=bold).getlength(text))


def fit_size(text: str, max_width: int, size: int, *, bold: bool = False,
             minimum: int = 9) -> int:
    """The largest size up to ``size`` at which ``text`` fits in ``max_width``."""
    while size > minimum and text_width(text, size, bold=bold) > max_width:
        size -= 1
    return size


def clip(text: str, max_width: int, size: int, *, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it fits ``max_width`` at ``size``."""
    if text_width(text, size, bold=bold) <= max_width:
        return text
    while text and text_width(text + "…", size, bold=bold) > max_width:
        text = text[:-1]
    return text + "…"


def encode_png(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()
