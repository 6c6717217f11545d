"""The render caches (text masks, tile faces and backs), and a way to empty them.

Caches hold only values derived from their arguments and are never mutated, so an
image is the same whether they are cold or warm; tests and the benchmark clear them.
"""

from __future__ import annotations

from engine import canvas as shared_canvas
from engine.quadropolis.render import tiles


def clear_caches() -> None:
    shared_canvas.clear_caches()
    tiles._face.cache_clear()
    tiles._back.cache_clear()
