"""Fonts: only Pillow's embedded scalable font, never one found on the system.

The basic layout engine is forced so that text is laid out the same whether or not
libraqm is installed, which keeps the output identical across machines.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont

Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=64)
def font(size: int) -> Font:
    base = ImageFont.load_default(size=size)
    if not isinstance(base, ImageFont.FreeTypeFont):
        raise RuntimeError("Pillow >= 10.1 with FreeType is needed for scalable text")
    return base.font_variant(layout_engine=ImageFont.Layout.BASIC)


def bold_stroke(size: int) -> int:
    """Stroke width that fakes a bold weight (the embedded font has only one)."""
    return 1 if size >= 13 else 0
