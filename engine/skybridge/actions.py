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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.core.errors import ParseError
from engine.core.textinput import MAX_DIGITS, check_typed, typed_int
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

_PIECE_WORDS: Final[dict[str, str]] = {
    "x": "x", "bridge": "bridge", "pont": "bridge", "roof": "roof", "toit": "roof",
}
_LETTERS: Final = frozenset("abcdefghijklmnopqrstuvwxyz")
_DIGITS: Final = frozenset("0123456789")
_MARKS: Final = frozenset("@-:")

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
            raise ParseError(f"Not a Skybridge action: {dict(data)!r}",
                             code="bad_json") from exc
        if data.get("type") != "place" or kind not in KINDS:
            raise ParseError(f"Not a Skybridge action: {dict(data)!r}", code="bad_json")
        if colour is not None and colour not in COLOURS:
            raise ParseError(f"Unknown colour {colour!r}.", code="bad_json")
        try:
            return make_place(kind, at, colour, extra)
        except ParseError as exc:
            # A value that is not an action is forged, not mistyped: one code for all.
            raise ParseError(exc.message, code="bad_json") from None


def make_place(kind: Kind, at: tuple[int, ...], colour: str | None, extra: bool) -> Place:
    """The canonical action: bridge ends ascending, ``extra`` only on blocks."""
    for f in at:
        if f not in FOUNDATIONS:
            raise ParseError(f"There is no foundation {f}: they are numbered 1 to 9.",
                             code="no_foundation", foundation=f)
    if kind == "bridge":
        if len(at) != 2 or at[0] == at[1]:
            raise ParseError("A bridge joins two different foundations, as in bridge 5-6.",
                             code="bridge_ends")
        at = (min(at), max(at))
    elif len(at) != 1:
        raise ParseError(f"A {kind} goes on one foundation.", code="one_foundation",
                         kind=kind)
    if extra and kind not in ("block3", "block2"):
        raise ParseError("Only blocks come in the fourth colour.", code="fourth_not_block")
    return Place(kind, at, colour, extra)


@dataclass(frozen=True)
class Typed:
    """What the player typed, before the rules fill in the colour."""

    place: Place
    colour_word: str | None


def parse_text(text: str) -> Typed:
    """Read the typed form; raises ParseError for anything that is not one.

    A hand-written tokenizer and grammar, linear in the length of the text, after the
    length check of ``engine.core.textinput`` (a backtracking pattern with adjacent
    optional spaces cost the cube of the length).
    """
    check_typed(text)
    tokens = _tokens(text.lower().replace("–", "-"))
    if tokens is None:
        raise _unreadable(text)
    colour_word: str | None = None
    if tokens and tokens[0][0] == "word" and tokens[0][1] not in _PIECE_WORDS:
        colour_word = tokens[0][1]
        tokens = tokens[2:] if tokens[1:2] == [("mark", ":")] else tokens[1:]
    place = _piece(tokens)
    if place is None:
        raise _unreadable(text)
    colour: str | None = None
    if colour_word is not None:
        colour = _COLOUR_WORDS.get(colour_word)
        if colour is None:
            raise ParseError(f"{colour_word!r} is not a colour: use red, yellow, green or blue.",
                             code="not_a_colour", typed=colour_word[:20])
    return Typed(place, colour)


def _unreadable(text: str) -> ParseError:
    return ParseError(f"I could not read {text.strip()!r}. Write {FORMS_HELP}.",
                      code="unreadable", typed=text.strip()[:40])


def _tokens(text: str) -> list[tuple[str, str]] | None:
    """Words (a-z), numbers (0-9) and the marks ``@ - :``; None for any other character.

    Spaces only separate tokens, so ``3 @ 5`` and ``3@5`` read the same.
    """
    tokens: list[tuple[str, str]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        if c in _MARKS:
            tokens.append(("mark", c))
            i += 1
            continue
        kind, alphabet = ("word", _LETTERS) if c in _LETTERS else ("number", _DIGITS)
        if c not in alphabet:
            return None
        j = i
        while j < n and text[j] in alphabet:
            j += 1
        tokens.append((kind, text[i:j]))
        i = j
    return tokens


def _piece(tokens: list[tuple[str, str]]) -> Place | None:
    """The piece part: ``[x] 3|2 @ N``, ``bridge N [-] N`` or ``roof N``; None if not one."""
    kinds = [k for k, _ in tokens]
    values = [v for _, v in tokens]
    extra = kinds[:1] == ["word"] and values[0] == "x"
    if extra:
        kinds, values = kinds[1:], values[1:]
    if kinds == ["number", "mark", "number"] and values[0] in ("2", "3") and values[1] == "@":
        kind: Kind = "block3" if values[0] == "3" else "block2"
        return make_place(kind, (_foundation(values[2]),), None, extra)
    if extra or kinds[:1] != ["word"]:
        return None
    word = _PIECE_WORDS.get(values[0])
    if word == "bridge" and kinds[1:] in (["number", "number"], ["number", "mark", "number"]):
        if len(kinds) == 4 and values[2] != "-":
            return None
        ends = (_foundation(values[1]), _foundation(values[-1]))
        return make_place("bridge", ends, None, False)
    if word == "roof" and kinds[1:] == ["number"]:
        return make_place("roof", (_foundation(values[1]),), None, False)
    return None


def _foundation(digits: str) -> int:
    if len(digits) > MAX_DIGITS:
        raise ParseError(f"There is no foundation {digits[:MAX_DIGITS]}…: they are numbered "
                         "1 to 9.", code="no_foundation", foundation=digits[:MAX_DIGITS] + "…")
    return typed_int(digits, "foundation number")
