"""The final image: the board that produced the scores, then one block per player, best
first, with every line of the breakdown (each roof, each bridge), as the engine's
outcome gives them. Before the end it shows the live estimate, titled as such."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.core.protocol import Outcome
from engine.skybridge.render.board import board_canvas, board_height
from engine.skybridge.render.canvas import MARGIN, MIN_TEXT, WIDTH, Box, Canvas, clip, text_width
from engine.skybridge.render.palette import GOLD, MUTED, OUTLINE, PANEL, TEXT, WHITE, swatch
from engine.skybridge.render.panels import piece_icon
from engine.skybridge.render.towers import name_of
from engine.skybridge.render.words import language, tr

TITLE_H: Final = 44
HEAD_H: Final = 48
LINE_H: Final = 32
PAD: Final = 10
NAME = 22
LINE = 18


@dataclass(frozen=True)
class FinalLayout:
    board_h: int
    standings: tuple[Mapping[str, Any], ...]  # best rank first, as drawn
    blocks: tuple[Box, ...]  # one per standing, same order
    height: int


def _standings(view: Mapping[str, Any],
               outcome: Mapping[str, Any] | None) -> tuple[Mapping[str, Any], ...]:
    if outcome is not None:
        return tuple(sorted(outcome["standings"], key=lambda s: (s["rank"], s["seat"])))
    estimate = view["score_estimate"]
    return tuple({"seat": s, "rank": 0, "total": estimate["totals"][s],
                  "lines": estimate["lines"][s]} for s in range(view["seats"]))


def final_layout(view: Mapping[str, Any], outcome: Mapping[str, Any] | None) -> FinalLayout:
    board_h = board_height(view, hands=outcome is None)
    standings = _standings(view, outcome)
    y = board_h + TITLE_H
    blocks: list[Box] = []
    for s in standings:
        h = HEAD_H + LINE_H * max(1, len(s["lines"])) + PAD
        blocks.append((MARGIN, y, WIDTH - MARGIN, y + h))
        y += h + PAD
    return FinalLayout(board_h, standings, tuple(blocks), y + PAD)


def render_final(
    view: Mapping[str, Any],
    outcome: Outcome | Mapping[str, Any] | None = None,
    *,
    names: Sequence[str] | None = None,
    locale: str = "en",
) -> bytes:
    """The final scores with their breakdown, under the board that produced them.

    ``outcome`` defaults to the one in the view (present once the game is over);
    before the end the picture shows the live estimate, labelled as such.
    """
    if isinstance(outcome, Outcome):
        outcome = outcome.to_json()
    if outcome is None:
        outcome = view.get("outcome")
    with language(locale):
        return _final(view, outcome, names)


def _final(view: Mapping[str, Any], outcome: Mapping[str, Any] | None,
           names: Sequence[str] | None) -> bytes:
    lay = final_layout(view, outcome)
    # The pieces left mean nothing once the game is over; the estimate's board keeps them.
    c = board_canvas(view, names, hands=outcome is None, extra=lay.height - lay.board_h)
    title = tr("Final scores") if outcome is not None else tr("Scores if the game ended now")
    c.text((MARGIN, lay.board_h + TITLE_H / 2 + 4), title, NAME, TEXT, anchor="lm", bold=True)
    for s, box in zip(lay.standings, lay.blocks, strict=True):
        _block(c, view, s, box, names)
    return c.png()


def _block(c: Canvas, view: Mapping[str, Any], s: Mapping[str, Any], box: Box,
           names: Sequence[str] | None) -> None:
    x0, y0, x1, _ = box
    seat = int(s["seat"])
    win = s["rank"] == 1
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=GOLD if win else OUTLINE,
                          width=4 if win else 1)
    cy = y0 + HEAD_H / 2 + 2
    x = x0 + 14
    if s["rank"]:
        x += c.text((x, cy), f"#{s['rank']}", NAME, TEXT, anchor="lm", bold=True) + 12
    for colour in view["players"][seat]["colours"]:
        swatch(c, (x, round(cy) - 15, x + 30, round(cy) + 15), colour, LINE)
        x += 36
    total = tr("{n} points", n=s["total"])
    tw = text_width(total, 24, bold=True)
    c.text((x1 - 14, cy), total, 24, TEXT, anchor="rm", bold=True)
    tag = tr("winner") if win else ""
    tag_w = text_width(tag, MIN_TEXT, bold=True) + 16 if tag else 0
    room = x1 - 14 - tw - 20 - (tag_w + 12 if tag else 0) - x
    # Regular weight: a long name fits whole beside the rank, the colours and the tag.
    name = clip(name_of(seat, names), room, NAME)
    x += c.text((x, cy), name, NAME, TEXT, anchor="lm") + 12
    if tag:
        c.d.rounded_rectangle((x, round(cy) - 13, x + tag_w, round(cy) + 13), radius=8, fill=GOLD)
        c.text((x + 8, cy), tag, MIN_TEXT, WHITE, anchor="lm", bold=True)
    y = y0 + HEAD_H
    if not s["lines"]:
        ly = y + LINE_H / 2
        c.text((x0 + 90, ly), tr("no roof, nothing scored"), LINE, MUTED, anchor="lm")
        c.text((x1 - 14, ly), "0", LINE, MUTED, anchor="rm", bold=True)
    for line in s["lines"]:
        ly = y + LINE_H / 2
        colour = line["detail"]["colour"]
        swatch(c, (x0 + 24, round(ly) - 12, x0 + 48, round(ly) + 12), colour, MIN_TEXT)
        piece_icon(c, "roof" if line["key"] == "roof" else "bridge", colour, x0 + 56, ly)
        points = f"+{line['points']}"
        pw = c.text((x1 - 14, ly), points, LINE, TEXT, anchor="rm", bold=True)
        text = clip(line_text(line), x1 - 14 - pw - 16 - (x0 + 90), LINE)
        c.text((x0 + 90, ly), text, LINE, TEXT, anchor="lm")
        y += LINE_H


def line_text(line: Mapping[str, Any]) -> str:
    """One line of the breakdown in words, with the foundations' numbers as on the board."""
    detail = line["detail"]
    if line["key"] == "roof":
        return tr("roof on {f}: tower of {n} storeys", f=detail["foundation"],
                  n=detail["storeys"])
    if line["key"] == "bridge":
        return tr("bridge {a}-{b} adds tower {b}", a=detail["from"], b=detail["to"])
    a, b = detail["foundations"]
    return tr("bridge {a}-{b} between own roofs: both towers count twice", a=a, b=b)
