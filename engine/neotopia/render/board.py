"""The public board image: header, the city on its hex grid with the players and the
bonus legend in its free corners, the three score tracks, and the project offer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.neotopia.render.canvas import Box, Canvas
from engine.neotopia.render.cards import card_back, draw_card
from engine.neotopia.render.geometry import HexLayout, fit_layout
from engine.neotopia.render.hexboard import draw_city
from engine.neotopia.render.model import Board, View, read_board, require_public
from engine.neotopia.render.palette import BACKGROUND, HEADER_LIGHT, HIGHLIGHT, INK, WHITE
from engine.neotopia.render.panels import draw_legend, draw_players
from engine.neotopia.render.tracks import draw_tracks, track_rows, tracks_height

WIDTH = 1000
MARGIN = 10
HEADER_H = 52
CITY_H = 892
CARD_W, CARD_H = 184, 176
CARD_GAP = 12
OFFER_TITLE = 30


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


def corner_boxes(lay: HexLayout, width: int, top: int) -> tuple[Box, Box]:
    """The free corners left and right of the top region, above the side manufactures."""
    _, bottom = lay.unit_to_px(0, -5.9)
    left_edge, _ = lay.unit_to_px(-5.9, 0)
    right_edge, _ = lay.unit_to_px(5.9, 0)
    upper = top + 34  # under the top region's name
    return ((MARGIN, upper, round(left_edge), round(bottom)),
            (round(right_edge), upper, width - MARGIN, round(bottom)))


def board_layout(view: View, names: Sequence[str] = ()) -> BoardLayout:
    return layout_of(read_board(view, names))


def layout_of(board: Board) -> BoardLayout:
    top = HEADER_H + MARGIN
    area = (MARGIN, top, WIDTH - MARGIN, top + CITY_H)
    city = fit_layout(board.geometry, area)
    players, legend = corner_boxes(city, WIDTH, top)
    y = area[3] + MARGIN
    tracks = (MARGIN, y, WIDTH - MARGIN, y + tracks_height(board))
    y = tracks[3] + MARGIN + OFFER_TITLE
    offer = tuple((MARGIN + i * (CARD_W + CARD_GAP), y,
                   MARGIN + i * (CARD_W + CARD_GAP) + CARD_W, y + CARD_H)
                  for i in range(max(4, len(board.offer))))[: len(board.offer)]
    dx = MARGIN + 4 * (CARD_W + CARD_GAP) + 20
    deck = (dx, y + 10, min(WIDTH - MARGIN, dx + 150), y + CARD_H - 10)
    return BoardLayout((WIDTH, y + CARD_H + MARGIN), city, area, players, legend, tracks,
                       track_rows(tracks, board), offer, deck)


def render_board(view: View, names: Sequence[str] = ()) -> bytes:
    """PNG of the public board. Refuses a seat's view: what is posted must hold no secret."""
    require_public(view, "render_board")
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
    c.text((x0 + 2, y0 + OFFER_TITLE // 2), "Project offer", 18, INK, anchor="lm", bold=True)
    for box, card in zip(lay.offer, board.offer, strict=True):
        draw_card(c, box, card)
    card_back(c, lay.deck, f"Deck {board.deck}")
    return c


def round_label(board: Board) -> str:
    if board.phase == "over":
        return "Game over"
    if board.phase == "start":
        return "Starting elements"
    return f"Round {board.round}"


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
        turn = f"{who} to play"
        if board.actions_left is not None:
            turn += f", {board.actions_left} action{'s' if board.actions_left != 1 else ''} left"
        if board.taking is not None:
            turn += f", placing {board.taking[1]} from {board.taking[0]}"
        c.text((x, cy), turn, 18, HEADER_LIGHT, anchor="lm")
    if board.end_triggered and board.phase != "over":
        c.text((width - MARGIN - 4, cy), "LAST ROUND", 20, HIGHLIGHT, anchor="rm", bold=True)
