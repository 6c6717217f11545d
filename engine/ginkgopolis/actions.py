"""Actions, with their JSON form and the short text form a player can type.

Text forms (case and spaces do not matter):
- ``R7`` play red 7 alone; ``R7+B12`` with tile blue 12 (construct a floor);
- ``A+Y5`` Urbanization card A with tile yellow 5 (urbanize);
- ``A:res`` / ``A:tile`` Urbanization card A alone, taking a resource or a tile;
- ``newhand`` spend a New Hand token;
- ``draft 14`` keep character card 14 during the draft;
- ``A@2,-3`` move Urbanization token A to the cell x=2, y=-3;
- ``give B12`` / ``take B12`` / ``done`` build the group of tiles returned at the refill.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core.errors import ParseError
from engine.core.textinput import check_typed, typed_int
from engine.ginkgopolis.cards import LETTERS


@dataclass(frozen=True)
class PlayCard:
    card: str
    tile: str | None = None
    gain: str | None = None

    def text(self) -> str:
        if self.tile:
            return f"{self.card}+{self.tile}"
        if self.gain:
            return f"{self.card}:{self.gain}"
        return self.card

    def to_json(self) -> dict[str, Any]:
        return {"type": "play", "card": self.card, "tile": self.tile, "gain": self.gain}


@dataclass(frozen=True)
class NewHand:
    def text(self) -> str:
        return "newhand"

    def to_json(self) -> dict[str, Any]:
        return {"type": "newhand"}


@dataclass(frozen=True)
class DraftCharacter:
    character: int

    def text(self) -> str:
        return f"draft {self.character}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "draft", "character": self.character}


@dataclass(frozen=True)
class MoveToken:
    letter: str
    x: int
    y: int

    def text(self) -> str:
        return f"{self.letter}@{self.x},{self.y}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "token", "letter": self.letter, "x": self.x, "y": self.y}


@dataclass(frozen=True)
class GiveTile:
    tile: str

    def text(self) -> str:
        return f"give {self.tile}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "give", "tile": self.tile}


@dataclass(frozen=True)
class TakeTile:
    tile: str

    def text(self) -> str:
        return f"take {self.tile}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "take", "tile": self.tile}


@dataclass(frozen=True)
class RefillDone:
    def text(self) -> str:
        return "done"

    def to_json(self) -> dict[str, Any]:
        return {"type": "done"}


GAction = PlayCard | NewHand | DraftCharacter | MoveToken | GiveTile | TakeTile | RefillDone

_TILE = r"[BRY](?:[1-9]|1[0-9]|20)"
_PLAY = re.compile(rf"^(?P<card>{_TILE}|[A-L])(?:\+(?P<tile>{_TILE})|:(?P<gain>RES|R|TILE|T))?$")
# ASCII digits only: ``\d`` also takes other scripts' digits. Every pattern is anchored and
# unambiguous, so matching is linear in the (bounded) length of the text.
_TOKEN = re.compile(r"^(?P<letter>[A-L])@(?P<x>-?[0-9]+),(?P<y>-?[0-9]+)$")
_DRAFT = re.compile(r"^(?:DRAFT|CHAR|C)(?P<n>[0-9]+)$")
_GIVE = re.compile(rf"^(?P<verb>GIVE|TAKE|\+|-)(?P<tile>{_TILE})$")


def parse(text: str) -> GAction:
    """Parse a typed action. Raises ParseError saying what was expected (``too_long``
    past ``engine.core.textinput.MAX_TYPED`` characters)."""
    check_typed(text)
    compact = re.sub(r"\s+", "", text).upper()
    if not compact:
        raise ParseError("Type an action, for example R7, R7+B12, A+Y5, A:res or newhand.",
                         code="empty")
    if compact in ("NEWHAND", "NEW"):
        return NewHand()
    if compact in ("DONE", "OK"):
        return RefillDone()
    if m := _PLAY.match(compact):
        card, tile, gain = m["card"], m["tile"], m["gain"]
        if card in LETTERS and len(card) == 1 and tile is None:
            if gain is None:
                raise ParseError(
                    f"Played alone, Urbanization card {card} gives a resource or a tile: "
                    f"type {card}:res or {card}:tile.",
                    code="needs_gain", card=card,
                )
            return PlayCard(card, None, "res" if gain.startswith("R") else "tile")
        if gain is not None:
            raise ParseError(f"{card} is a Building card: type {card} alone or {card}+tile.",
                             code="building_gain", card=card)
        return PlayCard(card, tile)
    if m := _TOKEN.match(compact):
        x, y = typed_int(m["x"], "coordinate"), typed_int(m["y"], "coordinate")
        return MoveToken(m["letter"], x, y)
    if m := _DRAFT.match(compact):
        return DraftCharacter(typed_int(m["n"], "character number"))
    if m := _GIVE.match(compact):
        verb = m["verb"]
        return GiveTile(m["tile"]) if verb in ("GIVE", "+") else TakeTile(m["tile"])
    raise ParseError(
        f"I could not read {text.strip()!r}. Cards are R7, B12, Y3 (colour and number) or "
        "A to L; tiles likewise. Examples: R7, R7+B12, A+Y5, A:res, newhand.",
        code="unreadable", typed=text.strip()[:40],
    )


def from_json(data: Mapping[str, Any]) -> GAction:
    kind = data.get("type")
    if kind == "play":
        return PlayCard(data["card"], data.get("tile"), data.get("gain"))
    if kind == "newhand":
        return NewHand()
    if kind == "draft":
        return DraftCharacter(int(data["character"]))
    if kind == "token":
        return MoveToken(data["letter"], int(data["x"]), int(data["y"]))
    if kind == "give":
        return GiveTile(data["tile"])
    if kind == "take":
        return TakeTile(data["tile"])
    if kind == "done":
        return RefillDone()
    raise ParseError(f"unknown action type {kind!r}", code="bad_json")
