"""The font every renderer draws with: DejaVu Sans, shipped beside this file with its
licence (LICENSE-DejaVu.txt), so that images never depend on the fonts of a system and
players' names with accents or in Greek or Cyrillic draw as typed.

The basic layout engine is forced so that text is laid out the same whether or not
libraqm is installed, which keeps the output identical across machines.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

Font = ImageFont.FreeTypeFont

_HERE = Path(__file__).resolve().parent
REGULAR = _HERE / "DejaVuSans.ttf"
BOLD = _HERE / "DejaVuSans-Bold.ttf"


@lru_cache(maxsize=128)
def font(size: int, *, bold: bool = False) -> Font:
    """DejaVu Sans at ``size`` pixels (bold on request)."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size,
                              layout_engine=ImageFont.Layout.BASIC)
