"""The final image: the final city, districts numbered, beside each player's score."""

from __future__ import annotations

from typing import Any

from engine.ginkgopolis.render import icons
from engine.ginkgopolis.render.board import HEADER_H, MARGIN, WIDTH, draw_header, draw_legend
from engine.ginkgopolis.render.canvas import Box, Canvas, fit_size
from engine.ginkgopolis.render.city import draw_city
from engine.ginkgopolis.render.layout import bounds_of, cells_of, fit_pitch, place_city
from engine.ginkgopolis.render.palette import (
    BACKGROUND,
    BUILDING_NAME,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    player_name,
)
from engine.ginkgopolis.render.panel import badge

View = dict[str, Any]
Outcome = dict[str, Any]

CITY_W = 600
LEGEND_H = 64
ROW_H = 118
COLUMNS = (("tokens", "SP"), ("card", "cards"), ("new_hand", "New Hand"), ("district", "districts"))
PLACE = {1: "1st", 2: "2nd"}


def _player_of(view: View, standing: dict[str, Any]) -> dict[str, Any]:
    seat = standing.get("seat")
    if seat is None:
        return next(p for p in view["players"] if p.get("hal"))
    return dict(view["players"][int(seat)])


def render_final(view: View, outcome: Outcome) -> bytes:
    """PNG: final city and score breakdown (``outcome`` is ``Outcome.to_json()``)."""
    standings = sorted(
        outcome["standings"], key=lambda s: (s["rank"], -1 if s["seat"] is None else s["seat"])
    )
    bounds = bounds_of(cells_of(view))
    pitch = fit_pitch(bounds, CITY_W, 900)
    city_w = max(CITY_W, bounds.cols * pitch)
    table_w = WIDTH - CITY_W - 3 * MARGIN
    width = city_w + table_w + 3 * MARGIN
    city_h = bounds.rows * pitch
    table_h = 44 + ROW_H * len(standings)
    body_h = max(city_h + MARGIN + LEGEND_H, table_h)
    top = HEADER_H + MARGIN
    c = Canvas.new(width, top + body_h + MARGIN, BACKGROUND)
    draw_header(c, view, width, title="Ginkgopolis - final scores")
    block_top = top + (body_h - city_h - MARGIN - LEGEND_H) // 2
    lay = place_city(bounds, (MARGIN, block_top, MARGIN + city_w, block_top + city_h), pitch)
    draw_city(c, view, lay, numbered=True)
    legend_top = block_top + city_h + MARGIN
    draw_legend(c, (MARGIN, legend_top, MARGIN + city_w, legend_top + LEGEND_H))
    x0 = 2 * MARGIN + city_w
    _table(c, (x0, top, x0 + table_w, top + body_h), view, standings)
    return c.png()


def _sum(lines: list[dict[str, Any]], key: str) -> int:
    return sum(int(ln["points"]) for ln in lines if ln["key"] == key)


def _table(c: Canvas, box: Box, view: View, standings: list[dict[str, Any]]) -> None:
    x0, y0, x1, _ = box
    c.text((x0 + 4, y0 + 6), "Final scoring", 22, INK, anchor="la", bold=True)
    c.text((x1 - 4, y0 + 10), "numbered circles = districts", 13, MUTED, anchor="ra")
    y = y0 + 44
    for s in standings:
        _row(c, (x0, y, x1, y + ROW_H - 8), view, s)
        y += ROW_H


def _row(c: Canvas, box: Box, view: View, s: dict[str, Any]) -> None:
    x0, y0, x1, y1 = box
    p = _player_of(view, s)
    win = s["rank"] == 1
    c.d.rounded_rectangle(
        box, radius=10, fill=PANEL, outline=HIGHLIGHT if win else PANEL_EDGE, width=4 if win else 2
    )
    cy = y0 + 22
    rank = f"#{s['rank']}"
    c.text((x0 + 12, cy), rank, 22, INK, anchor="lm", bold=True)
    badge(c, x0 + 70, cy, 30, str(p["color"]))
    name = player_name(str(p["color"]), bool(p.get("hal")))
    c.text((x0 + 92, cy), name + ("  - winner" if win else ""), 20, INK, anchor="lm", bold=True)
    c.text((x1 - 12, cy), str(s["total"]), 28, INK, anchor="rm", bold=True)
    icons.star(c, x1 - 12 - 16 - 14 * len(str(s["total"])), cy, 24)
    lines = list(s["lines"])
    # One cell per kind of points, in the order the rulebook adds them up.
    col_w = (x1 - x0 - 24) // len(COLUMNS)
    for i, (key, label) in enumerate(COLUMNS):
        cx = x0 + 12 + i * col_w
        c.text((cx, y0 + 44), label, 13, MUTED, anchor="la")
        c.text((cx, y0 + 58), str(_sum(lines, key)), 18, INK, anchor="la", bold=True)
    details = _details(lines)
    if details:
        size = fit_size(details, x1 - x0 - 24, 13)
        c.text((x0 + 12, y1 - 8), details, size, INK, anchor="ls")


def _details(lines: list[dict[str, Any]]) -> str:
    """Which cards and districts the points come from, matching the numbers on the city."""
    parts = []
    for ln in lines:
        d = ln.get("detail", {})
        if ln["key"] == "card":
            parts.append(f"{d.get('card')} +{ln['points']}")
    for ln in lines:
        d = ln.get("detail", {})
        if ln["key"] == "district":
            place = PLACE.get(int(d.get("place", 0)), "?")
            color = BUILDING_NAME.get(str(d.get("color")), "?").lower()
            parts.append(f"district {d.get('district')} ({color}) {place} +{ln['points']}")
    return ", ".join(parts)
