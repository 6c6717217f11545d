"""Colours, letters and patterns: every colour is doubled by a letter or a shape.

Building colours follow the Okabe-Ito palette (blue, vermillion, yellow), which stays
distinct under the common colour-vision deficiencies; the letter B/R/Y and a fill
pattern (stripes, hatching, dots) say the same thing a second time.
"""

from __future__ import annotations

from engine.canvas import RGB as RGB  # re-exported: the renderers type colours with it

BACKGROUND: RGB = (236, 232, 222)
PANEL: RGB = (250, 248, 243)
PANEL_EDGE: RGB = (200, 194, 180)
INK: RGB = (34, 34, 38)
MUTED: RGB = (105, 102, 96)
WHITE: RGB = (255, 255, 255)
DISTRICT_EDGE: RGB = (28, 28, 32)
TOKEN_FILL: RGB = (255, 252, 240)
HIGHLIGHT: RGB = (255, 196, 0)

BUILDING_FILL: dict[str, RGB] = {"B": (0, 114, 178), "R": (213, 94, 0), "Y": (240, 228, 66)}
# Pattern strokes: a shade of the fill, so the pattern shows without hiding the label.
BUILDING_PATTERN: dict[str, RGB] = {"B": (64, 150, 204), "R": (178, 74, 0), "Y": (208, 196, 40)}
# District tint: the fill washed out, drawn in the gaps so a district reads as one block.
BUILDING_TINT: dict[str, RGB] = {"B": (150, 196, 226), "R": (236, 176, 140), "Y": (246, 240, 160)}
BUILDING_TEXT: dict[str, RGB] = {"B": WHITE, "R": WHITE, "Y": INK}
BUILDING_NAME: dict[str, str] = {"B": "Blue", "R": "Red", "Y": "Yellow"}

# Player colours come from engine.ginkgopolis.state.PLAYER_COLORS (and HAL_COLOR).
PLAYER_FILL: dict[str, RGB] = {
    "green": (0, 158, 115),
    "purple": (120, 70, 160),
    "orange": (245, 160, 20),
    "white": (250, 250, 250),
    "black": (30, 30, 30),
    "grey": (150, 150, 150),
}
# One letter per colour; black is K, as in CMYK, so it differs from blue's B.
PLAYER_LETTER: dict[str, str] = {
    "green": "G",
    "purple": "P",
    "orange": "O",
    "white": "W",
    "black": "K",
    "grey": "H",
}
UNKNOWN_PLAYER: RGB = (190, 190, 190)


def player_fill(color: str) -> RGB:
    return PLAYER_FILL.get(color, UNKNOWN_PLAYER)


def player_letter(color: str) -> str:
    return PLAYER_LETTER.get(color, color[:1].upper() or "?")


def player_text(color: str) -> RGB:
    """Ink that reads on the player's colour."""
    r, g, b = player_fill(color)
    return INK if (r * 299 + g * 587 + b * 114) // 1000 > 140 else WHITE
