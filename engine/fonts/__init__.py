"""The font every renderer draws with: DejaVu Sans, shipped beside this file with its
licence (LICENSE-DejaVu.txt), so that images never depend on the fonts of a system and
players' names with accents or in Greek or Cyrillic draw as typed.

DejaVu has no Chinese, Japanese or Korean: a character it lacks is drawn with Droid Sans
Fallback (shipped too, Apache 2.0, LICENSE-DroidSansFallback.txt), and a character
neither has (most emoji) as a visible box, one box per character, so a name never
vanishes and the layout never breaks. This happens inside the font object itself
(:class:`FallbackFont`), so every ``ImageDraw.text``, ``textbbox`` and ``textlength``
with :func:`font` gets it without changing a renderer; text that DejaVu covers entirely
is drawn by Pillow exactly as before.

The basic layout engine is forced so that text is laid out the same whether or not
libraqm is installed, which keeps the output identical across machines.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.fonts.cmap import codepoints

_HERE = Path(__file__).resolve().parent
REGULAR = _HERE / "DejaVuSans.ttf"
BOLD = _HERE / "DejaVuSans-Bold.ttf"
FALLBACK = _HERE / "DroidSansFallback.ttf"
PLACEHOLDER = "\u25a1"  # WHITE SQUARE, which DejaVu has: the box a missing glyph becomes
# Characters that only modify the one before (emoji skin tones, variation selectors,
# joiners): when no font has them they are dropped rather than drawn as extra boxes.
_MODIFIERS = range(0x1F3FB, 0x1F400)

Run = tuple[ImageFont.FreeTypeFont, str]


def _silent(ch: str) -> bool:
    return unicodedata.category(ch) in ("Mn", "Me", "Cf") or ord(ch) in _MODIFIERS


class FallbackFont(ImageFont.FreeTypeFont):
    """DejaVu Sans that hands the characters it lacks to the fallback font."""

    def __init__(self, path: Path, size: int) -> None:
        super().__init__(str(path), size, layout_engine=ImageFont.Layout.BASIC)
        self._path = path

    # -- which font draws which character

    def runs(self, text: str) -> list[Run] | None:
        """``text`` cut into (font, text) runs, or None when this font has it all."""
        own = codepoints(self._path)
        if all(ord(ch) in own for ch in text):
            return None
        other = codepoints(FALLBACK)
        runs: list[Run] = []
        for ch in text:
            face: ImageFont.FreeTypeFont = self
            if ord(ch) in own:
                shown = ch
            elif ord(ch) in other:
                face, shown = fallback_font(self.size), ch
            elif _silent(ch):
                continue
            else:
                shown = PLACEHOLDER
            if runs and runs[-1][0] is face:
                runs[-1] = (face, runs[-1][1] + shown)
            else:
                runs.append((face, shown))
        return runs

    # -- Pillow's measuring and drawing entry points

    def getlength(self, text: str | bytes, mode: str = "", direction: str | None = None,
                  features: list[str] | None = None, language: str | None = None) -> float:
        runs = self.runs(text) if isinstance(text, str) else None
        if runs is None:
            return super().getlength(text, mode, direction, features, language)
        return sum(ImageFont.FreeTypeFont.getlength(face, part, mode) for face, part in runs)

    def getbbox(self, text: str | bytes | bytearray, mode: str = "",
                direction: str | None = None, features: list[str] | None = None,
                language: str | None = None, stroke_width: float = 0,
                anchor: str | None = None) -> tuple[float, float, float, float]:
        runs = self.runs(text) if isinstance(text, str) else None
        if runs is None:
            return super().getbbox(text, mode, direction, features, language, stroke_width,
                                   anchor)
        left, top, right, bottom = self._box(runs, mode, stroke_width)
        dx, dy = self._anchor(anchor, runs, mode, stroke_width)
        return left + dx, top + dy, right + dx, bottom + dy

    def getmask2(self, text: str | bytes, mode: str = "", direction: str | None = None,
                 features: list[str] | None = None, language: str | None = None,
                 stroke_width: float = 0, anchor: str | None = None, ink: int = 0,
                 start: tuple[float, float] | None = None, *args: Any,
                 **kwargs: Any) -> tuple[Any, tuple[int, int]]:
        runs = self.runs(text) if isinstance(text, str) else None
        if runs is None or mode == "RGBA":
            return super().getmask2(text, mode, direction, features, language, stroke_width,
                                    anchor, ink, start, *args, **kwargs)
        left, top, right, bottom = (int(v) for v in self._box(runs, mode, stroke_width))
        canvas = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        draw = ImageDraw.Draw(canvas)
        if mode == "1":
            draw.fontmode = "1"
        pen = 0.0
        for face, part in runs:
            draw.text((pen - left, -top), part, fill=255, anchor="ls",
                      font=_plain(face), stroke_width=stroke_width)
            pen += ImageFont.FreeTypeFont.getlength(face, part, mode)
        dx, dy = self._anchor(anchor, runs, mode, stroke_width)
        if mode == "1":
            canvas = canvas.convert("1")
        return canvas.im, (left + int(dx), top + int(dy))

    # -- geometry of a mixed run, on the baseline with the pen starting at 0

    def _box(self, runs: list[Run], mode: str,
             stroke_width: float) -> tuple[float, float, float, float]:
        pen = 0.0
        left = top = right = bottom = 0.0
        for face, part in runs:
            x0, t, x1, b = ImageFont.FreeTypeFont.getbbox(face, part, mode,
                                                        stroke_width=stroke_width, anchor="ls")
            left, top = min(left, pen + x0), min(top, t)
            right, bottom = max(right, pen + x1), max(bottom, b)
            pen += ImageFont.FreeTypeFont.getlength(face, part, mode)
        return left, top, right, bottom

    def _anchor(self, anchor: str | None, runs: list[Run], mode: str,
                stroke_width: float) -> tuple[float, float]:
        """Where the pen starts and the baseline lies for ``anchor``, as Pillow has it,
        with this font's ascent and descent (so a mixed name sits where a plain one does)."""
        anchor = anchor or "la"
        width = sum(ImageFont.FreeTypeFont.getlength(face, part, mode) for face, part in runs)
        dx = {"l": 0.0, "m": -width / 2, "r": -width}[anchor[0]]
        ascent, descent = self.getmetrics()
        _, top, _, bottom = self._box(runs, mode, stroke_width)
        dy = {"a": ascent, "t": -top, "m": (ascent - descent) / 2, "s": 0.0,
              "b": -bottom, "d": -descent}[anchor[1]]
        return dx, dy


def _plain(face: ImageFont.FreeTypeFont) -> ImageFont.FreeTypeFont:
    """The plain FreeType font behind ``face`` (no fallback: its runs are already cut)."""
    if isinstance(face, FallbackFont):
        return _plain_font(face._path, face.size)
    return face


@lru_cache(maxsize=128)
def _plain_font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=64)
def fallback_font(size: int) -> ImageFont.FreeTypeFont:
    """Droid Sans Fallback at ``size`` pixels: Chinese, Japanese, Korean."""
    return _plain_font(FALLBACK, size)


Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=128)
def font(size: int, *, bold: bool = False) -> Font:
    """DejaVu Sans at ``size`` pixels (bold on request), falling back per character."""
    return FallbackFont(BOLD if bold else REGULAR, size)


def has_glyph(ch: str) -> bool:
    """True when a shipped font draws ``ch`` (else it shows as a box)."""
    return ord(ch) in codepoints(REGULAR) or ord(ch) in codepoints(FALLBACK)
