"""Cards: small chips for the panels and full cards for a player's hand.

Building cards carry the tile code (``R7``) on their colour; Character cards a person
on their colour; Urbanization cards the token's letter. What a card gives is drawn
with the item pictograms, so it reads the same everywhere.
"""

from __future__ import annotations

from engine.ginkgopolis.cards import BUILDING_CARDS, CHARACTERS, Reward, is_urbanization
from engine.ginkgopolis.render import icons
from engine.ginkgopolis.render.canvas import Box, Canvas, fit_size, fit_text, text_width
from engine.ginkgopolis.render.palette import (
    BUILDING_NAME,
    BUILDING_TEXT,
    INK,
    MUTED,
    TOKEN_FILL,
    WHITE,
)
from engine.ginkgopolis.render.tiles import draw_token, label_plate, paste_face
from engine.ginkgopolis.render.words import TRIGGER_NAME, endgame_long, tr

GROUPS = ("exploit", "urbanize", "construct", "endgame")
GROUP_TITLE = {
    "exploit": "Exploit",
    "urbanize": "Urbanize",
    "construct": "Build",
    "endgame": "End-game",
}


def card_group(card: str | int) -> str:
    """Which bonus column a card in front of a screen belongs to."""
    if isinstance(card, int):
        return CHARACTERS[card].trigger
    info = BUILDING_CARDS[card]
    return info.trigger if info.trigger else "endgame"


def card_color(card: str | int) -> str:
    return CHARACTERS[card].color if isinstance(card, int) else BUILDING_CARDS[card].color


def reward_items(r: Reward) -> list[tuple[str, int]]:
    return [(k, n) for k, n in (("res", r.res), ("tile", r.tile), ("sp", r.sp)) if n]


def endgame_short(card: str) -> str:
    """A few words for a chip; a slash reads "per" (in the current language)."""
    info = BUILDING_CARDS[card].endgame or {}
    kind = info.get("type")
    if kind == "resources_on_color":
        return tr("1/res on {colour}", colour=info["color"])
    if kind == "buildings_low":
        return tr("1/bldg 1-2F")
    if kind == "buildings_high":
        return tr("3/bldg 3F+")
    if kind == "cards_with_trigger":
        return tr("2/{trigger} card", trigger=tr(TRIGGER_NAME[info["trigger"]]))
    if kind == "cards_of_color":
        return tr("2/{colour} card", colour=info["color"])
    if kind == "flat":
        return str(info["sp"])
    return "?"


def draw_compact_items(
    c: Canvas, x: float, cy: float, items: list[tuple[str, int]], size: int, *, plus: bool = True
) -> float:
    """``+`` then one pictogram per item (a count only when above 1): fits a chip."""
    if plus:
        x += c.text((x, cy), "+", size, INK, anchor="lm", bold=True) + 2
    for kind, n in items:
        if n > 1:
            x += c.text((x, cy), str(n), size, INK, anchor="lm", bold=True)
        icons.item(c, kind, x + size * 0.5, cy, size * 0.95)
        x += size * 1.15
    return x


def compact_items_width(items: list[tuple[str, int]], size: int, *, plus: bool = True) -> float:
    """How far ``draw_compact_items`` advances."""
    w = text_width("+", size, bold=True) + 2.0 if plus else 0.0
    for _kind, n in items:
        if n > 1:
            w += text_width(str(n), size, bold=True)
        w += size * 1.15
    return w


def chip_size(h: int) -> int:
    """The font of a chip ``h`` pixels tall (its code, counts and words)."""
    return max(8, int(h * 0.62))


def _chip_face(h: int) -> tuple[int, int]:
    """Width of the coloured face, and where the bonus starts."""
    sw = int(h * 1.55)
    return sw, sw + max(3, h // 6)


def chip_width(card: str | int, h: int) -> int:
    """The width a chip ``h`` pixels tall needs to show its whole bonus at ``chip_size``."""
    size = chip_size(h)
    _sw, right = _chip_face(h)
    if card_group(card) == "endgame":
        return int(right + h * 0.75 + text_width(endgame_short(str(card)), size) + h * 0.25)
    r = CHARACTERS[card].reward if isinstance(card, int) else BUILDING_CARDS[card].reward
    return int(right + compact_items_width(reward_items(r), size, plus=False) + h * 0.2)


def draw_chip(c: Canvas, box: Box, card: str | int) -> None:
    """A card in front of a screen: its colour and code on the left, its bonus on the right."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    color = card_color(card)
    c.d.rounded_rectangle(box, radius=max(2, h // 5), fill=WHITE, outline=INK)
    sw, dx = _chip_face(h)
    paste_face(c, color, (x0, y0, x0 + sw, y1))
    size = chip_size(h)
    if isinstance(card, int):
        icons.person(c, x0 + sw * 0.3, y0 + h * 0.55, h * 0.66, BUILDING_TEXT[color])
        label_plate(c, color, (x0 + sw * 0.7, y0 + h / 2), color, size)
    else:
        s = fit_size(card, sw - 4, size, bold=True, minimum=8)
        label_plate(c, color, (x0 + sw / 2, y0 + h / 2), card, s)
    right = x0 + dx
    if card_group(card) == "endgame":
        icons.star(c, right + h * 0.35, y0 + h / 2, h * 0.7)
        # A chip narrower than ``chip_width`` (a line too short) cuts its words, never
        # shrinks them.
        text = fit_text(endgame_short(str(card)), int(x1 - right - h * 0.8), size)
        c.text((right + h * 0.75, y0 + h / 2), text, size, INK, anchor="lm")
    else:
        r = CHARACTERS[card].reward if isinstance(card, int) else BUILDING_CARDS[card].reward
        # Beside its group's title (Exploit, ...), the pictogram alone says what it gives.
        draw_compact_items(c, right, y0 + h / 2, reward_items(r), size, plus=False)


# ---------------------------------------------------------------- full cards


# Words on a full card (the private image, 1100 px wide): 11 px once shown 550 wide.
CARD_TEXT = 22
# A full card is drawn on a tall box; what it needs is measured (``card_height``).
_MEASURE_H = 1400


def wrap(text: str, size: int, width: int, *, bold: bool = False) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(lines[-1] + " " + word, size, bold=bold) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _paragraph(
    c: Canvas, x: float, y: float, text: str, size: int, width: int, *, bold: bool = False,
    color: tuple[int, int, int] = INK,
) -> float:
    """Lines centred on ``x`` from ``y`` down, wrapped at ``width``; returns the next y.
    Words are never shrunk: a long one (French runs longer) takes another line."""
    for line in wrap(text, size, width, bold=bold):
        c.text((x, y), line, size, color, anchor="ma", bold=bold)
        y += size * 1.25
    return y


def draw_card(c: Canvas, box: Box, card: str | int) -> float:
    """A full card, as in a hand or a draft packet; returns the y below its last line."""
    if isinstance(card, int):
        return _character_card(c, box, card)
    if is_urbanization(card):
        return _urbanization_card(c, box, card)
    return _building_card(c, box, card)


class _Measure(Canvas):
    """A canvas that lays words out without drawing them: only the card's height matters."""

    def text(self, xy: tuple[float, float], text: str, size: int, fill: tuple[int, int, int],
             *, anchor: str = "la", bold: bool = False) -> int:
        return text_width(text, size, bold=bold)


def card_height(card: str | int, width: int) -> int:
    """The height a full card ``width`` wide needs for its words (in the current language)."""
    scratch = _Measure.new(width, _MEASURE_H, WHITE)
    bottom = draw_card(scratch, (0, 0, width, _MEASURE_H), card)
    return int(bottom) + card_pad(width) * 2


def card_pad(w: int) -> int:
    return max(8, int(w * 0.06))


def _info_panel(c: Canvas, box: Box) -> None:
    c.d.rounded_rectangle(box, radius=8, fill=WHITE, outline=INK)


# A line of text mixed with item pictograms: ("t", words) or ("i", item kind).
Part = tuple[str, str]


def _part_width(part: Part, size: int, bold: bool) -> float:
    kind, value = part
    return size * 1.25 if kind == "i" else text_width(value, size, bold=bold) + size * 0.2


def _rich_line(
    c: Canvas, cx: float, cy: float, parts: list[Part], size: int, *, bold: bool = False
) -> None:
    """Draw ``parts`` centred on (cx, cy)."""
    x = cx - sum(_part_width(p, size, bold) for p in parts) / 2
    for kind, value in parts:
        if kind == "i":
            icons.item(c, value, x + size * 0.55, cy, size)
        else:
            c.text((x, cy), value, size, INK, anchor="lm", bold=bold)
        x += _part_width((kind, value), size, bold)


def _rich_lines(c: Canvas, cx: float, y: float, parts: list[Part], size: int, width: int, *,
                bold: bool = False) -> float:
    """``parts`` on as many centred lines as ``width`` needs, from ``y`` down."""
    lines: list[list[Part]] = [[]]
    for part in parts:
        line = lines[-1]
        if line and sum(_part_width(p, size, bold) for p in [*line, part]) > width:
            lines.append([part])
        else:
            line.append(part)
    for line in lines:
        _rich_line(c, cx, y + size * 0.6, line, size, bold=bold)
        y += size * 1.35
    return y


def _reward_parts(items: list[tuple[str, int]]) -> list[Part]:
    parts: list[Part] = []
    for kind, n in items:
        parts += [("t", f"+{n}"), ("i", kind)]
    return parts


def _building_card(c: Canvas, box: Box, card: str) -> float:
    x0, y0, x1, y1 = box
    w = x1 - x0
    info = BUILDING_CARDS[card]
    text = BUILDING_TEXT[info.color]
    paste_face(c, info.color, box)
    code = int(w * 0.2)
    label_plate(c, info.color, (x0 + w / 2, y0 + code * 0.8), card, code)
    name = f"{tr(BUILDING_NAME[info.color])} {info.number}"
    name_y = y0 + code * 1.55 + CARD_TEXT * 0.7
    c.text((x0 + w / 2, name_y), name, CARD_TEXT, text, anchor="mm", bold=True)
    pad = card_pad(w)
    panel = (x0 + pad, int(name_y + CARD_TEXT * 0.9), x1 - pad, y1 - pad)
    _info_panel(c, panel)
    size = max(CARD_TEXT, int(w * 0.075))
    cx = (panel[0] + panel[2]) / 2
    inner = panel[2] - panel[0] - 2 * pad
    y: float = panel[1] + pad
    alone = {"B": "tile", "R": "res", "Y": "sp"}[info.color]
    y = _paragraph(c, cx, y, tr("Played alone:"), size, inner, color=MUTED)
    y = _rich_lines(c, cx, y, [("t", "+1"), ("i", alone), ("t", tr("per floor"))], size + 1,
                    inner, bold=True) + size * 0.2
    c.d.line((panel[0] + pad, y, panel[2] - pad, y), fill=MUTED)
    y += size * 0.5
    y = _paragraph(c, cx, y, tr("With a tile: build on it"), size, inner, color=MUTED)
    if info.trigger:
        y = _paragraph(c, cx, y, tr("and keep it as a bonus:"), size, inner, color=MUTED)
        parts: list[Part] = [("t", tr(TRIGGER_NAME[info.trigger]))]
        return _rich_lines(c, cx, y + size * 0.2, parts + _reward_parts(reward_items(info.reward)),
                           size + 1, inner, bold=True)
    y = _paragraph(c, cx, y, tr("and keep it; at game end:"), size, inner, color=MUTED)
    return _paragraph(c, cx, y + size * 0.2, endgame_long(card), size, inner, bold=True)


def _urbanization_card(c: Canvas, box: Box, letter: str) -> float:
    x0, y0, x1, _y1 = box
    w = x1 - x0
    c.d.rounded_rectangle(
        box, radius=max(4, w // 10), fill=TOKEN_FILL, outline=INK, width=max(1, w // 45)
    )
    pad = card_pad(w)
    size = max(CARD_TEXT, int(w * 0.075))
    title = max(CARD_TEXT, int(w * 0.09))
    y = _paragraph(c, x0 + w / 2, y0 + pad, tr("Urbanization"), title, w - 2 * pad, bold=True,
                   color=MUTED)
    s = int(w * 0.5)
    draw_token(c, (x0 + (w - s) // 2, int(y), x0 + (w + s) // 2, int(y) + s), letter)
    y += s + size * 0.3
    y = _paragraph(c, x0 + w / 2, y, tr("With a tile: build on token {letter}", letter=letter),
                   size, w - 2 * pad)
    y += size // 2
    y = _paragraph(c, x0 + w / 2, y, tr("Played alone:"), size, w - 2 * pad, color=MUTED)
    parts: list[Part] = [("t", "+1"), ("i", "res"), ("t", tr("or")), ("t", "+1"), ("i", "tile")]
    return _rich_lines(c, x0 + w / 2, y, parts, size + 1, w - 2 * pad, bold=True)


def _character_card(c: Canvas, box: Box, cid: int) -> float:
    x0, y0, x1, y1 = box
    w = x1 - x0
    ch = CHARACTERS[cid]
    paste_face(c, ch.color, box)
    top = int(w * 0.34)
    icons.person(c, x0 + w * 0.28, y0 + top * 0.5, w * 0.24, BUILDING_TEXT[ch.color])
    label_plate(c, ch.color, (x0 + w * 0.64, y0 + top * 0.5), f"{ch.color}#{cid}",
                max(CARD_TEXT, int(w * 0.14)))
    pad = card_pad(w)
    panel = (x0 + pad, y0 + top, x1 - pad, y1 - pad)
    _info_panel(c, panel)
    size = max(CARD_TEXT, int(w * 0.075))
    cx = (panel[0] + panel[2]) / 2
    inner = panel[2] - panel[0] - 2 * pad
    y = _paragraph(c, cx, panel[1] + pad, tr("Start with"), size, inner, color=MUTED)
    y = _rich_lines(c, cx, y, _reward_parts(reward_items(ch.start)), size, inner, bold=True)
    c.d.line((panel[0] + pad, y, panel[2] - pad, y), fill=MUTED)
    y += size // 2
    y = _paragraph(c, cx, y, tr("Bonus each time you"), size, inner, color=MUTED)
    parts: list[Part] = [("t", tr(TRIGGER_NAME[ch.trigger].lower()))]
    return _rich_lines(c, cx, y, parts + _reward_parts(reward_items(ch.reward)), size + 1,
                       inner, bold=True)
