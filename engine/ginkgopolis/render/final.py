"""The final image: the final city, districts numbered, beside each player's score."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.ginkgopolis.render import icons
from engine.ginkgopolis.render.board import (
    CITY_W_WIDE,
    HEADER_H,
    LEGEND_H,
    MARGIN,
    WIDTH,
    draw_header,
    draw_legend,
)
from engine.ginkgopolis.render.canvas import Box, Canvas, fit_text, text_width
from engine.ginkgopolis.render.city import LABELLED_PITCH, draw_city
from engine.ginkgopolis.render.layout import (
    CityLayout,
    bounds_of,
    cells_of,
    fit_pitch,
    labelled_pitch,
    place_city,
    require_public,
    two_columns,
)
from engine.ginkgopolis.render.palette import (
    BACKGROUND,
    BUILDING_NAME,
    DISTRICT_EDGE,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    WHITE,
)
from engine.ginkgopolis.render.panel import badge
from engine.ginkgopolis.render.words import language, name_of, tr

View = dict[str, Any]
Outcome = dict[str, Any]

CITY_W = 600
TABLE_TOP = 74  # the title and the note on districts
FONT = 22  # every word and number of a row: 11 px once the image is shown 550 wide
HEAD_H = 52  # rank, badge, name, total
LINE_H = 34
INDENT = 24  # a breakdown line continued
MARKER_R = 15  # a district's number, drawn as on the city
ROW_GAP = 8
COLUMNS = (
    ("tokens", "SP tokens"),
    ("card", "cards"),
    ("new_hand", "New Hand"),
    ("district", "districts"),
)
PLACE = {1: "1st", 2: "2nd"}

# A row's breakdown as pieces laid out in lines: (kind, text, district number or 0).
Piece = tuple[str, str, int]


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


def final_layout(view: View, outcome: Outcome, *, locale: str = "en") -> FinalLayout:
    """Where render_final puts everything, for drawing and for tests (a row's height
    depends on its words, so on the ``locale``)."""
    with language(locale):
        return _layout(view, outcome)


def _layout(view: View, outcome: Outcome) -> FinalLayout:
    standings = tuple(
        sorted(
            outcome["standings"],
            key=lambda s: (s["rank"], -1 if s["seat"] is None else s["seat"]),
        )
    )
    bounds = bounds_of(cells_of(view))
    pitch = labelled_pitch(bounds, fit_pitch(bounds, CITY_W, 900), CITY_W_WIDE, 900,
                           LABELLED_PITCH)
    city_w = max(CITY_W, bounds.cols * pitch)
    table_w = WIDTH - (city_w if city_w <= CITY_W_WIDE else CITY_W) - 3 * MARGIN
    width = city_w + table_w + 3 * MARGIN
    city_h = bounds.rows * pitch
    top = HEADER_H + MARGIN
    block_h = city_h + MARGIN + LEGEND_H
    x0 = 2 * MARGIN + city_w
    placed, bottoms = two_columns(
        ((row_height(s, table_w), row_height(s, city_w)) for s in standings),
        top + TABLE_TOP, top + block_h + MARGIN, ROW_GAP)
    shift = 0
    if all(side == "right" for side, _, _ in placed):
        shift = max(0, (bottoms["right"] - ROW_GAP - top - block_h) // 2)
    city = place_city(bounds, (MARGIN, top + shift, MARGIN + city_w, top + shift + city_h), pitch)
    legend_top = top + shift + city_h + MARGIN
    legend = (MARGIN, legend_top, MARGIN + city_w, legend_top + LEGEND_H)
    rows = tuple(
        (x0, y, x0 + table_w, y + h) if side == "right" else (MARGIN, y, MARGIN + city_w, y + h)
        for side, y, h in placed
    )
    height = max([legend[3], *(r[3] for r in rows)]) + MARGIN
    table = (x0, top, x0 + table_w, height - MARGIN)
    return FinalLayout((width, height), city, legend, table, standings, rows)


def render_final(view: View, outcome: Outcome, *, names: list[str] | None = None,
                 locale: str = "en") -> bytes:
    """PNG: final city and score breakdown (``outcome`` is ``Outcome.to_json()``), with
    each player's name (``names``, by seat) beside their colour."""
    require_public(view, "render_final")
    with language(locale):
        return _final(view, outcome, names)


def _final(view: View, outcome: Outcome, names: list[str] | None) -> bytes:
    lay = _layout(view, outcome)
    c = Canvas.new(*lay.size, BACKGROUND)
    draw_header(c, view, lay.size[0], title=tr("Ginkgopolis - final scores"))
    draw_city(c, view, lay.city, numbered=True)
    draw_legend(c, lay.legend)
    x0, y0, x1, _ = lay.table
    c.text((x0 + 4, y0 + 4), tr("Final scoring"), 26, INK, anchor="la", bold=True)
    note = tr("numbered circles = districts")
    c.text((x0 + 4, y0 + 40), fit_text(note, x1 - x0 - 8, FONT), FONT, MUTED, anchor="la")
    for box, s in zip(lay.rows, lay.standings, strict=True):
        _row(c, box, view, s, names)
    return c.png()


def _sum(lines: list[dict[str, Any]], key: str) -> int:
    return sum(int(ln["points"]) for ln in lines if ln["key"] == key)


def _pieces(s: dict[str, Any]) -> list[list[Piece]]:
    """The breakdown in groups that start a line: the SP tokens and New Hand sums, then
    the cards and the districts, each with the items its points come from (matching the
    numbers on the city)."""
    lines = list(s["lines"])
    label = dict(COLUMNS)
    first: list[Piece] = []
    for key in ("tokens", "new_hand"):
        first += [("label", tr(label[key]), 0), ("value", str(_sum(lines, key)), 0)]
    cards: list[Piece] = [("label", tr(label["card"]), 0), ("value", str(_sum(lines, "card")), 0)]
    for ln in lines:
        if ln["key"] == "card":
            cards.append(("detail", f"{ln.get('detail', {}).get('card')} +{ln['points']}", 0))
    dist: list[Piece] = [("label", tr(label["district"]), 0),
                         ("value", str(_sum(lines, "district")), 0)]
    for ln in lines:
        if ln["key"] == "district":
            d = ln.get("detail", {})
            place = tr(PLACE.get(int(d.get("place", 0)), "?"))
            colour = tr(BUILDING_NAME.get(str(d.get("color")), "?").lower())
            dist.append(("district", tr("{colour} {place} +{points}", colour=colour, place=place,
                                        points=ln["points"]), int(d.get("district", 0))))
    return [first, cards, dist]


def _piece_width(piece: Piece) -> int:
    kind, text, _n = piece
    if kind == "value":
        return text_width(text, FONT, bold=True) + 20
    if kind == "district":
        return 2 * MARKER_R + 6 + text_width(text, FONT) + 18
    return text_width(text, FONT) + (8 if kind == "label" else 18)


def breakdown_lines(s: dict[str, Any], width: int) -> list[list[Piece]]:
    """The pieces cut into lines ``width`` wide; a group's later lines are indented."""
    out: list[list[Piece]] = []
    for group in _pieces(s):
        out.append([])
        used = 0
        for piece in group:
            w = _piece_width(piece)
            if out[-1] and used + w > width:
                out.append([])
                used = INDENT
            out[-1].append(piece)
            used += w
    return out


def row_height(s: dict[str, Any], width: int) -> int:
    return HEAD_H + LINE_H * len(breakdown_lines(s, width - 24)) + 8


def _row(c: Canvas, box: Box, view: View, s: dict[str, Any], names: list[str] | None) -> None:
    x0, y0, x1, _y1 = box
    p = _player_of(view, s)
    win = s["rank"] == 1
    c.d.rounded_rectangle(
        box, radius=10, fill=PANEL, outline=HIGHLIGHT if win else PANEL_EDGE, width=4 if win else 2
    )
    cy = y0 + HEAD_H // 2 + 2
    c.text((x0 + 12, cy), f"#{s['rank']}", 26, INK, anchor="lm", bold=True)
    badge(c, x0 + 74, cy, 36, str(p["color"]))
    total = str(s["total"])
    total_w = text_width(total, 32, bold=True)
    c.text((x1 - 12, cy), total, 32, INK, anchor="rm", bold=True)
    icons.star(c, x1 - 12 - total_w - 18, cy, 28)
    tag = tr("winner") if win else ""
    tag_w = text_width(tag, FONT, bold=True) + 14 if tag else 0
    room = x1 - 12 - total_w - 44 - (x0 + 100) - (tag_w + 10 if tag else 0)
    name = fit_text(name_of(p, names), room, 26, bold=True)
    x = x0 + 100 + c.text((x0 + 100, cy), name, 26, INK, anchor="lm", bold=True) + 10
    if tag:
        c.d.rounded_rectangle((x, cy - 15, x + tag_w, cy + 15), radius=6, fill=HIGHLIGHT,
                              outline=INK, width=1)
        c.text((x + 7, cy), tag, FONT, INK, anchor="lm", bold=True)
    y = y0 + HEAD_H
    for line in breakdown_lines(s, x1 - x0 - 24):
        x = x0 + 12 if line[0][0] == "label" else x0 + 12 + INDENT
        ly = y + LINE_H // 2
        for piece in line:
            kind, text, n = piece
            if kind == "label":
                c.text((x, ly), text, FONT, MUTED, anchor="lm")
            elif kind == "value":
                c.text((x, ly), text, FONT, INK, anchor="lm", bold=True)
            elif kind == "district":
                cx = x + MARKER_R
                c.d.ellipse((cx - MARKER_R, ly - MARKER_R, cx + MARKER_R, ly + MARKER_R),
                            fill=DISTRICT_EDGE)
                c.text((cx, ly), str(n), FONT, WHITE, anchor="mm", bold=True)
                c.text((x + 2 * MARKER_R + 6, ly), text, FONT, INK, anchor="lm")
            else:
                c.text((x, ly), text, FONT, INK, anchor="lm")
            x += _piece_width(piece)
        y += LINE_H
