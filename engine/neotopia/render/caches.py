"""The render caches (text masks and widths, fonts), and a way to empty them.

Caches hold only values derived from their arguments and are never mutated, so an
image is the same whether they are cold or warm; tests and the benchmark clear them.
"""

from __future__ import annotations

from engine import fonts
from engine.neotopia.render import canvas, geometry


def clear_caches() -> None:
    canvas._text_mask.cache_clear()
    canvas.text_width.cache_clear()
    geometry.pattern_unit_bounds.cache_clear()
    fonts.font.cache_clear()
