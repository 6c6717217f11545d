"""Quadropolis's drawing kit: the shared canvas (``engine.canvas``) and the smallest text
of its images."""

from __future__ import annotations

from engine.canvas import Box, Canvas, clip, encode_png, fit_size, text_width

__all__ = ["MIN_TEXT", "Box", "Canvas", "clip", "encode_png", "fit_size", "text_width"]

# The smallest text: the images are 760 px wide, so 16 px reads 11.6 px once Discord
# shows them 550 wide.
MIN_TEXT = 16
