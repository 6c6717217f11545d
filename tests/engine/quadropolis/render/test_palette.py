"""Colour is never the only cue: each kind has its own letter and its own pattern, which
still tell the kinds apart once the colour is gone (a grey-scale copy)."""

from __future__ import annotations

import itertools

from PIL import ImageChops, ImageStat

from engine.quadropolis.render.canvas import Canvas
from engine.quadropolis.render.model import Tile
from engine.quadropolis.render.palette import (
    BACKGROUND,
    KIND_LETTER,
    KINDS,
    PLAYER_LETTER,
    SEAT_COLORS,
    SQUARE_LETTER,
)
from engine.quadropolis.render.read import seat_color
from engine.quadropolis.render.tiles import draw_tile, paste_face


def test_each_kind_and_each_seat_has_its_own_letter() -> None:
    letters = [KIND_LETTER[k] for k in KINDS] + [SQUARE_LETTER]
    assert len(set(letters)) == len(letters) == len(KINDS) + 1
    seats = [PLAYER_LETTER[seat_color(s)] for s in range(4)]
    assert len(set(seats)) == 4 and set(SEAT_COLORS) == {seat_color(s) for s in range(4)}


def test_patterns_tell_the_kinds_apart_in_grey() -> None:
    faces = {}
    for kind in KINDS:
        c = Canvas.new(80, 80, BACKGROUND)
        paste_face(c, kind, (0, 0, 80, 80))
        # Each face normalised to its own mean: only the pattern is left, not the shade.
        grey = c.im.convert("L")
        mean = ImageStat.Stat(grey).mean[0]
        faces[kind] = grey.point(lambda v, m=mean: max(0, min(255, int(128 + 3 * (v - m)))))
    for a, b in itertools.combinations(KINDS, 2):
        diff = ImageStat.Stat(ImageChops.difference(faces[a], faces[b])).mean[0]
        assert diff > 12, (a, b, diff)


def test_the_letter_is_drawn_on_the_tile() -> None:
    drawn = {}
    for kind in KINDS:
        c = Canvas.new(80, 80, BACKGROUND)
        draw_tile(c, (0, 0, 80, 80), Tile("", kind), details=False)
        drawn[kind] = c.im.tobytes()
    square = Canvas.new(80, 80, BACKGROUND)
    draw_tile(square, (0, 0, 80, 80), Tile("", "park", square=True), details=False)
    assert square.im.tobytes() != drawn["park"]  # Q, not K, on the same green
