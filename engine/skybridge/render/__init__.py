"""Pictures of a Skybridge view, as PNG bytes (the hook ``bot/images.py`` calls):

- ``render_board(view, names=...)`` after every move: the towers as they stand, seen
  from the front, each player's pieces in hand and score so far, whose turn.
- ``render_final(view, outcome, names=...)`` at the end: the board above every
  player's score with its whole breakdown, best first.

Both are pure (the same view gives the same bytes) and take ``locale`` ("fr": the
labels in French, ``words.py``; names are never translated). Names are drawn as typed
with the shipped fonts and cut with an ellipsis only where the line has no room left.
Every colour has its letter (R, Y, G, B) beside it, so no one has to tell colours apart.
"""

from __future__ import annotations

from engine.skybridge.render.board import render_board
from engine.skybridge.render.final import FinalLayout, final_layout, render_final
from engine.skybridge.render.layout import Layout

__all__ = ["FinalLayout", "Layout", "final_layout", "render_board", "render_final"]
