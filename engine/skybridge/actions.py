"""The one action of Skybridge, placing a piece, with its text and JSON forms.

Text forms (case-insensitive, spaces optional around ``@`` and ``-``):

- ``3@5`` / ``2@5``: a 3- or 2-storey block on foundation 5;
- ``x3@5`` / ``x2@5``: a block of the fourth colour (3-player game only);
- ``bridge 5-6``: your bridge on foundations 5 and 6 (``pont`` also works);
- ``roof 5``: your roof on foundation 5 (``toit`` also works);
- a colour in front, ``blue 3@5`` or ``b: 3@5``, says which colour plays; it is
  required in the 2-player ``choose_colour`` game and optional elsewhere.
  Colours: red, yellow, green, blue (or r, y, g, b; French rouge, jaune, vert,
  bleu, or j, v).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.core.errors import ParseError
from engine.skybridge.board import FOUNDATIONS
from engine.skybridge.pieces import COLOURS, KINDS, Kind

_COLOUR_WORDS: Final[dict[str, str]] = {
    **{c: c for c in COLOURS},
    "r": "red",
    "y": "yellow",
    "g": "green",
    "b": "blue",
    "rouge": "red",
    "jaune": "yellow",
    "j": "yellow",
    "vert": "green",
    "v": "green",
    "bleu": "blue",
}

_PATTERN: Final = re.compile(
    r"""^\s*
    (?:(?P<colour>[a-z]+)\s*(?:\s|:)\s*)?
    (?:
        (?P<x>x)?\s*(?P<size>[23])\s*@\s*(?P<block>\d+)
      | (?:bridge|pont)\s*(?P<a>\d+)\s*[-\s]\s*(?P<b>\d+)
      | (?:roof|toit)\s*(?P<roof>\d+)
    )\s*$""",
    re.VERBOSE,
)

FORMS_HELP: Final = (
    "3@5 (3-storey block on foundation 5), 2@5, bridge 5-6, roof 5; "
    "foundations are numbered 1-9 row by row from the top-left"
)


@dataclass(frozen=True)
class Place:
    """Place one piece. ``at`` holds one foundation, or two (ascending) for a bridge.

    ``colour`` is set only in the 2-player ``choose_colour`` game; elsewhere the
    rotation decides the colour. ``extra`` marks a fourth-colour block (3 players).
    """

    kind: Kind
    at: tuple[int, ...]
    colour: str | None = None
    extra: bool = False

    def text(self) -> str:
        prefix = f"{self.colour} " if self.colour else ""
        if self.kind == "bridge":
            return f"{prefix}bridge {self.at[0]}-{self.at[1]}"
        if self.kind == "roof":
            return f"{prefix}roof {self.at[0]}"
        x = "x" if self.extra else ""
        return f"{prefix}{x}{self.kind[-1]}@{self.at[0]}"

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "place",
            "kind": self.kind,
            "at": list(self.at),
            "colour": self.colour,
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Place:
        try:
            kind = data["kind"]
            at = tuple(int(f) for f in data["at"])
            colour = data.get("colour")
            extra = bool(data.get("extra", False))
        except (KeyError, TypeError, ValueError) as exc:
            raise ParseError(f"Not a Skybridge action: {dict(data)!r}") from exc
        if data.get("type") != "place" or kind not in KINDS:
            raise ParseError(f"Not a Skybridge action: {dict(data)!r}")
        if colour is not None and colour not in COLOURS:
            raise ParseError(f"Unknown colour {colour!r}.")
        return make_place(kind, at, colour, extra)


def make_place(kind: Kind, at: tuple[int, ...], colour: str | None, extra: bool) -> Place:
    """The canonical action: bridge ends ascending, ``extra`` only on blocks."""
    for f in at:
        if f not in FOUNDATIONS:
            raise ParseError(f"There is no foundation {f}: they are numbered 1 to 9.")
    if kind == "bridge":
        if len(at) != 2 or at[0] == at[1]:
            raise ParseError("A bridge joins two different foundations, as in bridge 5-6.")
        at = (min(at), max(at))
    elif len(at) != 1:
        raise ParseError(f"A {kind} goes on one foundation.")
    if extra and kind not in ("block3", "block2"):
        raise ParseError("Only blocks come in the fourth colour.")
    return Place(kind, at, colour, extra)


@dataclass(frozen=True)
class Typed:
    """What the player typed, before the rules fill in the colour."""

    place: Place
    colour_word: str | None


def parse_text(text: str) -> Typed:
    """Read the typed form; raises ParseError for anything that is not one."""
    match = _PATTERN.match(text.lower().replace("–", "-"))
    if match is None:
        raise ParseError(f"I could not read {text.strip()!r}. Write {FORMS_HELP}.")
    colour: str | None = None
    if match["colour"] is not None:
        colour = _COLOUR_WORDS.get(match["colour"])
        if colour is None:
            raise ParseError(
                f"{match['colour']!r} is not a colour: use red, yellow, green or blue."
            )
    kind: Kind
    if match["block"] is not None:
        kind = "block3" if match["size"] == "3" else "block2"
        place = make_place(kind, (int(match["block"]),), None, match["x"] is not None)
    elif match["a"] is not None:
        place = make_place("bridge", (int(match["a"]), int(match["b"])), None, False)
    else:
        place = make_place("roof", (int(match["roof"]),), None, False)
    return Typed(place, colour)
