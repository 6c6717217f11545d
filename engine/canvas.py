"""The drawing kit every Pillow renderer shares: an image and its drawing context, text
snapped to whole pixels with cached coverage masks, widths, fitting and clipping, and
fixed PNG and GIF encodings.

Text is drawn with the shipped DejaVu Sans (``engine.fonts``), never a system font, so
that players' names draw as typed in any script. Each game's ``render/canvas.py`` adds
what is its own (the smallest text of its images).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.fonts import font

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]

# Fixed PNG settings: one zlib level, no metadata, so equal pixels give equal bytes.
PNG_COMPRESS_LEVEL = 6


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
        """Draw ``text`` snapped to whole pixels; returns its advance width for layout.

        The coverage mask is cached: the same labels recur on every board, and
        rasterising them is most of the drawing time."""
        if text:
            mask, left, top = _text_mask(text, size, bold, anchor)
            x, y = round(xy[0]) + left, round(xy[1]) + top
            self.im.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
        return text_width(text, size, bold=bold)

    def png(self) -> bytes:
        return encode_png(self.im)


@lru_cache(maxsize=8192)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """Coverage of ``text`` and its offset from the anchor point (never mutated)."""
    f = font(size, bold=bold)
    box = f.getbbox(text, anchor=anchor)
    left, top = math.floor(box[0]), math.floor(box[1])
    right, bottom = math.ceil(box[2]), math.ceil(box[3])
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def text_width(text: str, size: int, *, bold: bool = False) -> int:
    return _text_width(text, size, bold)


@lru_cache(maxsize=8192)
def _text_width(text: str, size: int, bold: bool) -> int:
    return round(font(size, bold=bold).getlength(text))


def fit_size(text: str, max_width: int, size: int, *, minimum: int,
             bold: bool = False) -> int:
    """The largest size from ``size`` down to ``minimum`` at which ``text`` fits in
    ``max_width`` (``minimum`` if none does)."""
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


def encode_gif(frames: list[Image.Image], frame_ms: int, last_ms: int) -> bytes:
    """An animated GIF that loops, each frame shown ``frame_ms`` and the last ``last_ms``.
    One palette, taken from the last (fullest) frame, is applied to all without
    dithering: deterministic, and flat areas stay flat, which keeps the GIF small."""
    palette = frames[-1].quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    indexed = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    durations = [frame_ms] * (len(indexed) - 1) + [last_ms]
    buf = io.BytesIO()
    indexed[0].save(buf, format="GIF", save_all=True, append_images=indexed[1:],
                    duration=durations, loop=0, disposal=1)
    return buf.getvalue()


def clear_caches() -> None:
    """Empty the text caches (the images do not change: they only hold derived values)."""
    _text_mask.cache_clear()
    _text_width.cache_clear()
