"""The public board image: header, city, legend, and one panel per player."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.ginkgopolis.render import icons
from engine.ginkgopolis.render.canvas import Box, Canvas, fit_size
from engine.ginkgopolis.render.city import LABELLED_PITCH, draw_city
from engine.ginkgopolis.render.layout import (
    CityLayout,
    bounds_of,
    cells_of,
    fit_pitch,
    labelled_cells,
    labelled_pitch,
    place_city,
    require_public,
    two_columns,
)
from engine.ginkgopolis.render.palette import (
    BACKGROUND,
    BUILDING_FILL,
    BUILDING_TINT,
    DISTRICT_EDGE,
    HIGHLIGHT,
    INK,
)
from engine.ginkgopolis.render.panel import badge, draw_panel, panel_height
from engine.ginkgopolis.render.tiles import (
    MIN_LABEL,
    draw_token,
    floors_width,
    height_badge,
    label_plate,
    owner_disc,
    paste_face,
)
from engine.ginkgopolis.render.words import language, name_of, tr

View = dict[str, Any]

WIDTH = 1100
MARGIN = 12
HEADER_H = 56
LEGEND_H = 3 * 36  # three lines of two samples, the words at LEGEND_FONT
LEGEND_FONT = 22
HEADER_FONT = 22  # 11 px at 550 wide
CITY_W = 600  # the city column; the panels take the rest of the width
CITY_W_WIDE = 640  # a city of nine columns keeps its labels: the panels give up 40 px
PANEL_GAP = 8
CITY_MAX_H = 900
MAX_WIDTH = 1800


@dataclass(frozen=True)
class BoardLayout:
    size: tuple[int, int]
    city: CityLayout
    city_area: Box
    panels: tuple[Box, ...]
    legend: Box


def board_layout(view: View, *, bounds_cells: list[tuple[int, int]] | None = None) -> BoardLayout:
    """Where render_board puts everything, for drawing and for tests."""
    # The board labels the cells beside the city too: they must lie inside its area.
    cells = bounds_cells if bounds_cells is not None else cells_of(view)
    bounds = bounds_of([*cells, *labelled_cells(view)])
    pitch = labelled_pitch(bounds, fit_pitch(bounds, CITY_W, CITY_MAX_H), CITY_W_WIDE,
                           CITY_MAX_H, LABELLED_PITCH)
    city_w = max(CITY_W, bounds.cols * pitch)
    panel_w = WIDTH - (city_w if city_w <= CITY_W_WIDE else CITY_W) - 3 * MARGIN
    width = min(MAX_WIDTH, city_w + panel_w + 3 * MARGIN)
    if city_w + panel_w + 3 * MARGIN > MAX_WIDTH:
        # A sprawling line of buildings: shrink the cells rather than the panels.
        city_w = MAX_WIDTH - panel_w - 3 * MARGIN
        pitch = max(24, city_w // bounds.cols)
    city_h = bounds.rows * pitch
    top = HEADER_H + MARGIN
    block_h = city_h + MARGIN + LEGEND_H
    right_x = MARGIN * 2 + city_w
    placed, bottoms = two_columns(
        ((panel_height(p, panel_w), panel_height(p, city_w)) for p in view["players"]),
        top, top + block_h + MARGIN, PANEL_GAP)
    shift = 0
    if all(side == "right" for side, _, _ in placed):
        # Only the column beside the city: the city and legend sit in its middle.
        shift = max(0, (bottoms["right"] - PANEL_GAP - top - block_h) // 2)
    city_area = (MARGIN, top + shift, MARGIN + city_w, top + shift + city_h)
    city = place_city(bounds, city_area, pitch)
    legend_top = top + shift + city_h + MARGIN
    legend = (MARGIN, legend_top, MARGIN + city_w, legend_top + LEGEND_H)
    panels = tuple(
        (right_x, y, right_x + panel_w, y + h) if side == "right"
        else (MARGIN, y, MARGIN + city_w, y + h)
        for side, y, h in placed
    )
    used = [legend[3]] + [box[3] for box in panels]
    height = max(used) + MARGIN
    return BoardLayout((width, height), city, city_area, panels, legend)


def render_board(view: View, *, names: list[str] | None = None, locale: str = "en") -> bytes:
    """PNG of the public board. Refuses a seat's view: what is posted must hold no secret.
    ``names`` (by seat) are written beside each player's colour; labels in ``locale``."""
    require_public(view, "render_board")
    with language(locale):
        return _board(view, names)


def _board(view: View, names: list[str] | None) -> bytes:
    lay = board_layout(view)
    c = Canvas.new(*lay.size, BACKGROUND)
    draw_header(c, view, lay.size[0])
    draw_city(c, view, lay.city, coordinates=True)
    for box, p in zip(lay.panels, view["players"], strict=True):
        draw_panel(
            c,
            box,
            p,
            first=_is_first(view, p),
            drafting=view.get("phase") == "draft",
            solo=bool(view.get("solo")),
            name=name_of(p, names),
        )
    draw_legend(c, lay.legend)
    return c.png()


def _is_first(view: View, p: dict[str, Any]) -> bool:
    return not p.get("hal") and p.get("seat") == view.get("first")


def draw_header(c: Canvas, view: View, width: int, *, title: str = "Ginkgopolis") -> None:
    c.d.rectangle((0, 0, width, HEADER_H), fill=INK)
    cy = HEADER_H // 2
    x = MARGIN + 4
    x += c.text((x, cy), title, 28, (255, 255, 255), anchor="lm", bold=True) + 22
    phase = view.get("phase")
    label = tr("Round {n}", n=view.get("round"))
    if phase == "over":
        label = tr("Final city - round {n}", n=view.get("round"))
    elif phase == "draft":
        label = tr("Character draft")
    w = c.text((x + 10, cy), label, 22, INK, anchor="lm", bold=True)
    c.d.rounded_rectangle((x, cy - 17, x + w + 20, cy + 17), radius=8, fill=HIGHLIGHT)
    c.text((x + 10, cy), label, 22, INK, anchor="lm", bold=True)
    x += w + 40
    light = (230, 226, 216)
    if phase != "over":  # at the end, deck and supply no longer matter: room for the title
        x += c.text((x, cy), tr("Deck {n} cards", n=view.get("deck")), HEADER_FONT, light,
                    anchor="lm") + 22
        icons.tile(c, x + 9, cy, 18)
        supply = tr("Tile supply {n}", n=view.get("supply"))
        if view.get("exhaustions"):
            supply = tr("Tile supply {n} (ran out {k}x)", n=view.get("supply"),
                        k=view.get("exhaustions"))
        x += 24 + c.text((x + 24, cy), supply, HEADER_FONT, light, anchor="lm") + 22
    first = next((p for p in view["players"] if _is_first(view, p)), None)
    if first is not None:
        x += c.text((x, cy), tr("First:"), HEADER_FONT, light, anchor="lm") + 8
        badge(c, x + 20, cy, 36, str(first["color"]), on_dark=True)
        x += 44
    if view.get("end_triggered") and phase != "over":
        c.text((width - MARGIN - 4, cy), tr("LAST ROUND"), HEADER_FONT, HIGHLIGHT, anchor="rm",
               bold=True)


def draw_legend(c: Canvas, box: Box) -> None:
    """Samples of each mark with a few words, so a newcomer can decode the city."""
    x0, y0, x1, y1 = box
    col = (x1 - x0) // 2
    row = (y1 - y0) // 3
    for i, (sample, words) in enumerate(_LEGEND):
        x = x0 + (i % 2) * col
        cy = y0 + (i // 2) * row + row // 2
        sample(c, x, cy, min(row - 6, 30))
        label = tr(words)
        c.text((x + 66, cy), label, fit_size(label, col - 70, LEGEND_FONT, minimum=18), INK,
               anchor="lm")


def _sample_tile(c: Canvas, x: int, cy: int, s: int) -> None:
    box = (x + 4, cy - s // 2 - 1, x + 58, cy + s // 2 + 1)
    paste_face(c, "R", box)
    label_plate(c, "R", ((box[0] + box[2]) / 2, cy + 1), "R7", MIN_LABEL)


def _sample_floors(c: Canvas, x: int, cy: int, s: int) -> None:
    w = floors_width(2, s, MIN_LABEL)
    height_badge(c, (x + 10, cy - s // 2, x + 10 + w, cy + s // 2), 2, size=MIN_LABEL)


def _sample_owner(c: Canvas, x: int, cy: int, s: int) -> None:
    owner_disc(c, (x + 14, cy - s // 2, x + 14 + s, cy + s // 2), "green", MIN_LABEL)


def _sample_site(c: Canvas, x: int, cy: int, s: int) -> None:
    icons.hazard_corner(c, x + 16, cy - s // 2, s)


def _sample_token(c: Canvas, x: int, cy: int, s: int) -> None:
    draw_token(c, (x + 6, cy - s, x + 6 + 2 * s, cy + s), "A", minimum=MIN_LABEL)


def _sample_district(c: Canvas, x: int, cy: int, s: int) -> None:
    h = s // 2
    c.d.rectangle((x + 4, cy - h, x + 52, cy + h), fill=DISTRICT_EDGE)
    c.d.rectangle((x + 7, cy - h + 3, x + 49, cy + h - 3), fill=BUILDING_TINT["Y"])
    c.d.rectangle((x + 10, cy - h + 6, x + 26, cy + h - 6), fill=BUILDING_FILL["Y"], outline=INK)
    c.d.rectangle((x + 30, cy - h + 6, x + 46, cy + h - 6), fill=BUILDING_FILL["Y"], outline=INK)


_LEGEND: tuple[tuple[Callable[[Canvas, int, int, int], None], str], ...] = (
    (_sample_tile, "Red 7 (its card: R7)"),
    (_sample_floors, "floors (height)"),
    (_sample_owner, "owner: 1 cube/floor"),
    (_sample_site, "construction site"),
    (_sample_token, "token: build here"),
    (_sample_district, "district: 2+ touching"),
)
