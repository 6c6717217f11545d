"""The render caches (glyph masks, fonts, tile faces), and a way to empty them.

Caches hold only values derived from their arguments and are never mutated, so an
image is the same whether they are cold or warm; tests and the benchmark clear them.
"""

from __future__ import annotations

import engine.fonts as shipped_fonts
from engine import canvas as shared_canvas
from engine.ginkgopolis.render import icons, tiles


def clear_caches() -> None:
    shared_canvas.clear_caches()
    shipped_fonts.font.cache_clear()
    tiles._face.cache_clear()
    icons._hazard.cache_clear()
