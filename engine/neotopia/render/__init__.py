"""Neotopia images: the hook the bot calls (``bot/images.py``).

Every function is pure: the same view (and names) gives the same bytes. ``names`` are
the players' names by seat; without them a player is named by colour. Every function
takes ``locale`` ("fr": the labels in French, ``words.py``; names are never translated).

- ``render_board(view, names=...)``: PNG of the public board (``view(state, None)``):
  the three regions on the hex grid, elements (colour and letter), bonus tokens, the
  three manufactures with their contents, the production stack, the players, the score
  tracks with the 7/13/18 tokens, the project offer.
- ``render_private(view, names=...)``: PNG for one seat (``view(state, seat)``): its
  hand of projects, each pattern drawn as small hexes, and its bonus tokens.
- ``render_final(view, outcome, names=...)``: PNG of the final city beside each
  player's score pad (``game.outcome(state).to_json()``).
- ``render_timelapse(views)``: animated GIF of the city, one frame per public view.
"""

from __future__ import annotations

from engine.neotopia.render.board import BoardLayout, board_layout, render_board
from engine.neotopia.render.final import FinalLayout, final_layout, render_final
from engine.neotopia.render.hand import HandLayout, hand_layout, render_private
from engine.neotopia.render.timelapse import render_timelapse, timelapse_layout

__all__ = [
    "BoardLayout",
    "FinalLayout",
    "HandLayout",
    "board_layout",
    "final_layout",
    "hand_layout",
    "render_board",
    "render_final",
    "render_private",
    "render_timelapse",
    "timelapse_layout",
]
