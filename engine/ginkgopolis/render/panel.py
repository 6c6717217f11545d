"""A player's side panel: colour, counts, and the cards in front of the screen."""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.ginkgopolis.render import icons
from engine.ginkgopolis.render.canvas import Box, Canvas, fit_text, text_width
from engine.ginkgopolis.render.cardart import (
    GROUP_TITLE,
    GROUPS,
    card_group,
    chip_width,
    draw_chip,
)
from engine.ginkgopolis.render.palette import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    player_fill,
    player_letter,
    player_text,
)
from engine.ginkgopolis.render.words import player_name, tr

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
        max(8, round(size * 0.62)),
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


# Read at Discord's preview width: a board of ``board.WIDTH`` (1100) pixels is shown
# 550 wide, halving every size. No text on a panel is smaller than MIN_FONT, 11 pixels
# once halved (tests/engine/ginkgopolis/render/test_readable.py computes it).
MIN_FONT = 22
NAME_FONT = 26
SP_FONT = 32
BADGE = 36
TOP_PAD = 4
ROW1_H = 44  # badge, name, first player, success points
ROW2_H = 36  # behind the screen, in the city, New Hand tokens
CHIP_H = 36  # chip_size(CHIP_H) == MIN_FONT: a chip's code and counts
LINE_STEP = 40  # one line of chips
CHIP_GAP = 8
TOKEN_W = 46  # a New Hand token: NH (NM in French) at MIN_FONT
TOKEN_STEP = 50
BAND = 10  # the player's colour down the left edge
PAD = 10


@cache
def _label_width() -> int:
    """The column of group titles: wide enough for every title in every language, so a
    French table's panels have the same size as an English one's."""
    from engine.ginkgopolis.render.words import FRENCH

    titles = [t for g in GROUPS for t in (GROUP_TITLE[g], FRENCH.get(GROUP_TITLE[g], ""))]
    return max(text_width(t, MIN_FONT) for t in titles) + 12


def inner(box: Box) -> tuple[int, int]:
    """Left and right edges of a panel's contents."""
    return box[0] + BAND + PAD, box[2] - PAD


def card_lines(p: Player, width: int) -> list[tuple[str, list[list[str | int]]]]:
    """Each non-empty bonus group with its chips cut into lines that fit ``width`` (the
    panel's inner width): the panel grows with the cards, the text never shrinks."""
    room = width - _label_width()
    found = []
    for g, cards in grouped_cards(p).items():
        if not cards:
            continue
        lines: list[list[str | int]] = [[]]
        used = 0
        for card in cards:
            w = chip_width(card, CHIP_H)
            if lines[-1] and used + CHIP_GAP + w > room:
                lines.append([])
                used = 0
            used += (CHIP_GAP if lines[-1] else 0) + w
            lines[-1].append(card)
        found.append((g, lines))
    return found


def panel_height(p: Player, width: int, *, minimum: int = 1) -> int:
    """Height that shows every chip at full size (at least ``minimum`` lines of chips)."""
    n = sum(len(lines) for _g, lines in card_lines(p, width - BAND - 2 * PAD))
    return TOP_PAD + ROW1_H + ROW2_H + max(minimum, n) * LINE_STEP + 8


def draw_panel(
    c: Canvas, box: Box, p: Player, *, first: bool, drafting: bool = False, solo: bool = False,
    name: str | None = None,
) -> None:
    x0, y0, _x1, y1 = box
    color = str(p["color"])
    hal = bool(p.get("hal"))
    c.d.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    # A band of the player's colour down the left edge ties the panel to the city.
    c.d.rounded_rectangle((x0, y0, x0 + BAND, y1), radius=5, fill=player_fill(color),
                          outline=INK)
    left, right = inner(box)
    row1 = y0 + TOP_PAD + ROW1_H // 2
    badge(c, left + BADGE / 2, row1, BADGE, color)
    x = left + BADGE + 8
    sp = shown(p.get("sp"))
    spw = text_width(sp, SP_FONT, bold=True)
    c.text((right, row1), sp, SP_FONT, INK, anchor="rm", bold=True)
    icons.star(c, right - spw - 17, row1, 28)
    tag = tr("1st") if first else ""
    tag_w = text_width(tag, MIN_FONT, bold=True) + 14 if tag else 0
    # The name gives way to the first-player tag and the points, never overlaps them.
    room = right - spw - 40 - x - (tag_w + 10 if tag else 0)
    label = fit_text(player_name(color, hal, name), room, NAME_FONT, bold=True)
    x += c.text((x, row1), label, NAME_FONT, INK, anchor="lm", bold=True) + 10
    if tag:
        c.d.rounded_rectangle((x, row1 - 15, x + tag_w, row1 + 15), radius=6, outline=INK,
                              fill=HIGHLIGHT, width=1)
        c.text((x + 7, row1), tag, MIN_FONT, INK, anchor="lm", bold=True)
    row2 = y0 + TOP_PAD + ROW1_H + ROW2_H // 2
    # Solitaire has no New Hand tokens (rulebook, Solitaire Version).
    _counts(c, left, right, row2, p, hal, new_hand=not hal and not solo)
    top = y0 + TOP_PAD + ROW1_H + ROW2_H
    if drafting and not p.get("characters") and not p.get("kept"):
        text = tr("Drafting characters ({n} kept so far)", n=p.get("characters_count", 0))
        c.text((left, top + LINE_STEP // 2), fit_text(text, right - left, MIN_FONT),
               MIN_FONT, MUTED, anchor="lm")
        return
    _groups(c, left, right, top, p)


def _counts(c: Canvas, left: int, right: int, cy: int, p: Player, hal: bool, *,
            new_hand: bool) -> None:
    """Icons with large numbers; the words "screen" and "city" only where they fit."""
    size = MIN_FONT
    icon = 24
    screen = [("res", shown(p.get("screen_res"))), ("tile", shown(p.get("tiles")))]
    total = "" if hal else f"/{p.get('total_res')}"
    city = f"{p.get('on_board', 0)}{total}"
    tokens_w = 2 * TOKEN_STEP if new_hand else 0

    def width(words: bool) -> int:
        w = 0 if hal else sum(icon + 4 + text_width(n, size, bold=True) + 12 for _k, n in screen)
        w += icon + 4 + text_width(city, size, bold=True)
        if words:
            w += (0 if hal else text_width(tr("screen"), size) + 6)
            w += text_width(tr("city"), size) + 6
        return w + 16 + tokens_w

    words = width(True) <= right - left
    x = left
    if not hal:
        if words:
            x += c.text((x, cy), tr("screen"), size, MUTED, anchor="lm") + 6
        for kind, n in screen:
            if kind == "res":
                icons.cube(c, x + icon / 2, cy, icon)
            else:
                icons.tile(c, x + icon / 2, cy, icon - 2)
            x += icon + 4
            x += c.text((x, cy), n, size, INK, anchor="lm", bold=True) + 12
        x += 4
    if words:
        x += c.text((x, cy), tr("city"), size, MUTED, anchor="lm") + 6
    icons.cube(c, x + icon / 2, cy, icon, player_fill(str(p["color"])))
    x += icon + 4
    c.text((x, cy), city, size, INK, anchor="lm", bold=True)
    if new_hand:
        mark = tr("NH")
        kept = int(p.get("new_hand", 0))
        x = right - tokens_w + 4
        for i in range(2):
            have = i < kept
            c.d.rounded_rectangle((x, cy - 15, x + TOKEN_W, cy + 15), radius=4,
                                  fill=(250, 250, 250) if have else None,
                                  outline=INK if have else MUTED, width=2 if have else 1)
            if have:
                c.text((x + TOKEN_W / 2, cy), fit_text(mark, TOKEN_W - 2, size, bold=True), size,
                       INK, anchor="mm", bold=True)
            x += TOKEN_STEP


def _groups(c: Canvas, left: int, right: int, top: int, p: Player) -> None:
    """One line per bonus group (title, then its chips), more when the chips need them."""
    found = card_lines(p, right - left)
    label_w = _label_width()
    y = top
    if not found:
        c.text((left, y + LINE_STEP // 2), "-", MIN_FONT, MUTED, anchor="lm")
        return
    for g, lines in found:
        c.text((left, y + LINE_STEP // 2), tr(GROUP_TITLE[g]), MIN_FONT, MUTED, anchor="lm")
        for line in lines:
            x = left + label_w
            for card in line:
                w = min(chip_width(card, CHIP_H), right - x)
                cy0 = y + (LINE_STEP - CHIP_H) // 2
                draw_chip(c, (x, cy0, x + w, cy0 + CHIP_H), card)
                x += w + CHIP_GAP
            y += LINE_STEP
