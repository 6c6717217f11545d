"""The final image: the final city above each player's score pad, as the outcome's
lines give it (best region + second region + 3 x worst region + 3 per unused token,
each region's track points plus its largest group, neotopia.fr.txt L567-624)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.neotopia.render import pieces
from engine.neotopia.render.board import HEADER_H, MARGIN, WIDTH, draw_header
from engine.neotopia.render.canvas import MIN_TEXT, Box, Canvas, clip, text_width
from engine.neotopia.render.geometry import HexLayout, fit_layout
from engine.neotopia.render.hexboard import draw_city
from engine.neotopia.render.model import Board, View, read_board, require_public
from engine.neotopia.render.palette import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    REGION_EDGE,
    REGION_LETTER,
    REGION_NAME,
    shade,
)
from engine.neotopia.render.words import language, tr

Outcome = Mapping[str, Any]

CITY_H = 840  # cells large enough for their numbers at MIN_TEXT
ROW_H = 196  # a name line, then the pad and the sum side by side, every text at MIN_TEXT
ROW_GAP = 10
TITLE_H = 66  # the title, and under it how the points add up
LINE_LABEL = {"best": "best region", "second": "second region", "worst_x3": "worst x3",
              "tokens": "tokens x3"}
REGION_KEYS = ("best", "second", "worst_x3")


@dataclass(frozen=True)
class FinalLayout:
    size: tuple[int, int]
    city: HexLayout
    standings: tuple[Mapping[str, Any], ...]  # best rank first, as drawn
    rows: tuple[Box, ...]  # one per standing, same order


def final_layout(view: View, outcome: Outcome, names: Sequence[str] = ()) -> FinalLayout:
    return _layout(read_board(view, names), outcome)


def _layout(board: Board, outcome: Outcome) -> FinalLayout:
    standings = tuple(sorted(outcome["standings"], key=lambda s: (
        int(s["rank"]), -1 if s.get("seat") is None else int(s["seat"]))))
    top = HEADER_H + MARGIN
    city = fit_layout(board.geometry, (MARGIN, top, WIDTH - MARGIN, top + CITY_H))
    y = top + CITY_H + MARGIN + TITLE_H
    rows = tuple((MARGIN, y + i * (ROW_H + ROW_GAP), WIDTH - MARGIN,
                  y + i * (ROW_H + ROW_GAP) + ROW_H) for i in range(len(standings)))
    height = (rows[-1][3] if rows else y) + MARGIN
    return FinalLayout((WIDTH, height), city, standings, rows)


def render_final(view: View, outcome: Outcome, names: Sequence[str] = (), *,
                 locale: str = "en") -> bytes:
    """PNG: the final city and every player's score pad (``Outcome.to_json()``); the
    labels in ``locale``."""
    require_public(view, "render_final")
    with language(locale):
        return _final(view, outcome, names)


def _final(view: View, outcome: Outcome, names: Sequence[str]) -> bytes:
    board = read_board(view, names)
    lay = _layout(board, outcome)
    c = Canvas.new(*lay.size, BACKGROUND)
    draw_header(c, board, WIDTH, title=tr("Neotopia - final scores"))
    draw_city(c, board, lay.city, groups=True)
    y = HEADER_H + MARGIN + CITY_H + MARGIN + 14
    c.text((MARGIN + 2, y), tr("Final scoring"), MIN_TEXT, INK, anchor="lm", bold=True)
    how = tr("shaded: each largest group; best + second + 3 x worst + 3 per token")
    c.text((MARGIN + 2, y + 30), clip(how, WIDTH - 2 * MARGIN - 4, MIN_TEXT), MIN_TEXT, MUTED,
           anchor="lm")
    for box, s in zip(lay.rows, lay.standings, strict=True):
        _row(c, box, board, s)
    return c.png()


def _row(c: Canvas, box: Box, board: Board, s: Mapping[str, Any]) -> None:
    x0, y0, x1, y1 = box
    win = int(s["rank"]) == 1
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=HIGHLIGHT if win else PANEL_EDGE,
                          width=5 if win else 2)
    seat = s.get("seat")
    player = board.players[int(seat)] if seat is not None and int(seat) < len(
        board.players) else None
    cy = y0 + 28
    c.text((x0 + 14, cy), f"#{s['rank']}", 26, INK, anchor="lm", bold=True)
    name = player.name if player else str(s.get("name", "?"))
    if player is not None:
        pieces.badge(c, x0 + 82, cy, 34, player.colour, minimum=MIN_TEXT)
    words = tr("points") + (tr("  - winner") if win else "")
    right = x1 - 14 - c.text((x1 - 14, cy), words, MIN_TEXT, MUTED, anchor="rm", bold=win)
    right -= 10 + c.text((right - 10, cy + 2), str(s["total"]), 36, INK, anchor="rm", bold=True)
    c.text((x0 + 106, cy), clip(name, right - x0 - 130, 22, bold=True), 22, INK, anchor="lm",
           bold=True)
    lines = [dict(ln) for ln in s.get("lines", [])]
    mid = x0 + (x1 - x0) // 2
    _pad_table(c, (x0 + 14, y0 + 52, mid - 10, y1 - 8), board, lines)
    _sum(c, (mid + 10, y0 + 52, x1 - 14, y1 - 8), lines, int(s["total"]))


def _pad_table(c: Canvas, box: Box, board: Board, lines: list[dict[str, Any]]) -> None:
    """Track, group and region total per region, in the board's region order."""
    x0, y0, x1, y1 = box
    per_region = {str(ln["detail"]["region"]): ln["detail"] for ln in lines
                  if ln.get("key") in REGION_KEYS and "region" in ln.get("detail", {})}
    regions = [r for r in board.geometry.regions if r in per_region]
    labels = ("", tr("track"), tr("+ group"), tr("= region"))
    label_w = max(text_width(t, MIN_TEXT, bold=True) for t in labels) + 12
    col = (x1 - x0 - label_w) / max(1, len(regions))
    row = (y1 - y0) / 4
    for i, label in enumerate(labels):
        c.text((x0, y0 + row * (i + 0.5)), label, MIN_TEXT, MUTED, anchor="lm", bold=i == 3)
    for j, region in enumerate(regions):
        cx = x0 + label_w + j * col + col / 2
        edge = shade(REGION_EDGE.get(region, MUTED), 0.5)
        title = tr(REGION_NAME.get(region, region))
        if text_width(title, MIN_TEXT, bold=True) > col - 6:  # the board's letter then
            title = REGION_LETTER.get(region, title[:1])
        c.text((cx, y0 + row * 0.5), title, MIN_TEXT, edge, anchor="mm", bold=True)
        d = per_region[region]
        for i, key in enumerate(("track", "group", "total"), start=1):
            value = d.get(key)
            text = "?" if value is None else (f"+{value}" if key == "group" else str(value))
            c.text((cx, y0 + row * (i + 0.5)), text, 22 if key == "total" else MIN_TEXT, INK,
                   anchor="mm", bold=key == "total")
    c.d.line((x0, y0 + row * 3, x1, y0 + row * 3), fill=PANEL_EDGE, width=2)


def _sum(c: Canvas, box: Box, lines: list[dict[str, Any]], total: int) -> None:
    """Each outcome line on its own row (label, where from, points), then the sum."""
    x0, y0, x1, y1 = box
    n = len(lines) + 1
    row = (y1 - y0) / max(4, n)
    for i, ln in enumerate(lines):
        cy = y0 + row * (i + 0.5)
        key = str(ln.get("key"))
        d = ln.get("detail", {})
        label = tr(LINE_LABEL.get(key, key.replace("_", " ")))
        if "region" in d:
            region = tr(REGION_NAME.get(str(d["region"]), str(d["region"])))
            label = tr("{label}: {region} {total}", label=label, region=region,
                       total=d.get("total", "")).rstrip()
            if key == "worst_x3":
                label = tr("worst: {region} {total} x 3", region=region,
                           total=d.get("total", "?"))
        elif key == "tokens":
            one = d.get("count") == 1
            label = tr("{n} unused token x 3" if one else "{n} unused tokens x 3",
                       n=d.get("count", "?"))
        c.text((x0, cy), clip(label, x1 - x0 - 64, MIN_TEXT), MIN_TEXT, INK, anchor="lm")
        c.text((x1, cy), f"{'+' if i else ''}{ln.get('points')}", MIN_TEXT, INK, anchor="rm",
               bold=True)
    cy = y0 + row * (len(lines) + 0.5)
    c.d.line((x1 - 60, cy - row / 2 + 2, x1, cy - row / 2 + 2), fill=INK, width=2)
    c.text((x1, cy + 2), f"= {total}", 22, INK, anchor="rm", bold=True)
