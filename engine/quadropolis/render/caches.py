"""The render caches (text masks, tile faces and backs), and a way to empty them.

Caches hold only values derived from their arguments and are never mutated, so an
image is the same whether they are cold or warm; tests and the benchmark clear them.
"""

from __future__ import annotations

from engine.quadropolis.render import canvas, tiles


def clear_caches() -> None:
    canvas._text_mask.cache_clear()
    canvas._text_width.cache_clear()
    tiles._face.cache_clear()
    tiles._back.cache_clear()
