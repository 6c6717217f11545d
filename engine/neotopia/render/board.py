"""The public board image: header, the city on its hex grid with the players and the
bonus legend in its free corners, the three score tracks, and the project offer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.neotopia.render.canvas import MIN_TEXT, Box, Canvas, clip, fit_size
from engine.neotopia.render.cards import card_back, draw_card
from engine.neotopia.render.geometry import HexLayout, fit_layout
from engine.neotopia.render.hexboard import draw_city, footprint
from engine.neotopia.render.model import Board, View, read_board, require_public
from engine.neotopia.render.palette import (
    BACKGROUND,
    BONUS_NAME,
    HEADER_LIGHT,
    HIGHLIGHT,
    INK,
    WHITE,
)
from engine.neotopia.render.panels import LEGEND_ROW, PLAYER_H, draw_legend, draw_players
from engine.neotopia.render.tracks import draw_tracks, track_rows, tracks_height
from engine.neotopia.render.words import language, tr

WIDTH = 1000
MARGIN = 10
HEADER_H = 52
CITY_H = 892
# Tall enough for a name on two lines and a four-cell pattern's letters at MIN_TEXT.
CARD_W, CARD_H = 184, 250
CARD_GAP = 12
OFFER_TITLE = 30
PANEL_GAP = 8  # between a corner panel and the city
PANEL_MIN_W = 290
PLAYER_MIN_H = PLAYER_H
LEGEND_MIN_H = 8 * LEGEND_ROW + 16


@dataclass(frozen=True)
class BoardLayout:
    size: tuple[int, int]
    city: HexLayout
    city_area: Box
    players: Box
    legend: Box
    tracks: Box
    track_rows: tuple[Box, ...]  # one per region, in the view's region order
    offer: tuple[Box, ...]
    deck: Box


def free_corner(obstacles: list[Box], area: Box, *, left: bool, min_w: int, min_h: int
                ) -> Box | None:
    """The tallest box in the area's top-left (or top-right) corner, at least ``min_w`` by
    ``min_h``, that touches none of ``obstacles``; it may start a little lower to pass
    under a label."""
    x0, y0, x1, y1 = area
    best: Box | None = None
    for top in (y0, y0 + 40):
        for bottom in range(y1, top + min_h - 1, -6):
            hits = [b for b in obstacles if b[1] < bottom and b[3] > top]
            if left:
                edge = min([b[0] for b in hits] + [x1]) - PANEL_GAP
                box = (x0, top, edge, bottom)
            else:
                edge = max([b[2] for b in hits] + [x0]) + PANEL_GAP
                box = (edge, top, x1, bottom)
            if box[2] - box[0] >= min_w:
                if best is None or bottom - top > best[3] - best[1]:
                    best = box
                break
    return best


def panel_heights(board: Board) -> tuple[int, int]:
    n = max(1, len(board.players))
    return n * PLAYER_MIN_H + (n - 1) * 6, LEGEND_MIN_H


def board_layout(view: View, names: Sequence[str] = ()) -> BoardLayout:
    return layout_of(read_board(view, names))


def layout_of(board: Board) -> BoardLayout:
    top = HEADER_H + MARGIN
    area = (MARGIN, top, WIDTH - MARGIN, top + CITY_H)
    city = fit_layout(board.geometry, area)
    obstacles = footprint(board, city)
    players_h, legend_h = panel_heights(board)
    # The players take the taller corner (top right on the house board: the desert's name
    # sits top left), the legend the other.
    players = free_corner(obstacles, area, left=False, min_w=PANEL_MIN_W, min_h=players_h)
    legend = free_corner(obstacles, area, left=True, min_w=PANEL_MIN_W, min_h=legend_h)
    y = area[3] + MARGIN
    if players is None or legend is None:
        # A board that fills its corners: the panels go side by side under it.
        half = (WIDTH - 3 * MARGIN) // 2
        band = max(players_h, legend_h) + 2 * 6 * len(board.players)
        players = (MARGIN, y, MARGIN + half, y + band)
        legend = (2 * MARGIN + half, y, WIDTH - MARGIN, y + band)
        y += band + MARGIN
    tracks = (MARGIN, y, WIDTH - MARGIN, y + tracks_height(board))
    y = tracks[3] + MARGIN + OFFER_TITLE
    offer = tuple((MARGIN + i * (CARD_W + CARD_GAP), y,
                   MARGIN + i * (CARD_W + CARD_GAP) + CARD_W, y + CARD_H)
                  for i in range(max(4, len(board.offer))))[: len(board.offer)]
    dx = MARGIN + 4 * (CARD_W + CARD_GAP) + 20
    deck = (dx, y + 10, min(WIDTH - MARGIN, dx + 150), y + CARD_H - 10)
    return BoardLayout((WIDTH, y + CARD_H + MARGIN), city, area, players, legend, tracks,
                       track_rows(tracks, board), offer, deck)


def render_board(view: View, names: Sequence[str] = (), *, locale: str = "en") -> bytes:
    """PNG of the public board. Refuses a seat's view: what is posted must hold no secret.
    The labels are in ``locale``."""
    require_public(view, "render_board")
    with language(locale):
        board = read_board(view, names)
        return draw_board(board).png()


def draw_board(board: Board) -> Canvas:
    lay = layout_of(board)
    c = Canvas.new(*lay.size, BACKGROUND)
    draw_header(c, board, lay.size[0])
    draw_city(c, board, lay.city)
    draw_players(c, lay.players, board)
    draw_legend(c, lay.legend, board)
    draw_tracks(c, lay.tracks, board)
    x0, y0 = lay.tracks[0], lay.tracks[3] + MARGIN
    c.text((x0 + 2, y0 + OFFER_TITLE // 2), tr("Project offer"), MIN_TEXT, INK, anchor="lm",
           bold=True)
    for box, card in zip(lay.offer, board.offer, strict=True):
        draw_card(c, box, card, grid=board.geometry.grid)
    card_back(c, lay.deck, tr("Deck {n}", n=board.deck))
    return c


def round_label(board: Board) -> str:
    if board.phase == "over":
        return tr("Game over")
    if board.phase == "start":
        return tr("Starting elements")
    return tr("Round {n}", n=board.round)


def draw_header(c: Canvas, board: Board, width: int, *, title: str = "Neotopia") -> None:
    c.d.rectangle((0, 0, width, HEADER_H), fill=INK)
    cy = HEADER_H // 2
    x = MARGIN + 4
    x += c.text((x, cy), title, 26, WHITE, anchor="lm", bold=True) + 20
    label = round_label(board)
    w = c.text((x + 10, cy), label, 20, INK, anchor="lm", bold=True)
    c.d.rounded_rectangle((x, cy - 16, x + w + 20, cy + 16), radius=8, fill=HIGHLIGHT)
    c.text((x + 10, cy), label, 20, INK, anchor="lm", bold=True)
    x += w + 36
    if board.phase != "over" and board.active is not None and board.active < len(
            board.players):
        who = board.players[board.active].name
        turn = tr("{who} to play", who=who)
        if board.actions_left is not None:
            n = board.actions_left
            turn += tr(", {n} action left" if n == 1 else ", {n} actions left", n=n)
        if board.taking is not None:
            turn += tr(", placing {what} from {where}", what=board.taking[1],
                       where=board.taking[0])
        elif board.stage == "build":
            turn += tr(", choosing a project to build")
        elif board.bonus is not None:
            turn += tr(", using {bonus}", bonus=tr(BONUS_NAME.get(board.bonus, board.bonus)))
        room = width - MARGIN - x - (170 if board.end_triggered else 8)
        size = fit_size(turn, room, MIN_TEXT, minimum=MIN_TEXT)
        c.text((x, cy), clip(turn, room, size), size, HEADER_LIGHT, anchor="lm")
    if board.end_triggered and board.phase != "over":
        c.text((width - MARGIN - 4, cy), tr("LAST ROUND"), 20, HIGHLIGHT, anchor="rm", bold=True)
