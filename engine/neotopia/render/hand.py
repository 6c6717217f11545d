"""The private image for one seat: its projects, each pattern drawn, and its bonus
tokens; below them the public offer, so that a draw can be chosen from the DM. Sent by
DM; drawn from that seat's view only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.neotopia.render import pieces
from engine.neotopia.render.canvas import MIN_TEXT, Box, Canvas, clip, text_width
from engine.neotopia.render.cards import draw_card
from engine.neotopia.render.model import Hand, View, read_hand
from engine.neotopia.render.palette import (
    BACKGROUND,
    BONUS_NAME,
    BONUS_SHORT,
    HEADER_LIGHT,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    REGION_EDGE,
    REGION_LETTER,
    REGION_ORDER,
    WHITE,
    shade,
)
from engine.neotopia.render.words import language, tr

WIDTH = 1000
MARGIN = 14
HEADER_H = 52
CARD_GAP = 12
CARD_H = 250  # every card: a name on two lines, a four-cell pattern's letters at MIN_TEXT
TOKEN_ROW = 38
TOKEN_TOP = 72  # the box's title and its note, each on a line
OFFER_TITLE = 34
OFFER_H = CARD_H


@dataclass(frozen=True)
class HandLayout:
    size: tuple[int, int]
    tokens: Box
    token_spots: tuple[Box, ...]
    cards: tuple[Box, ...]
    offer: tuple[Box, ...]  # the public offer, to choose a draw from the DM


def hand_layout(view: View, names: Sequence[str] = (), *, locale: str = "en") -> HandLayout:
    """Where render_private puts everything (the tokens' lines depend on ``locale``)."""
    with language(locale):
        return layout_of(read_hand(view, names))


def layout_of(hand: Hand) -> HandLayout:
    top = HEADER_H + MARGIN
    # Two tokens a line when every token's name and use fit half the width, else one.
    cols = 2 if all(_token_width(kind) <= (WIDTH - 2 * MARGIN - 20) // 2 - 10
                    for kind in hand.bonuses) else 1
    rows_t = max(1, -(-len(hand.bonuses) // cols))
    tokens = (MARGIN, top, WIDTH - MARGIN, top + TOKEN_TOP + rows_t * TOKEN_ROW)
    col_w = (WIDTH - 2 * MARGIN - 20) // cols
    spots = tuple(
        (MARGIN + 10 + (i % cols) * col_w, top + TOKEN_TOP - 4 + (i // cols) * TOKEN_ROW,
         MARGIN + 10 + (i % cols) * col_w + col_w - 10,
         top + TOKEN_TOP - 4 + (i // cols) * TOKEN_ROW + 32)
        for i in range(len(hand.bonuses)))
    y = tokens[3] + MARGIN + 30
    n = len(hand.cards)
    per_row = 4 if n <= 8 else 5  # five a row are as wide as the offer's: still readable
    cw = (WIDTH - 2 * MARGIN - (per_row - 1) * CARD_GAP) // per_row
    ch = CARD_H
    cards = tuple(
        (MARGIN + (i % per_row) * (cw + CARD_GAP), y + (i // per_row) * (ch + CARD_GAP),
         MARGIN + (i % per_row) * (cw + CARD_GAP) + cw, y + (i // per_row) * (ch + CARD_GAP) + ch)
        for i in range(n))
    rows = max(1, -(-n // per_row))
    y += rows * (ch + CARD_GAP) - CARD_GAP + MARGIN + OFFER_TITLE
    ow = (WIDTH - 2 * MARGIN - 4 * CARD_GAP) // 5
    offer = tuple((MARGIN + i * (ow + CARD_GAP), y, MARGIN + i * (ow + CARD_GAP) + ow,
                   y + OFFER_H) for i in range(len(hand.offer)))
    height = y + (OFFER_H if hand.offer else 0) + MARGIN
    return HandLayout((WIDTH, height), tokens, spots, cards, offer)


def _token_width(kind: str) -> int:
    """Room a held token's line needs: the token, its name and what it does."""
    name = text_width(tr(BONUS_NAME.get(kind, kind)), MIN_TEXT, bold=True)
    return 38 + name + 10 + text_width(tr(BONUS_SHORT.get(kind, "")), MIN_TEXT) + 4


def render_private(view: View, names: Sequence[str] = (), *, locale: str = "en") -> bytes:
    """PNG of one seat's hand of projects and bonus tokens (``view(state, seat)``); the
    labels in ``locale``."""
    with language(locale):
        return _private(view, names)


def _private(view: View, names: Sequence[str]) -> bytes:
    hand = read_hand(view, names)
    lay = layout_of(hand)
    c = Canvas.new(*lay.size, BACKGROUND)
    _header(c, hand)
    _tokens(c, lay, hand)
    x0 = MARGIN
    y = lay.tokens[3] + MARGIN + 15
    title = tr("Projects in hand: {n}", n=len(hand.cards))
    w = c.text((x0 + 2, y), title, MIN_TEXT, INK, anchor="lm", bold=True)
    note = tr("patterns may be turned to any of 6 orientations")
    c.text((x0 + w + 16, y), clip(note, WIDTH - 2 * MARGIN - w - 20, MIN_TEXT), MIN_TEXT, MUTED,
           anchor="lm")
    for box, card in zip(lay.cards, hand.cards, strict=True):
        draw_card(c, box, card, owner=hand.colour, grid=hand.grid)
    if not hand.cards:
        c.text((x0 + 2, y + 40), tr("No project yet: draw from the offer or the deck."),
               MIN_TEXT, MUTED, anchor="lm")
    oy = (lay.offer[0][1] if lay.offer else lay.size[1] - MARGIN) - OFFER_TITLE // 2
    w = c.text((x0 + 2, oy), tr("Offer: {n}", n=len(hand.offer)), MIN_TEXT, INK, anchor="lm",
               bold=True)
    note = tr("draw one by its id, or draw deck ({n} cards left)", n=hand.deck)
    c.text((x0 + w + 16, oy), clip(note, WIDTH - 2 * MARGIN - w - 20, MIN_TEXT), MIN_TEXT,
           MUTED, anchor="lm")
    for box, card in zip(lay.offer, hand.offer, strict=True):
        draw_card(c, box, card, owner=hand.colour, grid=hand.grid)
    return c.png()


def _header(c: Canvas, hand: Hand) -> None:
    c.d.rectangle((0, 0, WIDTH, HEADER_H), fill=INK)
    cy = HEADER_H // 2
    x = MARGIN
    x += c.text((x, cy), "Neotopia", 24, WHITE, anchor="lm", bold=True) + 18
    pieces.badge(c, x + 15, cy, 30, hand.colour, on_dark=True, minimum=MIN_TEXT)
    x += 38
    x += c.text((x, cy), clip(hand.name, 330, 20, bold=True), 20, WHITE, anchor="lm",
                bold=True) + 20
    for region in REGION_ORDER:
        if region not in hand.scores:
            continue
        x += c.text((x, cy), REGION_LETTER[region], MIN_TEXT, shade(REGION_EDGE[region], 1.2),
                    anchor="lm", bold=True) + 4
        x += c.text((x, cy), str(hand.scores[region]), MIN_TEXT, WHITE, anchor="lm",
                    bold=True) + 14
    if hand.phase == "over":
        status = tr("game over")
    elif hand.my_turn:
        status = tr("your turn")
    else:
        status = tr("round {n}", n=hand.round)
    c.text((WIDTH - MARGIN, cy), status, MIN_TEXT, HIGHLIGHT if hand.my_turn else HEADER_LIGHT,
           anchor="rm", bold=True)


def _tokens(c: Canvas, lay: HandLayout, hand: Hand) -> None:
    x0, y0, x1, _ = lay.tokens
    c.d.rounded_rectangle(lay.tokens, radius=8, fill=PANEL, outline=PANEL_EDGE, width=2)
    title = (tr("Bonus tokens: {n}", n=len(hand.bonuses)) if hand.bonuses
             else tr("No bonus token"))
    c.text((x0 + 10, y0 + 18), title, MIN_TEXT, INK, anchor="lm", bold=True)
    note = tr("one bonus per turn, free; +3 points each if unused at the end")
    if hand.bonus_used:
        note = tr("a bonus was used this turn: the next one waits for your next turn")
    c.text((x0 + 10, y0 + 46), clip(note, x1 - x0 - 20, MIN_TEXT), MIN_TEXT, MUTED, anchor="lm")
    for box, kind in zip(lay.token_spots, hand.bonuses, strict=True):
        bx0, by0, bx1, by1 = box
        cy = (by0 + by1) / 2
        pieces.token(c, bx0 + 15, cy, 14, kind, minimum=MIN_TEXT)
        name = tr(BONUS_NAME.get(kind, kind))
        w = c.text((bx0 + 38, cy), name, MIN_TEXT, INK, anchor="lm", bold=True)
        short = tr(BONUS_SHORT.get(kind, ""))
        c.text((bx0 + 38 + w + 10, cy), clip(short, bx1 - bx0 - w - 52, MIN_TEXT), MIN_TEXT,
               MUTED, anchor="lm")
