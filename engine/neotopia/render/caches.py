"""The render caches (text masks and widths, fonts), and a way to empty them.

Caches hold only values derived from their arguments and are never mutated, so an
image is the same whether they are cold or warm; tests and the benchmark clear them.
"""

from __future__ import annotations

from engine import canvas as shared_canvas
from engine import fonts
from engine.neotopia.render import geometry


def clear_caches() -> None:
    shared_canvas.clear_caches()
    geometry.pattern_unit_bounds.cache_clear()
    fonts.font.cache_clear()
