"""Ginkgopolis's drawing kit: the shared canvas (``engine.canvas``), and names clipped
without a space before their ellipsis."""

from __future__ import annotations

from engine.canvas import Box, Canvas, clip, encode_png, fit_size, text_width

__all__ = ["Box", "Canvas", "encode_png", "fit_size", "fit_text", "text_width"]


def fit_text(text: str, max_width: int, size: int, *, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it fits in ``max_width`` at ``size``, with no
    space left before the ellipsis."""
    cut = clip(text, max_width, size, bold=bold)
    return cut if cut == text else cut[:-1].rstrip() + "…"
