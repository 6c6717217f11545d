"""The two city boards as the images draw them (from ../shared/data/quadropolis.json).

Used only when a view does not carry its board's districts and space numbers itself.
"""

from __future__ import annotations

CLASSIC_DISTRICTS: tuple[tuple[int, ...], ...] = (
    (1, 1, 2, 2),
    (1, 1, 2, 2),
    (3, 3, 4, 4),
    (3, 3, 4, 4),
)
EXPERT_DISTRICTS: tuple[tuple[int, ...], ...] = (
    (1, 1, 4, 2, 2),
    (1, 1, 4, 2, 2),
    (5, 5, 4, 3, 3),
    (5, 5, 4, 3, 3),
)
EXPERT_NUMBERS: tuple[tuple[int, ...], ...] = (
    (2, 3, 1, 1, 3),
    (5, 4, 2, 5, 4),
    (1, 2, 3, 1, 2),
    (4, 3, 5, 5, 4),
)

SITE_SIZE = 5
SIDES: tuple[str, ...] = ("top", "right", "bottom", "left")
