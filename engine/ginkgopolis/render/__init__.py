"""Ginkgopolis images: the hook the bot calls.

Every function is pure: the same view gives the same bytes.

- ``render_board(view)``: PNG of the public board (``view(state, None)``): the city,
  one panel per player, round, deck and tile supply, first player. Post after each round.
- ``render_private(view)``: PNG for one seat (``view(state, seat)``, which has "me"):
  hand, tiles and resources behind the screen, cards in front. Send by DM.
- ``render_final(view, outcome_json)``: PNG of the final city beside each player's
  score breakdown (``game.outcome(state).to_json()``).
- ``render_timelapse(views)``: animated GIF of the city, one frame per public view
  (collect one per round), for the end-of-game message.
"""

from __future__ import annotations

from engine.ginkgopolis.render.board import BoardLayout, board_layout, render_board
from engine.ginkgopolis.render.final import FinalLayout, final_layout, render_final
from engine.ginkgopolis.render.hand import HandLayout, hand_layout, render_private
from engine.ginkgopolis.render.layout import CityLayout
from engine.ginkgopolis.render.timelapse import render_timelapse, timelapse_layout

__all__ = [
    "BoardLayout",
    "CityLayout",
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
