"""The private image for one seat: hand, screen, tiles, and the cards in front."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.ginkgopolis.cards import is_urbanization
from engine.ginkgopolis.render import icons
from engine.ginkgopolis.render.canvas import Box, Canvas, fit_text, text_width
from engine.ginkgopolis.render.cardart import card_height, draw_card, wrap
from engine.ginkgopolis.render.city import owner_color
from engine.ginkgopolis.render.palette import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    WHITE,
    player_letter,
)
from engine.ginkgopolis.render.panel import badge, draw_panel, panel_height, shown
from engine.ginkgopolis.render.tiles import draw_tile
from engine.ginkgopolis.render.words import language, name_of, tr

View = dict[str, Any]

WIDTH = 1100
MARGIN = 14
HEADER_H = 56
# Every word and number is at least TEXT px: 11 px once Discord shows the image 550 wide.
TEXT = 22
CARDS_PER_ROW = 4
CARD_GAP = 16
CARD_W = (WIDTH - 2 * MARGIN - (CARDS_PER_ROW - 1) * CARD_GAP) // CARDS_PER_ROW
CAPTION_LINES = 2  # under a card: where it stands in the city, wrapped (more if needed)
TILE = 72
TILE_GAP = 10
TITLE_H = 40
SCREEN_ROWS = 3


@dataclass(frozen=True)
class HandLayout:
    size: tuple[int, int]
    cards: tuple[Box, ...]  # the hand, or the draft packet while drafting
    tiles: tuple[Box, ...]  # the tiles behind the screen, in the view's order
    screen: Box
    tiles_area: Box
    front: Box


def _row_cards(view: View) -> list[Any]:
    me = view["me"]
    packet = [int(c) for c in me.get("packet", [])]
    # During the draft there is no hand yet: the packet takes its place.
    return packet if packet else list(me["hand"])


def _caption_lines(caption: str, chosen: bool) -> list[str]:
    return wrap(caption, TEXT, CARD_W + CARD_GAP - 4, bold=chosen)


def _caption_h(view: View, row: list[Any]) -> int:
    """Room under a row of cards for the longest caption (two lines at least, so the
    rows of every hand line up)."""
    lines = max([len(_caption_lines(_city_caption(view, card), False)) for card in row]
                + [CAPTION_LINES])
    return lines * int(TEXT * 1.25) + 8


def _screen_h() -> int:
    return TITLE_H + 12 + SCREEN_ROWS * 48 + 2 * int(TEXT * 1.4) + 12


def hand_layout(view: View, *, locale: str = "en") -> HandLayout:
    """Where render_private puts everything, for drawing and for tests (card heights
    follow their words, so they depend on ``locale``)."""
    _require_seat(view)
    with language(locale):
        return _layout(view)


def _require_seat(view: View) -> None:
    if view.get("me") is None or view.get("seat") is None:
        raise ValueError(
            "render_private needs a seat's view (view(state, seat)), not the public one"
        )


def _layout(view: View) -> HandLayout:
    me = view["me"]
    player = view["players"][int(view["seat"])]
    row = _row_cards(view)
    # Cards of a row share the height of the one with the most words.
    caption_h = _caption_h(view, row)
    ch = max([card_height(card, CARD_W) for card in row] or [0])
    y = HEADER_H + MARGIN + TITLE_H
    cards: list[Box] = []
    for i in range(len(row)):
        col, r = i % CARDS_PER_ROW, i // CARDS_PER_ROW
        x = MARGIN + col * (CARD_W + CARD_GAP)
        top = y + r * (ch + caption_h + MARGIN)
        cards.append((x, top, x + CARD_W, top + ch))
    rows = max(1, -(-len(row) // CARDS_PER_ROW))
    y += rows * (ch + caption_h + MARGIN) if row else TEXT * 2
    half = (WIDTH - 3 * MARGIN) // 2
    per_row = max(1, (half - 28 + TILE_GAP) // (TILE + TILE_GAP))
    tiles_rows = max(1, -(-len(me["tiles"]) // per_row))
    lower_h = max(_screen_h(), TITLE_H + 16 + tiles_rows * (TILE + TILE_GAP))
    screen = (MARGIN, y, MARGIN + half, y + lower_h)
    tx = 2 * MARGIN + half
    tiles_area = (tx, y, WIDTH - MARGIN, y + lower_h)
    tiles = tuple(
        (
            tx + 14 + (i % per_row) * (TILE + TILE_GAP),
            y + TITLE_H + 10 + (i // per_row) * (TILE + TILE_GAP),
            tx + 14 + (i % per_row) * (TILE + TILE_GAP) + TILE,
            y + TITLE_H + 10 + (i // per_row) * (TILE + TILE_GAP) + TILE,
        )
        for i in range(len(me["tiles"]))
    )
    y += lower_h + MARGIN
    front_w = WIDTH - 2 * MARGIN
    front = (MARGIN, y, WIDTH - MARGIN, y + panel_height(player, front_w, minimum=2))
    return HandLayout((WIDTH, front[3] + MARGIN), tuple(cards), tiles, screen, tiles_area,
                      front)


def render_private(view: View, *, names: list[str] | None = None, locale: str = "en") -> bytes:
    """PNG for the seat whose view this is (``view(state, seat)``, with ``"me"``);
    ``names`` (by seat) puts the player's own name in the header; words in ``locale``."""
    _require_seat(view)
    with language(locale):
        return _private(view, names)


def _private(view: View, names: list[str] | None) -> bytes:
    lay = _layout(view)
    me = view["me"]
    seat = int(view["seat"])
    player = view["players"][seat]
    c = Canvas.new(*lay.size, BACKGROUND)
    _header(c, view, player, name_of(player, names))
    title_y = HEADER_H + MARGIN
    pick = me.get("pick") or {}
    row = _row_cards(view)
    if me.get("packet"):
        _section_title(c, MARGIN, title_y, tr("Draft: keep one of these characters"))
        chosen = me.get("draft_pick")
    elif row:
        _section_title(c, MARGIN, title_y, tr("Your hand ({n} cards)", n=len(row)))
        chosen = pick.get("card")
    else:
        _section_title(c, MARGIN, title_y, tr("Your hand is empty"))
        chosen = None
    for box, card in zip(lay.cards, row, strict=True):
        _card(c, box, card, card == chosen, view)
    _screen_box(c, lay.screen, player)
    _tiles_box(c, lay.tiles_area, me)
    refill = set(me.get("refill", []))
    for box, t in zip(lay.tiles, me["tiles"], strict=True):
        if t == pick.get("tile") or t in refill:
            x0, y0, x1, y1 = box
            c.d.rounded_rectangle((x0 - 4, y0 - 4, x1 + 4, y1 + 4), radius=10, fill=HIGHLIGHT)
        draw_tile(c, box, str(t))
    drafting = view.get("phase") == "draft"
    draw_panel(
        c,
        lay.front,
        player,
        first=view.get("first") == seat,
        drafting=drafting,
        solo=bool(view.get("solo")),
        name=name_of(player, names),
    )
    return c.png()


def _header(c: Canvas, view: View, player: dict[str, Any], name: str) -> None:
    c.d.rectangle((0, 0, WIDTH, HEADER_H), fill=INK)
    cy = HEADER_H // 2
    label = tr("Character draft") if view.get("phase") == "draft" else tr("Round {n}",
                                                                          n=view.get("round"))
    right = WIDTH - MARGIN - c.text((WIDTH - MARGIN, cy), label, TEXT, HIGHLIGHT, anchor="rm",
                                    bold=True) - 16
    x = MARGIN + 4
    x += c.text((x, cy), "Ginkgopolis", 28, WHITE, anchor="lm", bold=True) + 20
    badge(c, x + 18, cy, 36, str(player["color"]), on_dark=True)
    x += 44
    name = fit_text(name, 260, TEXT, bold=True)
    x += c.text((x, cy), f"{name} ({player_letter(str(player['color']))})", TEXT, WHITE,
                anchor="lm", bold=True)
    note = tr("- private: only you see this")
    if x + 14 + text_width(note, TEXT) <= right:  # a long name leaves no room: it goes
        c.text((x + 14, cy), note, TEXT, (200, 196, 186), anchor="lm")


def _section_title(c: Canvas, x: int, y: int, text: str) -> None:
    c.text((x, y + 4), text, TEXT, INK, anchor="la", bold=True)


def _card(c: Canvas, box: Box, card: Any, chosen: bool, view: View) -> None:
    x0, y0, x1, y1 = box
    if chosen:
        c.d.rounded_rectangle((x0 - 6, y0 - 6, x1 + 6, y1 + 6), radius=14, fill=HIGHLIGHT)
    draw_card(c, box, card)
    caption = tr("CHOSEN") if chosen else _city_caption(view, card)
    y: float = y1 + 8
    for line in _caption_lines(caption, chosen):
        c.text(((x0 + x1) / 2, y), line, TEXT, INK if chosen else MUTED, anchor="ma",
               bold=chosen)
        y += TEXT * 1.25


def _city_caption(view: View, card: Any) -> str:
    """Where a building card points in the city: its height and owner, which decide its worth."""
    if not isinstance(card, str) or is_urbanization(card):
        return ""
    for b in view["board"]:
        if b["top"] == card:
            owner = owner_color(view, b)
            who = tr(", owner {p}", p=player_letter(owner)) if owner else tr(", no owner")
            key = "in city: {n} floors{who}" if b["height"] > 1 else "in city: {n} floor{who}"
            return tr(key, n=b["height"], who=who)
    return tr("not on top of a building")


def _screen_box(c: Canvas, box: Box, p: dict[str, Any]) -> None:
    x0, y0, x1, _y1 = box
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    c.text((x0 + 14, y0 + 10), tr("Behind your screen"), TEXT, INK, anchor="la", bold=True)
    rows = [
        ("sp", tr("success points"), shown(p.get("sp"))),
        ("res", tr("resources"), shown(p.get("screen_res"))),
        ("tile", tr("tiles"), shown(p.get("tiles"))),
    ]
    y = y0 + TITLE_H + 12 + 24
    for kind, label, value in rows:
        icons.item(c, kind, x0 + 34, y, 30)
        c.text((x0 + 62, y), value, 30, INK, anchor="lm", bold=True)
        c.text((x0 + 112, y), label, TEXT, MUTED, anchor="lm")
        y += 48
    y -= 10
    for line in (tr("New Hand tokens left: {n}", n=int(p.get("new_hand", 0))),
                 tr("In the city: {a} of {b} resources", a=p.get("on_board", 0),
                    b=p.get("total_res"))):
        c.text((x0 + 20, y), fit_text(line, x1 - x0 - 30, TEXT), TEXT, INK, anchor="la")
        y += int(TEXT * 1.4)


def _tiles_box(c: Canvas, box: Box, me: dict[str, Any]) -> None:
    x0, y0, x1, _ = box
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    n = len(me["tiles"])
    title = tr("Tiles behind your screen ({n})", n=n)
    c.text((x0 + 14, y0 + 10), fit_text(title, x1 - x0 - 28, TEXT, bold=True), TEXT, INK,
           anchor="la", bold=True)
    if not n:
        c.text((x0 + 14, y0 + TITLE_H + 14), tr("none"), TEXT, MUTED, anchor="la")
