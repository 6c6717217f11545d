"""The grid of towers, seen from the front, and the header above it.

The nine foundations keep their places in the 3x3 grid, and each shows its tower from
the side, bottom up, every piece in its colour with the colour's letter. A bridge
between two towers of one row is a plank across; a bridge between rows, which a front
view cannot show, has an arrow and the number of the foundation at its other end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.skybridge.render.canvas import (
    MARGIN,
    MIN_TEXT,
    WIDTH,
    Box,
    Canvas,
    clip,
    seat_name,
    text_width,
)
from engine.skybridge.render.layout import HEADER_H, PLANK_OUT, Layout
from engine.skybridge.render.palette import (
    CELL,
    FILL,
    GROUND,
    INK,
    LETTER,
    OUTLINE,
    TEXT,
    WHITE,
    blend,
    swatch,
)
from engine.skybridge.render.words import tr

TITLE = 26
STATUS = 20
LABEL = 18
PIECE = 20


def name_of(seat: int, names: Sequence[str] | None) -> str:
    return seat_name(seat, names, tr("Seat {n}", n=seat + 1))


def draw_header(c: Canvas, view: Mapping[str, Any], names: Sequence[str] | None) -> None:
    cy = HEADER_H // 2
    title_w = c.text((MARGIN, cy), "SKYBRIDGE", TITLE, TEXT, anchor="lm", bold=True)
    turn = view.get("turn")
    x = WIDTH - MARGIN
    if view.get("over") or turn is None:
        c.text((x, cy), tr("move {n} - game over", n=view["moves"]), STATUS, TEXT, anchor="rm")
        return
    for colour in reversed(turn["colours"]):
        swatch(c, (x - 30, cy - 15, x, cy + 15), colour, LABEL)
        x -= 36
    # The name gets whatever the title, the move number and the swatches leave.
    room = x - MARGIN - title_w - 24
    bare = tr("move {n} - {who} to play:", n=view["moves"] + 1, who="")
    who = clip(name_of(turn["seat"], names), room - text_width(bare, STATUS), STATUS)
    status = tr("move {n} - {who} to play:", n=view["moves"] + 1, who=who)
    c.text((x - 4, cy), status, STATUS, TEXT, anchor="rm")


def draw_grid(c: Canvas, layout: Layout, view: Mapping[str, Any]) -> None:
    towers = {int(t["foundation"]): t for t in view["board"]}
    for tower in towers.values():
        _cell(c, layout, tower)
    for tower in towers.values():
        _tower(c, layout, tower)
    _bridges_across(c, layout, towers)
    if view.get("last") is not None:
        _mark_last(c, layout, towers, view["last"])


def _cell(c: Canvas, layout: Layout, tower: Mapping[str, Any]) -> None:
    foundation = int(tower["foundation"])
    box = layout.cell(foundation)
    roof = tower["roof"]
    # A roofed cell takes a tint of the roof's colour: who scores it, seen from afar.
    tint = blend(FILL[roof], WHITE, 0.78) if roof else CELL
    c.d.rounded_rectangle(box, radius=10, fill=tint)
    x0, x1 = layout.column(foundation)
    ground = layout.ground(foundation)
    c.d.rectangle((x0 - 10, ground, x1 + 10, ground + 6), fill=GROUND)
    cx, cy = box[0] + 22, ground + 24
    c.d.ellipse((cx - 14, cy - 14, cx + 14, cy + 14), fill=TEXT)
    c.text((cx, cy), str(foundation), LABEL, WHITE, anchor="mm", bold=True)
    c.text((cx + 22, cy), tr("h {n}", n=tower["height"]), LABEL, TEXT, anchor="lm")
    if roof:
        c.text((box[2] - 10, cy), tr("roof {c}", c=LETTER[roof]), LABEL, TEXT, anchor="rm",
               bold=True)


def _tower(c: Canvas, layout: Layout, tower: Mapping[str, Any]) -> None:
    foundation = int(tower["foundation"])
    for piece in tower["pieces"]:
        colour = piece["colour"]
        if piece["kind"] == "roof":
            box = layout.roof_box(foundation, int(tower["height"]))
            mid = (box[0] + box[2]) // 2
            c.d.polygon([(box[0], box[3]), (mid, box[1]), (box[2], box[3])],
                        fill=FILL[colour], outline=OUTLINE)
            c.text((mid, box[3] - 9), LETTER[colour], MIN_TEXT, INK[colour], anchor="mm",
                   bold=True)
            continue
        box = piece_rect(layout, foundation, piece)
        c.d.rectangle(box, fill=FILL[colour], outline=OUTLINE, width=1)
        bridge = piece["kind"] == "bridge"
        label = LETTER[colour] if bridge else f"{LETTER[colour]}{piece['storeys']}"
        size = MIN_TEXT if bridge else PIECE
        middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        c.text(middle, label, size, INK[colour], anchor="mm", bold=True)
        if bridge:
            _bridge_ends(c, foundation, piece, box)


def piece_rect(layout: Layout, foundation: int, piece: Mapping[str, Any]) -> Box:
    box = layout.piece_box(foundation, int(piece["level"]), int(piece["storeys"]))
    if piece["kind"] == "bridge":
        # A plank sticks out of the tower on both sides, so it never reads as a block.
        return (box[0] - PLANK_OUT, box[1], box[2] + PLANK_OUT, box[3])
    return box


def _mark_last(c: Canvas, layout: Layout, towers: Mapping[int, Mapping[str, Any]],
               last: Mapping[str, Any]) -> None:
    """The piece placed last (the top of its tower): a thick frame and a black pointer."""
    for foundation in last["at"]:
        tower = towers[int(foundation)]
        top = tower["pieces"][-1]
        if top["kind"] == "roof":
            box = layout.roof_box(int(foundation), int(tower["height"]))
        else:
            box = piece_rect(layout, int(foundation), top)
        c.d.rectangle((box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3), outline=TEXT, width=4)
        middle = (box[1] + box[3]) // 2
        tip = box[0] - 7
        c.d.polygon([(tip - 16, middle - 9), (tip, middle), (tip - 16, middle + 9)], fill=TEXT)


def _bridge_ends(c: Canvas, foundation: int, piece: Mapping[str, Any], box: Box) -> None:
    """A bridge to another row gets an arrow and the number of its other end."""
    other = int(piece["to"])
    if abs(other - foundation) != 3:
        return  # same row: the plank across is drawn by _bridges_across
    x = box[2] + 5
    top, bottom = box[1] - 3, box[3] + 3
    if other < foundation:
        arrow = [(x, bottom), (x + 18, bottom), (x + 9, top)]
    else:
        arrow = [(x, top), (x + 18, top), (x + 9, bottom)]
    c.d.polygon(arrow, fill=FILL[piece["colour"]], outline=OUTLINE)
    c.text((x + 22, (box[1] + box[3]) / 2), str(other), LABEL, TEXT, anchor="lm", bold=True)


def _bridges_across(c: Canvas, layout: Layout, towers: Mapping[int, Mapping[str, Any]]) -> None:
    for foundation, tower in towers.items():
        for piece in tower["pieces"]:
            if piece["kind"] != "bridge" or piece["to"] != foundation + 1:
                continue
            if (foundation - 1) // 3 != (int(piece["to"]) - 1) // 3:
                continue
            left = layout.piece_box(foundation, int(piece["level"]), 1)
            right = layout.piece_box(int(piece["to"]), int(piece["level"]), 1)
            span = (left[2] + PLANK_OUT, left[1] + 1, right[0] - PLANK_OUT, left[3] - 1)
            c.d.rectangle(span, fill=FILL[piece["colour"]], outline=OUTLINE)
            middle = ((span[0] + span[2]) / 2, (span[1] + span[3]) / 2)
            c.text(middle, LETTER[piece["colour"]], MIN_TEXT, INK[piece["colour"]],
                   anchor="mm", bold=True)
