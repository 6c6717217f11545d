"""Under the grid: each player's pieces in hand with the score so far, and the legend.

A row per colour in hand (two for a 2-player seat, plus one for the fourth colour's
blocks in the 3-player game): the colour's lettered square, the name, each kind of piece
drawn as a small piece with how many are left, and the seat's score if the game ended
now (its final score once over), big, beside the seat's rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.skybridge.render.canvas import MARGIN, MIN_TEXT, WIDTH, Canvas, clip, text_width
from engine.skybridge.render.palette import FILL, INK, MUTED, OUTLINE, RULE, TEXT, swatch
from engine.skybridge.render.towers import name_of
from engine.skybridge.render.words import tr

NAME = 20
COUNT = 18
SCORE = 26
ROW_H: Final = 38
HEAD_H: Final = 30
LEGEND_ROW: Final = 32
SCORE_W: Final = 80
GROUP_W: Final = 72  # one kind of piece: its icon and "x4"
KINDS: Final = ("block3", "block2", "bridge", "roof")
PIECES_X: Final = WIDTH - MARGIN - SCORE_W - 4 * GROUP_W
NAME_X: Final = MARGIN + 40


@dataclass(frozen=True)
class Row:
    seat: int
    colour: str
    counts: Mapping[str, int]
    first: bool  # the seat's first row: it carries the name and the score
    extra: bool = False  # the fourth colour's blocks a 3-player seat holds
    out: bool = False


def hand_rows(view: Mapping[str, Any]) -> list[Row]:
    rows: list[Row] = []
    fourth = view.get("fourth_colour")
    for player in view["players"]:
        seat = int(player["seat"])
        for i, colour in enumerate(player["colours"]):
            rows.append(Row(seat, colour, view["supply"][colour], i == 0,
                            out=colour in player["colours_out"]))
        if fourth and sum(player["extra"].values()):
            rows.append(Row(seat, fourth, player["extra"], False, extra=True))
    return rows


def hand_height(view: Mapping[str, Any]) -> int:
    return HEAD_H + ROW_H * len(hand_rows(view)) + 8


def draw_hands(c: Canvas, y: int, view: Mapping[str, Any], names: Sequence[str] | None,
               totals: Sequence[int]) -> None:
    over = bool(view.get("over"))
    c.text((PIECES_X, y + HEAD_H / 2), tr("pieces in hand"), MIN_TEXT, MUTED, anchor="lm")
    head = tr("final score") if over else tr("score now")
    c.text((WIDTH - MARGIN, y + HEAD_H / 2), head, MIN_TEXT, MUTED, anchor="rm")
    y += HEAD_H
    rows = hand_rows(view)
    for i, row in enumerate(rows):
        if row.first and i:
            c.d.line((MARGIN, y, WIDTH - MARGIN, y), fill=RULE, width=1)
        cy = y + ROW_H / 2
        side = 28 if not row.extra else 22
        sx = MARGIN + (28 - side) // 2
        swatch(c, (sx, round(cy) - side // 2, sx + side, round(cy) + side // 2), row.colour,
               MIN_TEXT if row.extra else COUNT, out=row.out)
        room = PIECES_X - NAME_X - 12
        if row.first:
            out = tr(" (out)") if row.out else ""
            name = clip(name_of(row.seat, names), room - text_width(out, NAME), NAME)
            w = c.text((NAME_X, cy), name, NAME, TEXT, anchor="lm")
            if out:
                c.text((NAME_X + w, cy), out, NAME, MUTED, anchor="lm")
        elif row.extra:
            c.text((NAME_X, cy), clip(tr("+ fourth colour"), room, MIN_TEXT), MIN_TEXT, MUTED,
                   anchor="lm")
        elif row.out:
            c.text((NAME_X, cy), tr(" (out)").strip(), MIN_TEXT, MUTED, anchor="lm")
        for k, kind in enumerate(KINDS):
            if kind not in row.counts:
                continue
            gx = PIECES_X + k * GROUP_W
            n = int(row.counts[kind])
            piece_icon(c, kind, row.colour, gx, cy)
            c.text((gx + 33, cy), f"×{n}", COUNT, TEXT if n else MUTED, anchor="lm")
        y += ROW_H
    _scores(c, rows, y - ROW_H * len(rows), totals)


def _scores(c: Canvas, rows: Sequence[Row], top: int, totals: Sequence[int]) -> None:
    """The seat's score, centred beside all of its rows."""
    start = 0
    for i in range(1, len(rows) + 1):
        if i == len(rows) or rows[i].seat != rows[start].seat:
            cy = top + ROW_H * (start + i) / 2
            seat = rows[start].seat
            c.text((WIDTH - MARGIN, cy), str(totals[seat]), SCORE, TEXT, anchor="rm", bold=True)
            start = i


def piece_icon(c: Canvas, kind: str, colour: str, x: int, cy: float) -> None:
    """A small piece, 26 px wide, its shape telling its kind (the digit: storeys)."""
    y = round(cy)
    fill, ink = FILL[colour], INK[colour]
    if kind == "roof":
        c.d.polygon([(x, y + 11), (x + 13, y - 11), (x + 26, y + 11)], fill=fill, outline=OUTLINE)
    elif kind == "bridge":
        c.d.rectangle((x - 2, y - 5, x + 28, y + 5), fill=fill, outline=OUTLINE)
    else:
        h = 15 if kind == "block3" else 11
        c.d.rectangle((x + 1, y - h, x + 25, y + h), fill=fill, outline=OUTLINE)
        c.text((x + 13, cy), "3" if kind == "block3" else "2", MIN_TEXT, ink, anchor="mm",
               bold=True)


def _legend_items(over: bool) -> list[tuple[str, str]]:
    items = [("h", tr("h = storeys")), ("roof", tr("roof: its colour scores the tower")),
             ("bridge", tr("bridge")), ("arrow", tr("bridge to that foundation")),
             ("frame", tr("last move"))]
    if not over:
        items.append(("", tr("score now: if the game ended now")))
    return items


def _legend_lines(over: bool) -> list[list[tuple[str, str, int]]]:
    """The items flowed into lines: (icon, text, width), never shrunk to fit."""
    lines: list[list[tuple[str, str, int]]] = [[]]
    x = MARGIN
    for icon, text in _legend_items(over):
        w = (34 if icon not in ("", "h") else 0) + text_width(text, MIN_TEXT)
        if lines[-1] and x + w > WIDTH - MARGIN:
            lines.append([])
            x = MARGIN
        lines[-1].append((icon, text, w))
        x += w + 22
    return lines


def legend_height(over: bool) -> int:
    return LEGEND_ROW * len(_legend_lines(over)) + 6


def draw_legend(c: Canvas, y: int, over: bool) -> None:
    for line in _legend_lines(over):
        x = MARGIN
        cy = y + LEGEND_ROW / 2
        for icon, text, w in line:
            tx = x + (34 if icon not in ("", "h") else 0)
            iy = round(cy)
            if icon == "roof":
                c.d.polygon([(x, iy + 9), (x + 13, iy - 9), (x + 26, iy + 9)], fill=MUTED)
            elif icon == "bridge":
                c.d.rectangle((x, iy - 5, x + 28, iy + 5), fill=MUTED)
            elif icon == "arrow":
                c.d.polygon([(x, iy - 9), (x + 16, iy - 9), (x + 8, iy + 9)], fill=MUTED)
            elif icon == "frame":
                c.d.rectangle((x, iy - 10, x + 26, iy + 10), outline=TEXT, width=4)
            c.text((tx, cy), text, MIN_TEXT, MUTED, anchor="lm")
            x += w + 22
        y += LEGEND_ROW
