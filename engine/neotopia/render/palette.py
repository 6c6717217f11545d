"""Colours and letters: every colour is doubled by a letter, so none is the only cue.

Element colours keep the game's names (red, green, purple, blue) but take the
Okabe-Ito shades where one exists, which stay apart under the common colour-vision
deficiencies; purple and blue, which can still be confused, always carry P and B.
Bonus tokens are squares (elements are discs) with a letter of their own: S, A, I, N.
"""

from __future__ import annotations

from engine.canvas import RGB as RGB  # re-exported: the renderers type colours with it

BACKGROUND: RGB = (236, 232, 222)
PANEL: RGB = (250, 248, 243)
PANEL_EDGE: RGB = (200, 194, 180)
INK: RGB = (34, 34, 38)
MUTED: RGB = (105, 102, 96)
WHITE: RGB = (255, 255, 255)
HIGHLIGHT: RGB = (255, 196, 0)
HEADER_LIGHT: RGB = (230, 226, 216)

ELEMENT_FILL: dict[str, RGB] = {
    "R": (213, 94, 0),
    "G": (0, 158, 115),
    "P": (128, 72, 168),
    "B": (0, 114, 178),
}
ELEMENT_TEXT: dict[str, RGB] = {"R": WHITE, "G": WHITE, "P": WHITE, "B": WHITE}
ELEMENT_NAME: dict[str, str] = {"R": "Red", "G": "Green", "P": "Purple", "B": "Blue"}
UNKNOWN: RGB = (150, 150, 150)

REGION_ORDER: tuple[str, ...] = ("desert", "aquatic", "forest")
REGION_LETTER: dict[str, str] = {"desert": "D", "aquatic": "A", "forest": "F"}
REGION_NAME: dict[str, str] = {"desert": "Desert", "aquatic": "Aquatic", "forest": "Forest"}
# Pale grounds, far from every element colour, so a disc always stands out of its cell.
REGION_TINT: dict[str, RGB] = {
    "desert": (240, 224, 184),
    "aquatic": (204, 226, 238),
    "forest": (212, 232, 200),
}
REGION_EDGE: dict[str, RGB] = {
    "desert": (196, 170, 112),
    "aquatic": (140, 178, 200),
    "forest": (150, 186, 134),
}
OUTER_TINT: dict[str, RGB] = {
    "desert": (224, 204, 156),
    "aquatic": (178, 206, 222),
    "forest": (186, 214, 172),
}

TOKEN_FILL: RGB = (60, 56, 52)
TOKEN_TEXT: RGB = (255, 214, 90)
BONUS_LETTER: dict[str, str] = {
    "subsidy": "S",
    "automation": "A",
    "private_initiative": "I",
    "building_permits": "N",
}
BONUS_NAME: dict[str, str] = {
    "subsidy": "Subsidy",
    "automation": "Automation",
    "private_initiative": "Private Initiative",
    "building_permits": "New Building Permits",
}
BONUS_SHORT: dict[str, str] = {
    "subsidy": "draw 2 projects",
    "automation": "1 more action",
    "private_initiative": "element from reserve",
    "building_permits": "on an outer cell",
}
MANUFACTURE_FILL: RGB = (92, 88, 82)
SLOT_EMPTY: RGB = (150, 144, 134)


def element_fill(colour: str) -> RGB:
    return ELEMENT_FILL.get(colour, UNKNOWN)


def element_text(colour: str) -> RGB:
    return ELEMENT_TEXT.get(colour, INK)


def bonus_letter(kind: str) -> str:
    return BONUS_LETTER.get(kind, kind[:1].upper() or "?")


def shade(colour: RGB, k: float) -> RGB:
    """Darker below 1, lighter towards white above 1."""
    r, g, b = colour
    if k >= 1:
        t = k - 1
        return (int(r + (255 - r) * t), int(g + (255 - g) * t), int(b + (255 - b) * t))
    return (int(r * k), int(g * k), int(b * k))
