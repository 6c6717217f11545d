"""The private image for one seat: hand, screen, tiles, and the cards in front."""

from __future__ import annotations

from typing import Any

from engine.ginkgopolis.cards import is_urbanization
from engine.ginkgopolis.render import icons
from engine.ginkgopolis.render.canvas import Box, Canvas
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
    player_letter,
    player_name,
)
from engine.ginkgopolis.render.panel import badge, draw_panel, panel_height, shown
from engine.ginkgopolis.render.tiles import draw_tile

View = dict[str, Any]

WIDTH = 1100
MARGIN = 14
HEADER_H = 56
CARD_W, CARD_H = 190, 268
SIDE_W = 1100 - 4 * CARD_W - 3 * 12 - 3 * MARGIN
TILE = 78
TILE_GAP = 10


def render_private(view: View) -> bytes:
    """PNG for the seat whose view this is (``view(state, seat)``, with ``"me"``)."""
    me = view.get("me")
    seat = view.get("seat")
    if me is None or seat is None:
        raise ValueError(
            "render_private needs a seat's view (view(state, seat)), not the public one"
        )
    player = view["players"][int(seat)]
    packet = [int(c) for c in me.get("packet", [])]
    tiles_rows = max(1, -(-len(me["tiles"]) // 6))
    tiles_h = 40 + tiles_rows * (TILE + TILE_GAP)
    front_h = panel_height(player, minimum=2)
    lower_h = max(tiles_h, front_h)
    row_h = 36 + CARD_H + 30
    height = HEADER_H + MARGIN + row_h + MARGIN + lower_h + MARGIN
    c = Canvas.new(WIDTH, height, BACKGROUND)
    _header(c, view, player)
    y = HEADER_H + MARGIN
    pick = me.get("pick") or {}
    # During the draft there is no hand yet: the packet takes its place.
    if packet:
        _section_title(c, MARGIN, y, "Draft: keep one of these characters")
        _cards_row(c, MARGIN, y + 32, packet, me.get("draft_pick"), view)
    elif me["hand"]:
        _section_title(c, MARGIN, y, f"Your hand ({len(me['hand'])} cards)")
        _cards_row(c, MARGIN, y + 32, list(me["hand"]), pick.get("card"), view)
    else:
        _section_title(c, MARGIN, y, "Your hand is empty")
    side = (WIDTH - MARGIN - SIDE_W, y + 32, WIDTH - MARGIN, y + 32 + CARD_H)
    _screen_box(c, side, player)
    y += row_h + MARGIN
    half = (WIDTH - 3 * MARGIN) // 2
    _tiles_box(c, (MARGIN, y, MARGIN + half, y + lower_h), me, pick.get("tile"))
    front = (2 * MARGIN + half, y, WIDTH - MARGIN, y + lower_h)
    drafting = view.get("phase") == "draft"
    draw_panel(c, front, player, first=view.get("first") == seat, drafting=drafting)
    return c.png()


def _header(c: Canvas, view: View, player: dict[str, Any]) -> None:
    c.d.rectangle((0, 0, WIDTH, HEADER_H), fill=INK)
    cy = HEADER_H // 2
    x = MARGIN + 4
    x += c.text((x, cy), "Ginkgopolis", 28, WHITE, anchor="lm", bold=True) + 20
    badge(c, x + 16, cy, 32, str(player["color"]), on_dark=True)
    x += 40
    name = player_name(str(player["color"]), False)
    x += c.text(
        (x, cy),
        f"{name} ({player_letter(str(player['color']))})",
        22,
        WHITE,
        anchor="lm",
        bold=True,
    )
    c.text((x + 14, cy), "- private: only you see this", 18, (200, 196, 186), anchor="lm")
    label = "Character draft" if view.get("phase") == "draft" else f"Round {view.get('round')}"
    c.text((WIDTH - MARGIN, cy), label, 22, HIGHLIGHT, anchor="rm", bold=True)


def _section_title(c: Canvas, x: int, y: int, text: str) -> None:
    c.text((x, y + 4), text, 20, INK, anchor="la", bold=True)


def _cards_row(c: Canvas, x: int, y: int, cards: list[Any], chosen: Any, view: View) -> None:
    for card in cards:
        box = (x, y, x + CARD_W, y + CARD_H)
        if card == chosen:
            c.d.rounded_rectangle(
                (x - 6, y - 6, x + CARD_W + 6, y + CARD_H + 6), radius=14, fill=HIGHLIGHT
            )
        draw_card(c, box, card)
        caption = "CHOSEN" if card == chosen else _city_caption(view, card)
        c.text(
            (x + CARD_W / 2, y + CARD_H + 8),
            caption,
            14,
            INK if card == chosen else MUTED,
            anchor="ma",
            bold=card == chosen,
        )
        x += CARD_W + 12


def _city_caption(view: View, card: Any) -> str:
    """Where a building card points in the city: its height and owner, which decide its worth."""
    if not isinstance(card, str) or is_urbanization(card):
        return ""
    for b in view["board"]:
        if b["top"] == card:
            owner = owner_color(view, b)
            who = f", owner {player_letter(owner)}" if owner else ", no owner"
            return f"in city: {b['height']} floor{'s' if b['height'] > 1 else ''}{who}"
    return "not on top of a building"


def _screen_box(c: Canvas, box: Box, p: dict[str, Any]) -> None:
    x0, y0, x1, _y1 = box
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    c.text(((x0 + x1) / 2, y0 + 12), "Behind your screen", 17, INK, anchor="ma", bold=True)
    rows = [
        ("sp", "success points", shown(p.get("sp"))),
        ("res", "resources", shown(p.get("screen_res"))),
        ("tile", "tiles", shown(p.get("tiles"))),
    ]
    y = y0 + 60
    for kind, label, value in rows:
        icons.item(c, kind, x0 + 34, y, 30)
        c.text((x0 + 62, y), value, 30, INK, anchor="lm", bold=True)
        c.text((x0 + 112, y), label, 16, MUTED, anchor="lm")
        y += 48
    left = int(p.get("new_hand", 0))
    c.text((x0 + 20, y), f"New Hand tokens left: {left}", 15, INK, anchor="lm")
    y += 26
    c.text(
        (x0 + 20, y),
        f"In the city: {p.get('on_board', 0)} of {p.get('total_res')} resources",
        15,
        INK,
        anchor="lm",
    )


def _tiles_box(c: Canvas, box: Box, me: dict[str, Any], chosen: str | None) -> None:
    x0, y0, _x1, _y1 = box
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    tiles = list(me["tiles"])
    refill = set(me.get("refill", []))
    c.text(
        (x0 + 14, y0 + 10),
        f"Tiles behind your screen ({len(tiles)})",
        18,
        INK,
        anchor="la",
        bold=True,
    )
    if not tiles:
        c.text((x0 + 14, y0 + 50), "none", 16, MUTED, anchor="la")
    for i, t in enumerate(tiles):
        tx = x0 + 14 + (i % 6) * (TILE + TILE_GAP)
        ty = y0 + 40 + (i // 6) * (TILE + TILE_GAP)
        if t == chosen or t in refill:
            c.d.rounded_rectangle(
                (tx - 4, ty - 4, tx + TILE + 4, ty + TILE + 4), radius=10, fill=HIGHLIGHT
            )
        draw_tile(c, (tx, ty, tx + TILE, ty + TILE), t)
