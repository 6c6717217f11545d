"""A player's side panel: colour, counts, and the cards in front of the screen."""

from __future__ import annotations

from typing import Any

from engine.ginkgopolis.render import icons
from engine.ginkgopolis.render.canvas import Box, Canvas, fit_text, text_width
from engine.ginkgopolis.render.cardart import GROUP_TITLE, GROUPS, card_group, draw_chip
from engine.ginkgopolis.render.palette import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    player_fill,
    player_letter,
    player_name,
    player_text,
)
from engine.ginkgopolis.render.words import tr

Player = dict[str, Any]


def badge(
    c: Canvas, cx: float, cy: float, size: float, color: str, *, on_dark: bool = False
) -> None:
    """A player's disc: their colour with their letter (colour-blind safe).

    On a dark band a white ring keeps the black player's disc visible.
    """
    r = size / 2
    if on_dark:
        c.d.ellipse((cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2), fill=(255, 255, 255))
    c.d.ellipse(
        (cx - r, cy - r, cx + r, cy + r),
        fill=player_fill(color),
        outline=INK,
        width=max(1, int(size / 14)),
    )
    c.text(
        (cx, cy),
        player_letter(color),
        max(8, int(size * 0.6)),
        player_text(color),
        anchor="mm",
        bold=True,
    )


def shown(value: object) -> str:
    """A public count, or ``?`` when strict screens hide it."""
    return "?" if value is None else str(value)


def grouped_cards(p: Player) -> dict[str, list[str | int]]:
    groups: dict[str, list[str | int]] = {g: [] for g in GROUPS}
    for cid in p.get("characters", []):
        groups[card_group(int(cid))].append(int(cid))
    for card in p.get("kept", []):
        groups[card_group(str(card))].append(str(card))
    return groups


# Vertical budget of a panel: two lines of counts, the column titles, then chips.
HEAD_H = 85
CHIP_H = 22
CHIP_STEP = 25


def panel_height(p: Player, *, minimum: int = 3) -> int:
    """Height that shows every chip of the fullest column (at least ``minimum`` rows)."""
    rows = max([minimum, *(len(v) for v in grouped_cards(p).values())])
    return HEAD_H + rows * CHIP_STEP + 6


def draw_panel(
    c: Canvas, box: Box, p: Player, *, first: bool, drafting: bool = False, solo: bool = False,
    name: str | None = None,
) -> None:
    x0, y0, x1, y1 = box
    color = str(p["color"])
    hal = bool(p.get("hal"))
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    # A band of the player's colour down the left edge ties the panel to the city.
    c.d.rounded_rectangle((x0, y0, x0 + 10, y1), radius=5, fill=player_fill(color), outline=INK)
    pad = 10
    left = x0 + 10 + pad
    row1 = y0 + 22
    badge(c, left + 15, row1, 30, color)
    x = left + 38
    # The name gives way to the "1st player" tag and the points, never overlaps them.
    room = x1 - pad - 70 - x - (110 if first else 0)
    label = fit_text(player_name(color, hal, name), room, 22, bold=True)
    x += c.text((x, row1), label, 22, INK, anchor="lm", bold=True) + 10
    if first:
        tag = tr("1st player")
        w = c.text((x + 8, row1), tag, 15, INK, anchor="lm", bold=True)
        c.d.rounded_rectangle(
            (x, row1 - 12, x + w + 16, row1 + 12), radius=6, outline=INK, fill=HIGHLIGHT, width=1
        )
        c.text((x + 8, row1), tag, 15, INK, anchor="lm", bold=True)
    sp = shown(p.get("sp"))
    c.text((x1 - pad, row1), sp, 26, INK, anchor="rm", bold=True)
    spw = text_width(sp, 26, bold=True)
    icons.star(c, x1 - pad - spw - 16, row1, 24)
    c.text((x1 - pad - spw - 32, row1 + 1), tr("SP"), 14, MUTED, anchor="rm", bold=True)

    row2 = y0 + 52
    # Solitaire has no New Hand tokens (rulebook, Solitaire Version).
    _counts(c, left, row2, p, hal, new_hand=not hal and not solo)
    top = y0 + 68
    if drafting and not p.get("characters") and not p.get("kept"):
        c.text(
            (left, top + 10),
            tr("Drafting characters ({n} kept so far)", n=p.get("characters_count", 0)),
            14,
            MUTED,
        )
        return
    _groups(c, (left, top, x1 - pad, y1 - 6), grouped_cards(p))


def _counts(c: Canvas, x: int, cy: int, p: Player, hal: bool, *, new_hand: bool) -> None:
    size = 15
    if not hal:
        x += c.text((x, cy), tr("screen"), size, MUTED, anchor="lm") + 5
        icons.cube(c, x + 8, cy, 16)
        x += (
            18
            + c.text((x + 18, cy), shown(p.get("screen_res")), size, INK, anchor="lm", bold=True)
            + 8
        )
        icons.tile(c, x + 7, cy, 14)
        x += (
            18 + c.text((x + 18, cy), shown(p.get("tiles")), size, INK, anchor="lm", bold=True) + 14
        )
    x += c.text((x, cy), tr("city"), size, MUTED, anchor="lm") + 5
    icons.cube(c, x + 8, cy, 16, player_fill(str(p["color"])))
    total = "" if hal else f"/{p.get('total_res')}"
    x += (
        18
        + c.text((x + 18, cy), f"{p.get('on_board', 0)}{total}", size, INK, anchor="lm", bold=True)
        + 14
    )
    if new_hand:
        x += c.text((x, cy), tr("new hand"), size, MUTED, anchor="lm") + 6
        left = int(p.get("new_hand", 0))
        for i in range(2):
            fill = (250, 250, 250) if i < left else None
            c.d.rounded_rectangle(
                (x, cy - 7, x + 18, cy + 7), radius=3, fill=fill, outline=INK if i < left else MUTED
            )
            if i < left:
                c.text((x + 9, cy), "NH", 9, INK, anchor="mm", bold=True)
            x += 22


def _groups(c: Canvas, box: Box, groups: dict[str, list[str | int]]) -> None:
    """Four columns by bonus type; chips that do not fit become a ``+n more`` line."""
    x0, y0, x1, y1 = box
    widths = {"exploit": 0.22, "urbanize": 0.22, "construct": 0.22, "endgame": 0.34}
    gap = 6
    total = x1 - x0 - 3 * gap
    x = x0
    chip_h = CHIP_H
    for g in GROUPS:
        w = int(total * widths[g])
        c.text((x, y0), tr(GROUP_TITLE[g]), 13, MUTED, anchor="la", bold=True)
        cards = groups[g]
        y = y0 + 17
        fit = max(0, (y1 - y) // CHIP_STEP)
        if len(cards) > fit:
            fit = max(0, fit - 1)
        for card in cards[:fit]:
            draw_chip(c, (x, y, x + w, y + chip_h), card)
            y += CHIP_STEP
        if len(cards) > fit:
            c.text(
                (x + 2, y + chip_h / 2),
                f"+{len(cards) - fit} more",
                13,
                INK,
                anchor="lm",
                bold=True,
            )
        if not cards:
            c.text((x + 2, y + chip_h / 2), "-", 13, MUTED, anchor="lm")
        x += w + gap
