"""Neotopia's drawing kit: the shared canvas (``engine.canvas``) and the smallest text of
its images."""

from __future__ import annotations

from engine.canvas import Box, Canvas, clip, encode_png, fit_size, text_width

__all__ = ["MIN_TEXT", "Box", "Canvas", "clip", "encode_png", "fit_size", "text_width"]

# The smallest text on the 1000 px images: 11 px once Discord shows them 550 wide.
MIN_TEXT = 20
