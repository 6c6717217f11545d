"""The private image for one seat: hand, screen, tiles, and the cards in front."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.ginkgopolis.cards import is_urbanization
from engine.ginkgopolis.render import icons
from engine.ginkgopolis.render.canvas import Box, Canvas, fit_size, fit_text
from engine.ginkgopolis.render.cardart import draw_card
from engine.ginkgopolis.render.city import owner_color
from engine.ginkgopolis.render.palette import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    WHITE,
    name_of,
    player_letter,
)
from engine.ginkgopolis.render.panel import badge, draw_panel, panel_height, shown
from engine.ginkgopolis.render.tiles import draw_tile
from engine.ginkgopolis.render.words import language, tr

View = dict[str, Any]

WIDTH = 1100
MARGIN = 14
HEADER_H = 56
CARD_W, CARD_H = 190, 268
SIDE_W = 1100 - 4 * CARD_W - 3 * 12 - 3 * MARGIN  # the hand of 4 fills the rest
TILE = 72
TILE_GAP = 10
TILES_PER_ROW = 6
CARD_GAP = 12


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


def hand_layout(view: View) -> HandLayout:
    """Where render_private puts everything, for drawing and for tests."""
    me = view.get("me")
    seat = view.get("seat")
    if me is None or seat is None:
        raise ValueError(
            "render_private needs a seat's view (view(state, seat)), not the public one"
        )
    player = view["players"][int(seat)]
    n = len(_row_cards(view))
    room = WIDTH - 3 * MARGIN - SIDE_W
    scale = min(1.0, (room + CARD_GAP) / max(1, n) / (CARD_W + CARD_GAP))
    cw, ch = int(CARD_W * scale), int(CARD_H * scale)
    top = HEADER_H + MARGIN + 32
    cards = tuple(
        (MARGIN + i * (cw + CARD_GAP), top, MARGIN + i * (cw + CARD_GAP) + cw, top + ch)
        for i in range(n)
    )
    screen = (WIDTH - MARGIN - SIDE_W, top, WIDTH - MARGIN, top + CARD_H)
    tiles_rows = max(1, -(-len(me["tiles"]) // TILES_PER_ROW))
    half = (WIDTH - 3 * MARGIN) // 2
    front_w = WIDTH - 3 * MARGIN - half
    lower_h = max(40 + tiles_rows * (TILE + TILE_GAP), panel_height(player, front_w, minimum=2))
    y = top + CARD_H + 30 + MARGIN
    tiles_area = (MARGIN, y, MARGIN + half, y + lower_h)
    tiles = tuple(
        (
            MARGIN + 14 + (i % TILES_PER_ROW) * (TILE + TILE_GAP),
            y + 40 + (i // TILES_PER_ROW) * (TILE + TILE_GAP),
            MARGIN + 14 + (i % TILES_PER_ROW) * (TILE + TILE_GAP) + TILE,
            y + 40 + (i // TILES_PER_ROW) * (TILE + TILE_GAP) + TILE,
        )
        for i in range(len(me["tiles"]))
    )
    front = (2 * MARGIN + half, y, WIDTH - MARGIN, y + lower_h)
    return HandLayout((WIDTH, y + lower_h + MARGIN), cards, tiles, screen, tiles_area, front)


def render_private(view: View, *, names: list[str] | None = None, locale: str = "en") -> bytes:
    """PNG for the seat whose view this is (``view(state, seat)``, with ``"me"``);
    ``names`` (by seat) puts the player's own name in the header; words in ``locale``."""
    with language(locale):
        return _private(view, names)


def _private(view: View, names: list[str] | None) -> bytes:
    lay = hand_layout(view)
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
    x = MARGIN + 4
    x += c.text((x, cy), "Ginkgopolis", 28, WHITE, anchor="lm", bold=True) + 20
    badge(c, x + 16, cy, 32, str(player["color"]), on_dark=True)
    x += 40
    name = fit_text(name, 260, 22, bold=True)
    x += c.text(
        (x, cy),
        f"{name} ({player_letter(str(player['color']))})",
        22,
        WHITE,
        anchor="lm",
        bold=True,
    )
    c.text((x + 14, cy), tr("- private: only you see this"), 18, (200, 196, 186), anchor="lm")
    label = tr("Character draft") if view.get("phase") == "draft" else tr("Round {n}",
                                                                          n=view.get("round"))
    c.text((WIDTH - MARGIN, cy), label, 22, HIGHLIGHT, anchor="rm", bold=True)


def _section_title(c: Canvas, x: int, y: int, text: str) -> None:
    c.text((x, y + 4), text, 20, INK, anchor="la", bold=True)


def _card(c: Canvas, box: Box, card: Any, chosen: bool, view: View) -> None:
    x0, y0, x1, y1 = box
    if chosen:
        c.d.rounded_rectangle((x0 - 6, y0 - 6, x1 + 6, y1 + 6), radius=14, fill=HIGHLIGHT)
    draw_card(c, box, card)
    caption = tr("CHOSEN") if chosen else _city_caption(view, card)
    size = fit_size(caption, x1 - x0 + 12, 14, bold=chosen, minimum=9)
    c.text(((x0 + x1) / 2, y1 + 8), caption, size, INK if chosen else MUTED, anchor="ma",
           bold=chosen)


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
    c.text(((x0 + x1) / 2, y0 + 12), tr("Behind your screen"), 17, INK, anchor="ma", bold=True)
    rows = [
        ("sp", tr("success points"), shown(p.get("sp"))),
        ("res", tr("resources"), shown(p.get("screen_res"))),
        ("tile", tr("tiles"), shown(p.get("tiles"))),
    ]
    y = y0 + 60
    for kind, label, value in rows:
        icons.item(c, kind, x0 + 34, y, 30)
        c.text((x0 + 62, y), value, 30, INK, anchor="lm", bold=True)
        c.text((x0 + 112, y), label, 16, MUTED, anchor="lm")
        y += 48
    left = int(p.get("new_hand", 0))
    line = tr("New Hand tokens left: {n}", n=left)
    c.text((x0 + 20, y), line, fit_size(line, x1 - x0 - 30, 15, minimum=10), INK, anchor="lm")
    y += 26
    c.text(
        (x0 + 20, y),
        tr("In the city: {a} of {b} resources", a=p.get("on_board", 0), b=p.get("total_res")),
        15,
        INK,
        anchor="lm",
    )


def _tiles_box(c: Canvas, box: Box, me: dict[str, Any]) -> None:
    x0, y0, _, _ = box
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    n = len(me["tiles"])
    c.text((x0 + 14, y0 + 10), tr("Tiles behind your screen ({n})", n=n), 18, INK, anchor="la",
           bold=True)
    if not n:
        c.text((x0 + 14, y0 + 50), tr("none"), 16, MUTED, anchor="la")
