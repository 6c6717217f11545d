"""Quadropolis images: the hook the bot calls (``bot/images.py``).

Every function is pure: the same view gives the same bytes. ``names`` are the seats'
display names, drawn beside their colours (any script the shipped fonts cover); without
them a seat is "Seat N". Every function takes ``locale`` ("fr": the labels in French,
``words.py``; names are never translated).

- ``render_board(view, names=...)``: PNG of the public board (``view(state, None)``): the
  construction site with the architects and the Urbanist, whose turn, the Mayor, and
  every player's city with resources and architects left.
- ``render_private(view, names=...)``: PNG for one seat (``view(state, seat)``): the site
  and the seat's city large, the spaces where a taken tile may go outlined.
- ``render_final(view, outcome, names=...)``: PNG of each city with its final
  allocation and each player's score by category (``game.outcome(state).to_json()``).
- ``render_timelapse(views)``: animated GIF of the cities, one frame per public view.
"""

from __future__ import annotations

from engine.quadropolis.render.board import BoardLayout, board_layout, render_board
from engine.quadropolis.render.final import FinalLayout, final_layout, render_final
from engine.quadropolis.render.private import PrivateLayout, private_layout, render_private
from engine.quadropolis.render.timelapse import render_timelapse, timelapse_layout

__all__ = [
    "BoardLayout",
    "FinalLayout",
    "PrivateLayout",
    "board_layout",
    "final_layout",
    "private_layout",
    "render_board",
    "render_final",
    "render_private",
    "render_timelapse",
    "timelapse_layout",
]
