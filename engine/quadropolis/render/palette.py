"""Colours, letters and patterns: every colour is doubled by a letter and a pattern.

Building colours lean on the Okabe-Ito palette, which stays distinct under the common
colour-vision deficiencies; a capital letter (T, S, P, K, F, H, O, M; Q for a square,
the same letters as the text forms) and a fill
pattern (bands, dots, crosses, hatching ...) say the kind of building a second and a
third time, so that no one has to tell two colours apart.
"""

from __future__ import annotations

from engine.canvas import RGB as RGB  # re-exported: the renderers type colours with it

BACKGROUND: RGB = (236, 232, 222)
PANEL: RGB = (250, 248, 243)
PANEL_EDGE: RGB = (200, 194, 180)
INK: RGB = (34, 34, 38)
MUTED: RGB = (96, 93, 88)
WHITE: RGB = (255, 255, 255)
HIGHLIGHT: RGB = (255, 196, 0)
EMPTY_SPACE: RGB = (222, 217, 204)
SITE_GROUND: RGB = (196, 186, 164)
TILE_BACK: RGB = (112, 104, 92)
TILE_BACK_PATTERN: RGB = (138, 129, 116)
INHABITANT: RGB = (40, 110, 200)  # blue meeples in the box
ENERGY: RGB = (200, 40, 40)  # red barrels in the box
STAR: RGB = (250, 190, 20)
REMOVED: RGB = (170, 166, 158)
URBANIST: RGB = (20, 20, 24)

# Building kinds as the engine names them, in the rulebook's order.
KINDS: tuple[str, ...] = (
    "tower_block",
    "shop",
    "public_service",
    "park",
    "factory",
    "harbor",
    "office",
    "monument",
)
KIND_LETTER: dict[str, str] = {
    "tower_block": "T",
    "shop": "S",
    "public_service": "P",
    "park": "K",  # as in the text forms: P is taken by public services
    "factory": "F",
    "harbor": "H",
    "office": "O",
    "monument": "M",
}
# A square (Squares option) is a park: the park's colour and pattern, its own letter.
SQUARE_LETTER = "Q"
KIND_NAME: dict[str, str] = {
    "tower_block": "tower block",
    "shop": "shop",
    "public_service": "public service",
    "park": "park",
    "factory": "factory",
    "harbor": "harbor",
    "office": "office",
    "monument": "monument",
}
KIND_FILL: dict[str, RGB] = {
    "tower_block": (0, 114, 178),
    "shop": (240, 228, 66),
    "public_service": (230, 159, 0),
    "park": (0, 158, 115),
    "factory": (213, 94, 0),
    "harbor": (86, 180, 233),
    "office": (110, 100, 150),
    "monument": (204, 121, 167),
}
# Pattern strokes: a shade of the fill, so the pattern shows without hiding the letter.
KIND_PATTERN: dict[str, RGB] = {
    "tower_block": (50, 145, 200),
    "shop": (206, 194, 40),
    "public_service": (196, 130, 0),
    "park": (0, 128, 92),
    "factory": (176, 74, 0),
    "harbor": (50, 150, 210),
    "office": (140, 130, 176),
    "monument": (226, 156, 194),
}
KIND_TEXT: dict[str, RGB] = {
    "tower_block": WHITE,
    "shop": INK,
    "public_service": INK,
    "park": WHITE,
    "factory": WHITE,
    "harbor": INK,
    "office": WHITE,
    "monument": INK,
}
# District tints of the city boards (the printed boards colour each quarter).
DISTRICT_TINT: dict[int, RGB] = {
    1: (214, 200, 230),  # purple
    2: (196, 226, 222),  # teal (classic: blue)
    3: (240, 206, 218),  # pink
    4: (214, 214, 214),  # grey (classic: yellow, drawn grey to keep one legend)
    5: (244, 214, 180),  # orange
}

# Player colours: the engine gives a colour name; each has a letter for colour-blind
# players (black is K, as in CMYK).
PLAYER_FILL: dict[str, RGB] = {
    "blue": (0, 90, 181),
    "red": (220, 50, 32),
    "green": (26, 133, 70),
    "yellow": (255, 194, 10),
    "purple": (120, 70, 160),
    "orange": (245, 140, 20),
    "black": (30, 30, 30),
    "white": (250, 250, 250),
    "grey": (150, 150, 150),
}
PLAYER_LETTER: dict[str, str] = {
    "blue": "B",
    "red": "R",
    "green": "G",
    "yellow": "Y",
    "purple": "P",
    "orange": "O",
    "black": "K",
    "white": "W",
    "grey": "E",
}
# Seat colours when the view names none: the four colours of the box.
SEAT_COLORS: tuple[str, ...] = ("blue", "red", "green", "yellow")
UNKNOWN_PLAYER: RGB = (190, 190, 190)


def player_fill(color: str) -> RGB:
    return PLAYER_FILL.get(color, UNKNOWN_PLAYER)


def player_letter(color: str) -> str:
    return PLAYER_LETTER.get(color, color[:1].upper() or "?")


def readable_on(fill: RGB) -> RGB:
    """Ink that reads on ``fill``."""
    r, g, b = fill
    return INK if (r * 299 + g * 587 + b * 114) // 1000 > 140 else WHITE


def shade(color: RGB, k: float) -> RGB:
    """``k`` < 1 darkens, ``k`` > 1 lightens towards white."""
    r, g, b = color
    if k >= 1:
        return (
            int(r + (255 - r) * (k - 1)),
            int(g + (255 - g) * (k - 1)),
            int(b + (255 - b) * (k - 1)),
        )
    return (int(r * k), int(g * k), int(b * k))
