"""The side panels in the board's free corners: the players, and the bonus legend with
the supplies (reserve, deck)."""

from __future__ import annotations

from engine.neotopia.render import pieces
from engine.neotopia.render.canvas import MIN_TEXT, Box, Canvas, clip
from engine.neotopia.render.model import Board, Player
from engine.neotopia.render.palette import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    REGION_EDGE,
    REGION_LETTER,
    REGION_ORDER,
    shade,
)
from engine.neotopia.render.words import tr

PLAYER_H = 76  # a player's row: name, scores and tokens, hand and built, at MIN_TEXT
LEGEND_ROW = 33
LEGEND = (
    ("subsidy", "Subsidy: 2 projects"),
    ("automation", "Automation: 1 action"),
    ("private_initiative", "Initiative: from reserve"),
    ("building_permits", "Permits: outer cell"),
)


def regions_of(board: Board) -> tuple[str, ...]:
    return board.geometry.regions or REGION_ORDER


def draw_players(c: Canvas, box: Box, board: Board) -> None:
    x0, y0, x1, y1 = box
    n = max(1, len(board.players))
    gap = 6
    row_h = min(PLAYER_H + 12, (y1 - y0 - gap * (n - 1)) // n)
    for i, p in enumerate(board.players):
        top = y0 + i * (row_h + gap)
        player_row(c, (x0, top, x1, top + row_h), board, p)


def player_row(c: Canvas, box: Box, board: Board, p: Player) -> None:
    x0, y0, x1, y1 = box
    active = board.active == p.seat and board.phase != "over"
    c.d.rounded_rectangle(box, radius=8, fill=PANEL, outline=HIGHLIGHT if active else PANEL_EDGE,
                          width=4 if active else 2)
    h = y1 - y0
    line = h / 3
    cy = y0 + line * 0.62
    pieces.badge(c, x0 + 20, cy, 30, p.colour, minimum=MIN_TEXT)
    tags = []
    if board.first == p.seat:
        tags.append(tr("1st"))
    if active:
        tags.append(tr("turn"))
    tag = "  ".join(tags)
    tag_w = 0
    if tag:
        tag_w = c.text((x1 - 8, cy), tag, MIN_TEXT, shade(HIGHLIGHT, 0.55) if active else MUTED,
                       anchor="rm", bold=True) + 8
    c.text((x0 + 40, cy), clip(p.name, x1 - x0 - 50 - tag_w, MIN_TEXT, bold=True), MIN_TEXT, INK,
           anchor="lm", bold=True)
    # Scores per region, with the region's letter in the region's colour.
    sy = y0 + line * 1.55
    x = x0 + 10
    for region in regions_of(board):
        letter = REGION_LETTER.get(region, region[:1].upper())
        x += c.text((x, sy), letter, MIN_TEXT, shade(REGION_EDGE.get(region, MUTED), 0.55),
                    anchor="lm", bold=True) + 4
        x += c.text((x, sy), str(p.scores.get(region, 0)), MIN_TEXT, INK, anchor="lm",
                    bold=True)
        x += 14
    # The bonus tokens held, after the scores (a count past what fits).
    step = 32
    room = max(0, (x1 - 8 - x) // step)
    shown = p.bonuses if len(p.bonuses) <= room else p.bonuses[: max(0, room - 1)]
    for kind in shown:
        pieces.token(c, x + 14, sy, 14, kind, minimum=MIN_TEXT)
        x += step
    if len(shown) < len(p.bonuses):
        c.text((x + 2, sy), f"+{len(p.bonuses) - len(shown)}", MIN_TEXT, INK, anchor="lm",
               bold=True)
    by = y0 + line * 2.45
    counts = tr("hand {h}  built {b}", h=p.hand, b=p.built)
    c.text((x0 + 10, by), clip(counts, x1 - x0 - 20, MIN_TEXT), MIN_TEXT, MUTED, anchor="lm")


def draw_legend(c: Canvas, box: Box, board: Board) -> None:
    """What the token letters mean, then the reserve and the deck."""
    x0, y0, x1, y1 = box
    c.d.rounded_rectangle(box, radius=8, fill=PANEL, outline=PANEL_EDGE, width=2)
    row = min(LEGEND_ROW, (y1 - y0 - 16) // (len(LEGEND) + 4))
    y = y0 + 8 + row / 2
    c.text((x0 + 10, y), tr("Bonus tokens"), MIN_TEXT, INK, anchor="lm", bold=True)
    for kind, words in LEGEND:
        y += row
        pieces.token(c, x0 + 22, y, 14, kind, minimum=MIN_TEXT)
        c.text((x0 + 42, y), clip(tr(words), x1 - x0 - 44, MIN_TEXT), MIN_TEXT, INK,
               anchor="lm")
    y += row
    c.text((x0 + 10, y), tr("Reserve"), MIN_TEXT, INK, anchor="lm", bold=True)
    # The four colours on their own line: a reserve of 10 or more still fits.
    y += row
    x = x0 + 10
    for colour in ("R", "G", "P", "B"):
        pieces.element(c, x + 13, y, 13, colour, minimum=MIN_TEXT)
        x += 30 + c.text((x + 30, y), str(board.reserve.get(colour, 0)), MIN_TEXT, INK,
                         anchor="lm", bold=True) + 14
    y += row
    piles = tr("Deck {d}   Stack {s}", d=board.deck, s=board.stack)
    c.text((x0 + 10, y), clip(piles, x1 - x0 - 20, MIN_TEXT, bold=True), MIN_TEXT, INK,
           anchor="lm", bold=True)
