"""The final image: the final city, districts numbered, beside each player's score."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.ginkgopolis.render import icons
from engine.ginkgopolis.render.board import HEADER_H, MARGIN, WIDTH, draw_header, draw_legend
from engine.ginkgopolis.render.canvas import Box, Canvas, fit_size, fit_text, text_width
from engine.ginkgopolis.render.city import draw_city
from engine.ginkgopolis.render.layout import (
    CityLayout,
    bounds_of,
    cells_of,
    fit_pitch,
    place_city,
    require_public,
)
from engine.ginkgopolis.render.palette import (
    BACKGROUND,
    BUILDING_NAME,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    name_of,
)
from engine.ginkgopolis.render.panel import badge
from engine.ginkgopolis.render.words import language, tr

View = dict[str, Any]
Outcome = dict[str, Any]

CITY_W = 600
LEGEND_H = 64
ROW_H = 132  # room for two lines of breakdown at a size read at 550 px
TABLE_TOP = 44
COLUMNS = (
    ("tokens", "SP tokens"),
    ("card", "cards"),
    ("new_hand", "New Hand"),
    ("district", "districts"),
)
PLACE = {1: "1st", 2: "2nd"}


def _player_of(view: View, standing: dict[str, Any]) -> dict[str, Any]:
    seat = standing.get("seat")
    if seat is None:
        return next(p for p in view["players"] if p.get("hal"))
    return dict(view["players"][int(seat)])


@dataclass(frozen=True)
class FinalLayout:
    size: tuple[int, int]
    city: CityLayout
    legend: Box
    table: Box
    standings: tuple[dict[str, Any], ...]  # best rank first, as drawn
    rows: tuple[Box, ...]  # one per standing, same order


def final_layout(view: View, outcome: Outcome) -> FinalLayout:
    """Where render_final puts everything, for drawing and for tests."""
    standings = tuple(
        sorted(
            outcome["standings"],
            key=lambda s: (s["rank"], -1 if s["seat"] is None else s["seat"]),
        )
    )
    bounds = bounds_of(cells_of(view))
    pitch = fit_pitch(bounds, CITY_W, 900)
    city_w = max(CITY_W, bounds.cols * pitch)
    table_w = WIDTH - CITY_W - 3 * MARGIN
    width = city_w + table_w + 3 * MARGIN
    city_h = bounds.rows * pitch
    table_h = TABLE_TOP + ROW_H * len(standings)
    body_h = max(city_h + MARGIN + LEGEND_H, table_h)
    top = HEADER_H + MARGIN
    block_top = top + (body_h - city_h - MARGIN - LEGEND_H) // 2
    city = place_city(bounds, (MARGIN, block_top, MARGIN + city_w, block_top + city_h), pitch)
    legend_top = block_top + city_h + MARGIN
    legend = (MARGIN, legend_top, MARGIN + city_w, legend_top + LEGEND_H)
    x0 = 2 * MARGIN + city_w
    table = (x0, top, x0 + table_w, top + body_h)
    rows = tuple(
        (x0, top + TABLE_TOP + i * ROW_H, x0 + table_w, top + TABLE_TOP + (i + 1) * ROW_H - 8)
        for i in range(len(standings))
    )
    return FinalLayout((width, top + body_h + MARGIN), city, legend, table, standings, rows)


def render_final(view: View, outcome: Outcome, *, names: list[str] | None = None,
                 locale: str = "en") -> bytes:
    """PNG: final city and score breakdown (``outcome`` is ``Outcome.to_json()``), with
    each player's name (``names``, by seat) beside their colour."""
    require_public(view, "render_final")
    with language(locale):
        return _final(view, outcome, names)


def _final(view: View, outcome: Outcome, names: list[str] | None) -> bytes:
    lay = final_layout(view, outcome)
    c = Canvas.new(*lay.size, BACKGROUND)
    draw_header(c, view, lay.size[0], title=tr("Ginkgopolis - final scores"))
    draw_city(c, view, lay.city, numbered=True)
    draw_legend(c, lay.legend)
    x0, y0, x1, _ = lay.table
    c.text((x0 + 4, y0 + 6), tr("Final scoring"), 22, INK, anchor="la", bold=True)
    c.text((x1 - 4, y0 + 10), tr("numbered circles = districts"), 13, MUTED, anchor="ra")
    for box, s in zip(lay.rows, lay.standings, strict=True):
        _row(c, box, view, s, names)
    return c.png()


def _sum(lines: list[dict[str, Any]], key: str) -> int:
    return sum(int(ln["points"]) for ln in lines if ln["key"] == key)


def _row(c: Canvas, box: Box, view: View, s: dict[str, Any], names: list[str] | None) -> None:
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
    tag = tr("  - winner") if win else ""
    room = x1 - 12 - 60 - (x0 + 92) - text_width(tag, 20, bold=True)
    name = fit_text(name_of(p, names), room, 20, bold=True)
    c.text((x0 + 92, cy), name + tag, 20, INK, anchor="lm", bold=True)
    c.text((x1 - 12, cy), str(s["total"]), 28, INK, anchor="rm", bold=True)
    icons.star(c, x1 - 12 - 16 - 14 * len(str(s["total"])), cy, 24)
    lines = list(s["lines"])
    # One cell per kind of points, in the order the rulebook adds them up.
    col_w = (x1 - x0 - 24) // len(COLUMNS)
    for i, (key, label) in enumerate(COLUMNS):
        cx = x0 + 12 + i * col_w
        c.text((cx, y0 + 44), tr(label), 13, MUTED, anchor="la")
        c.text((cx, y0 + 58), str(_sum(lines, key)), 18, INK, anchor="la", bold=True)
    # Two lines at a readable size rather than one that shrinks to nothing.
    rows = _wrap(_details(lines), x1 - x0 - 24, DETAIL_SIZE)
    for i, line in enumerate(rows):
        size = fit_size(line, x1 - x0 - 24, DETAIL_SIZE, minimum=10)
        c.text((x0 + 12, y1 - 8 - 17 * (len(rows) - 1 - i)), line, size, INK, anchor="ls")


DETAIL_SIZE = 14


def _wrap(parts: list[str], width: int, size: int, most: int = 2) -> list[str]:
    """``parts`` joined by commas into at most ``most`` lines, each filled greedily."""
    rows: list[str] = []
    for part in parts:
        if rows and (len(rows) == most or
                     text_width(rows[-1] + ", " + part, size) <= width):
            rows[-1] += ", " + part
        else:
            rows.append(part)
    return rows


def _details(lines: list[dict[str, Any]]) -> list[str]:
    """Which cards and districts the points come from, matching the numbers on the city."""
    parts = []
    for ln in lines:
        d = ln.get("detail", {})
        if ln["key"] == "card":
            parts.append(f"{d.get('card')} +{ln['points']}")
    for ln in lines:
        d = ln.get("detail", {})
        if ln["key"] == "district":
            place = tr(PLACE.get(int(d.get("place", 0)), "?"))
            color = tr(BUILDING_NAME.get(str(d.get("color")), "?").lower())
            parts.append(tr("district {n} ({colour}) {place} +{points}", n=d.get("district"),
                            colour=color, place=place, points=ln["points"]))
    return parts
