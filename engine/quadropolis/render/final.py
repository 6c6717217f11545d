"""The final image: each city with its allocation, and the score by category.

A city shows which buildings were activated (in colour) and which were removed
(greyed and crossed out), and on each activated building the inhabitants and energy
placed there: activation costs, a shop's customers, the barrel a park absorbs. Beside
it, the player's points per category as the engine's outcome lines give them, the
unplaced resources and the two tie-break figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.quadropolis.render import icons
from engine.quadropolis.render.board import HEADER_H, MARGIN, WIDTH, draw_header
from engine.quadropolis.render.canvas import MIN_TEXT, Box, Canvas, clip
from engine.quadropolis.render.city import CityLayout, city_layout, draw_city
from engine.quadropolis.render.model import Allocation, Board, Tile
from engine.quadropolis.render.palette import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    player_fill,
)
from engine.quadropolis.render.panel import name_line
from engine.quadropolis.render.read import read_allocation, read_board, require_public
from engine.quadropolis.render.tiles import draw_tile
from engine.quadropolis.render.words import language, tr

View = dict[str, Any]
Outcome = Mapping[str, Any]

LEGEND_H = 44
HEAD_H = 40
LINE_H = 25
FOOT_H = 52

# Outcome line keys -> (label, building kind drawn beside it, or None).
CATEGORIES: dict[str, tuple[str, str | None]] = {
    "tower_blocks": ("Tower blocks", "tower_block"),
    "shops": ("Shops", "shop"),
    "public_services": ("Public serv.", "public_service"),
    "parks": ("Parks", "park"),
    "factories": ("Factories", "factory"),
    "harbors": ("Harbors", "harbor"),
    "offices": ("Offices", "office"),
    "monuments": ("Monuments", "monument"),
    "penalty_inhabitants": ("Idle people", None),
    "penalty_energy": ("Pollution", None),
}


# Lines that are not a category of points: their figures go to the block's footer.
NOT_CATEGORIES = frozenset({"tiebreak"})


def category_lines(standing: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The outcome lines drawn as categories, in the engine's order."""
    return [ln for ln in standing.get("lines") or () if ln["key"] not in NOT_CATEGORIES]


def category_label(key: str) -> str:
    return tr(CATEGORIES.get(key, (key.replace("_", " ").capitalize(), None))[0])


@dataclass(frozen=True)
class FinalLayout:
    size: tuple[int, int]
    standings: tuple[Mapping[str, Any], ...]  # best rank first, as drawn
    blocks: tuple[Box, ...]  # one per standing, same order
    cities: tuple[CityLayout, ...]
    lines: tuple[tuple[Box, ...], ...]  # per standing, one box per category line, in order
    legend: Box


def _pitch(board: Board) -> int:
    return 60 if board.expert else 72


def final_layout(board: Board, outcome: Outcome) -> FinalLayout:
    standings = tuple(sorted(outcome["standings"],
                             key=lambda s: (int(s["rank"]), int(s.get("seat") or 0))))
    lines = max((len(category_lines(s)) for s in standings), default=0)
    pitch = _pitch(board)
    probe = city_layout(0, 0, pitch, board.city_rows, board.city_cols)
    bw = (WIDTH - 3 * MARGIN) // 2
    bh = HEAD_H + probe.height + 8 + ((lines + 1) // 2) * LINE_H + FOOT_H
    top = HEADER_H + MARGIN
    blocks: list[Box] = []
    cities: list[CityLayout] = []
    line_boxes: list[tuple[Box, ...]] = []
    col_w = (bw - 30) // 2
    for i, s in enumerate(standings):
        x = MARGIN + (i % 2) * (bw + MARGIN)
        y = top + (i // 2) * (bh + MARGIN)
        blocks.append((x, y, x + bw, y + bh))
        cities.append(city_layout(x + (bw - probe.width) // 2, y + HEAD_H, pitch,
                                  board.city_rows, board.city_cols))
        ly = y + HEAD_H + probe.height + 8
        line_boxes.append(tuple(
            (x + 18 + (k % 2) * (col_w + 6), ly + (k // 2) * LINE_H,
             x + 18 + (k % 2) * (col_w + 6) + col_w, ly + (k // 2 + 1) * LINE_H)
            for k in range(len(category_lines(s)))
        ))
    rows = (len(blocks) + 1) // 2
    legend_top = top + rows * (bh + MARGIN)
    legend = (MARGIN, legend_top, WIDTH - MARGIN, legend_top + LEGEND_H)
    return FinalLayout((WIDTH, legend[3] + MARGIN), standings, tuple(blocks), tuple(cities),
                       tuple(line_boxes), legend)


def allocation_of(view: View, standing: Mapping[str, Any]) -> Allocation | None:
    """The seat's chosen allocation: the view's ``final`` entry, else a line's detail."""
    seat = standing.get("seat")
    for entry in view.get("final") or ():
        if entry.get("seat") == seat:
            return read_allocation(entry)
    for line in standing.get("lines") or ():
        detail = line.get("detail") or {}
        if "buildings" in detail:
            return read_allocation(detail)
    return None


def _final_entry(view: View, seat: Any) -> Mapping[str, Any]:
    for entry in view.get("final") or ():
        if entry.get("seat") == seat:
            return dict(entry)
    return {}


def render_final(view: View, outcome: Outcome, names: Sequence[str] | None = None, *,
                 locale: str = "en") -> bytes:
    """PNG: every city with its final allocation, and each player's score by category
    (``outcome`` is ``Outcome.to_json()``); the labels in ``locale``."""
    require_public(view, "render_final")
    with language(locale):
        return _final(view, outcome, names)


def _final(view: View, outcome: Outcome, names: Sequence[str] | None) -> bytes:
    board = read_board(view, names)
    lay = final_layout(board, outcome)
    c = Canvas.new(*lay.size, BACKGROUND)
    draw_header(c, board, lay.size[0], title=tr("Quadropolis - final scores"))
    for box, city, lines, s in zip(lay.blocks, lay.cities, lay.lines, lay.standings,
                                   strict=True):
        _block(c, board, view, box, city, lines, s)
    _legend(c, lay.legend)
    return c.png()


def _block(c: Canvas, board: Board, view: View, box: Box, city: CityLayout,
           line_boxes: tuple[Box, ...], s: Mapping[str, Any]) -> None:
    x0, y0, x1, y1 = box
    seat = s.get("seat")
    p = board.players[int(seat or 0)]
    win = int(s["rank"]) == 1
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=HIGHLIGHT if win else PANEL_EDGE,
                          width=4 if win else 2)
    c.d.rounded_rectangle((x0, y0, x0 + 9, y1), radius=4, fill=player_fill(p.color), outline=INK)
    cy = y0 + HEAD_H // 2 + 2
    rank = f"#{s['rank']}"
    x = x0 + 18 + c.text((x0 + 18, cy), rank, 20, INK, anchor="lm", bold=True) + 8
    total = str(s["total"])
    tw = c.text((x1 - 12, cy), total, 24, INK, anchor="rm", bold=True)
    icons.star(c, x1 - 12 - tw - 14, cy, 22)
    name_line(c, board, p, x, cy, x1 - x - tw - 40, 18)
    draw_city(c, board, p, city, allocation=allocation_of(view, s))
    for line, (lx, ly0, lx1, ly1) in zip(category_lines(s), line_boxes, strict=True):
        ly = (ly0 + ly1) // 2
        col_w = lx1 - lx
        key = str(line["key"])
        kind = CATEGORIES.get(key, ("", None))[1]
        if kind is not None:
            draw_tile(c, (lx, ly - 10, lx + 20, ly + 10), Tile("", kind), details=False)
        elif key == "penalty_inhabitants":
            icons.meeple(c, lx + 10, ly, 20)
        elif key == "penalty_energy":
            icons.barrel(c, lx + 10, ly, 20)
        points = int(line["points"])
        pw = c.text((lx + col_w - 4, ly), str(points), 17, INK if points else MUTED, anchor="rm",
                    bold=True)
        label = clip(category_label(key), col_w - 36 - pw, 16)
        c.text((lx + 26, ly), label, 16, INK if points else MUTED, anchor="lm")
    entry = _final_entry(view, seat)
    fy = y1 - FOOT_H + 14
    unplaced = tr("unplaced: {i} inh., {e} energy", i=entry.get("unplaced_inhabitants", 0),
                  e=entry.get("unplaced_energy", 0))
    if entry.get("absorbed"):
        unplaced += tr(" ({n} in parks)", n=entry["absorbed"])
    c.text((x0 + 18, fy), clip(unplaced, x1 - x0 - 30, MIN_TEXT), MIN_TEXT, MUTED, anchor="lm")
    ties = tr("tie-breaks: {i} inh. placed, {e} empty", i=entry.get("inhabitants_placed", 0),
              e=entry.get("empty_spaces", 0))
    c.text((x0 + 18, fy + 22), clip(ties, x1 - x0 - 30, MIN_TEXT), MIN_TEXT, MUTED,
           anchor="lm")


def _legend(c: Canvas, box: Box) -> None:
    x0, y0, _x1, y1 = box
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    cy = (y0 + y1) // 2
    x = x0 + 10
    draw_tile(c, (x, cy - 14, x + 28, cy + 14), Tile("", "shop"), details=False, grey=True)
    k = 5
    c.d.line([(x + k, cy - 14 + k), (x + 28 - k, cy + 14 - k)], fill=INK, width=3)
    c.d.line([(x + k, cy + 14 - k), (x + 28 - k, cy - 14 + k)], fill=INK, width=3)
    x += 36 + c.text((x + 36, cy), tr("not activated: removed"), 16, INK, anchor="lm") + 20
    icons.meeple(c, x + 9, cy, 20)
    x += 22 + c.text((x + 22, cy), tr("inhabitant placed"), 16, INK, anchor="lm") + 20
    icons.barrel(c, x + 8, cy, 20)
    c.text((x + 22, cy), tr("energy placed"), 16, INK, anchor="lm")
