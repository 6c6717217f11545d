"""A Pillow image and its drawing context, with the text and encoding helpers."""

from __future__ import annotations

import io
from dataclasses import dataclass

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
        """Draw text; returns its advance width so callers can lay out a line."""
        f = font(size)
        stroke = bold_stroke(size) if bold else 0
        self.d.text(
            xy, text, font=f, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=fill
        )
        return text_width(text, size, bold=bold)

    def png(self) -> bytes:
        return encode_png(self.im)


def text_width(text: str, size: int, *, bold: bool = False) -> int:
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
