"""The construction site: 5x5 spaces, the 20 architect slots around them, the Urbanist.

A face-up tile is drawn in full, a face-down one as its back (never its face: the
view does not hold it), a taken or empty space as a flat square. Each architect
stands in its slot, pointing at the line it faces, in its owner's colour with the
owner's letter and its number; the one placed last has a gold halo. Free slots that
face the Urbanist's row or column are crossed out, as in the rulebook's illustration.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.quadropolis.render import icons
from engine.quadropolis.render.canvas import MIN_TEXT, Box, Canvas
from engine.quadropolis.render.geometry import SITE_SIZE
from engine.quadropolis.render.model import Board
from engine.quadropolis.render.palette import (
    HIGHLIGHT,
    INK,
    MUTED,
    SITE_GROUND,
    player_fill,
    shade,
)
from engine.quadropolis.render.tiles import draw_back, draw_empty, draw_tile


@dataclass(frozen=True)
class SiteLayout:
    """Pixel boxes of the site: ``left``/``top`` is the corner of space (0, 0)."""

    left: int
    top: int
    pitch: int
    band: int

    @property
    def size(self) -> int:
        return SITE_SIZE * self.pitch + 2 * self.band

    @property
    def outer(self) -> Box:
        return (self.left - self.band, self.top - self.band, self.left - self.band + self.size,
                self.top - self.band + self.size)

    def space_box(self, row: int, col: int) -> Box:
        gap = max(3, self.pitch // 14)
        x = self.left + col * self.pitch
        y = self.top + row * self.pitch
        return (x + gap // 2, y + gap // 2, x + self.pitch - (gap - gap // 2),
                y + self.pitch - (gap - gap // 2))

    def slot_center(self, side: str, index: int) -> tuple[float, float]:
        along = index * self.pitch + self.pitch / 2
        half = self.band / 2
        span = SITE_SIZE * self.pitch
        if side == "top":
            return (self.left + along, self.top - half)
        if side == "bottom":
            return (self.left + along, self.top + span + half)
        if side == "left":
            return (self.left - half, self.top + along)
        if side == "right":
            return (self.left + span + half, self.top + along)
        raise ValueError(side)


def site_layout(x: int, y: int, pitch: int) -> SiteLayout:
    """The site with its outer corner at (x, y)."""
    band = max(40, int(pitch * 0.58))
    return SiteLayout(x + band, y + band, pitch, band)


def draw_site(c: Canvas, board: Board, lay: SiteLayout) -> None:
    x0, y0, x1, y1 = lay.outer
    c.d.rounded_rectangle((x0, y0, x1, y1), radius=12, fill=shade(SITE_GROUND, 1.35),
                          outline=MUTED, width=2)
    span = SITE_SIZE * lay.pitch
    c.d.rectangle((lay.left - 2, lay.top - 2, lay.left + span + 1, lay.top + span + 1),
                  fill=SITE_GROUND)
    for r, row in enumerate(board.site):
        for col, space in enumerate(row):
            box = lay.space_box(r, col)
            if space.tile is not None:
                draw_tile(c, box, space.tile)
            elif space.face_down:
                draw_back(c, box)
            else:
                draw_empty(c, box, fill=shade(SITE_GROUND, 1.18))
    if board.urbanist is not None:
        r, col = board.urbanist
        bx0, by0, bx1, by1 = lay.space_box(r, col)
        icons.urbanist(c, (bx0 + bx1) / 2, (by0 + by1) / 2, (by1 - by0) * 0.7)
    taken = {(a.side, a.index) for a in board.architects}
    blocked = _blocked(board)
    token = lay.band * 0.88
    for side in ("top", "right", "bottom", "left"):
        for i in range(SITE_SIZE):
            cx, cy = lay.slot_center(side, i)
            if (side, i) in taken:
                continue
            if (side, i) in blocked:
                k = lay.band * 0.2
                c.d.line([(cx - k, cy - k), (cx + k, cy + k)], fill=MUTED, width=3)
                c.d.line([(cx - k, cy + k), (cx + k, cy - k)], fill=MUTED, width=3)
            else:
                label = slot_name(side, i)
                c.text((cx, cy), label, max(MIN_TEXT, int(lay.band * 0.4)), MUTED, anchor="mm",
                       bold=True)
    for i, a in enumerate(board.architects):
        cx, cy = lay.slot_center(a.side, a.index)
        color = None if a.owner is None else board.players[a.owner].color
        if i == len(board.architects) - 1:
            # The architect placed last (the view lists them in play order): a gold halo.
            # A black rim keeps it visible around a yellow player's architect too.
            halo = token * 0.62
            c.d.rounded_rectangle((cx - halo - 2, cy - halo - 2, cx + halo + 2, cy + halo + 2),
                                  radius=9, fill=INK)
            c.d.rounded_rectangle((cx - halo, cy - halo, cx + halo, cy + halo), radius=8,
                                  fill=HIGHLIGHT)
        _pointer(c, lay, a.side, cx, cy, token, color)
        icons.architect(c, cx, cy, token, a.number, color)


def slot_name(side: str, index: int) -> str:
    """The slot's name in the text forms: T3 is the top end of site column 3."""
    return f"{side[0].upper()}{index + 1}"


def _blocked(board: Board) -> set[tuple[str, int]]:
    """Slots facing the Urbanist's row or column (free on a round's first turn only:
    the Urbanist is not on the site then)."""
    if board.urbanist is None:
        return set()
    r, col = board.urbanist
    return {("left", r), ("right", r), ("top", col), ("bottom", col)}


def _pointer(c: Canvas, lay: SiteLayout, side: str, cx: float, cy: float, size: float,
             color: str | None) -> None:
    """A small wedge from the architect towards the site, in the owner's colour."""
    fill = player_fill(color) if color is not None else (150, 150, 150)
    h = size / 2
    k = size * 0.22
    tip = lay.band / 2 + 1
    points = {
        "top": [(cx - k, cy + h - 2), (cx + k, cy + h - 2), (cx, cy + tip)],
        "bottom": [(cx - k, cy - h + 2), (cx + k, cy - h + 2), (cx, cy - tip)],
        "left": [(cx + h * 0.84 - 2, cy - k), (cx + h * 0.84 - 2, cy + k), (cx + tip, cy)],
        "right": [(cx - h * 0.84 + 2, cy - k), (cx - h * 0.84 + 2, cy + k), (cx - tip, cy)],
    }[side]
    c.d.polygon(points, fill=fill, outline=INK)
