"""Fonts: the shipped DejaVu Sans (``engine.fonts``, with its CJK fallback), never one
found on the system, so that players' names draw in any script."""

from __future__ import annotations

from engine.fonts import Font
from engine.fonts import font as shipped_font

__all__ = ["Font", "bold_stroke", "font"]


def font(size: int, *, bold: bool = False) -> Font:
    return shipped_font(size, bold=bold)


def bold_stroke(size: int) -> int:
    """No stroke: DejaVu Sans has a real bold face (kept for callers that add it)."""
    return 0
