"""Neotopia actions: small frozen values with a JSON form and a short text form.

A move takes two steps, so that no menu ever offers more than 25 options at once:
first the element (``FD:P``: the purple element of manufacture FD), then the cell
(``D11``). Text forms (case-insensitive; French words work too):

- ``draw C10`` a project from the offer, ``draw deck`` the top of the deck
  (``pioche C10``, ``pioche paquet``);
- ``FD:P`` take an element: manufacture id, ``:``, colour (R red, G green, P purple,
  B blue; ``FD P`` and ``FD:purple`` work too); ``reserve:P`` for Private Initiative;
- ``D11`` put the element taken on cell D11 (region letter + cell number);
- ``FD:P>D11`` both steps at once, when typing (menus show the two steps);
- ``build C44`` build a project just completed, ``build none`` build nothing;
- ``use subsidy`` / ``use automation`` / ``use initiative`` / ``use permits`` spend a
  bonus token (``utiliser subvention``, ``automatisation``, ``initiative``, ``permis``);
- ``end`` end the turn while a bonus is still usable (``fin``);
- ``back`` put the element back and choose again (``retour``).

Menus group options by what comes before ``:`` or a space: ``draw``, each
manufacture, ``use``, ``build``; cells come alone (at most 25 per select).
The parser reads at most ``MAX_TEXT`` characters, in one pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from engine.core.errors import ParseError
from engine.neotopia.data import DataSet

MAX_TEXT: Final = 200
T = TypeVar("T")

BONUS_WORDS: Final[dict[str, str]] = {
    "subsidy": "subsidy", "subvention": "subsidy",
    "automation": "automation", "automatisation": "automation",
    "initiative": "private_initiative", "private_initiative": "private_initiative",
    "permits": "building_permits", "permis": "building_permits",
    "building_permits": "building_permits",
}
BONUS_SHORT: Final[dict[str, str]] = {
    "subsidy": "subsidy", "automation": "automation",
    "private_initiative": "initiative", "building_permits": "permits",
}
COLOUR_WORDS: Final[dict[str, str]] = {
    "red": "R", "rouge": "R", "green": "G", "vert": "G", "v": "G", "purple": "P",
    "violet": "P", "blue": "B", "bleu": "B",
}
FORMS_HELP: Final = (
    "draw C10, draw deck, FD:P (take an element), D11 (the cell), FD:P>D11, build C44, "
    "build none, use subsidy|automation|initiative|permits, end, back"
)


@dataclass(frozen=True)
class Draw:
    """Draw a project: ``card`` from the offer, or the top of the deck when None."""

    card: str | None

    def text(self) -> str:
        return f"draw {self.card}" if self.card else "draw deck"

    def to_json(self) -> dict[str, Any]:
        return {"type": "draw", "card": self.card}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Draw:
        return _typed(cls, data)


@dataclass(frozen=True)
class Take:
    """Choose the element to place: from a manufacture, or ``reserve`` (Private Initiative)."""

    source: str
    colour: str

    def text(self) -> str:
        return f"{self.source}:{self.colour}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "take", "source": self.source, "colour": self.colour}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Take:
        return _typed(cls, data)


@dataclass(frozen=True)
class Move:
    """Both steps of a move typed at once (``FD:P>D11``): a shortcut for typing, never
    listed among the legal actions (menus offer the two steps)."""

    source: str
    colour: str
    cell: str

    def text(self) -> str:
        return f"{self.source}:{self.colour}>{self.cell}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "move", "source": self.source, "colour": self.colour,
                "cell": self.cell}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Move:
        return _typed(cls, data)


@dataclass(frozen=True)
class Place:
    """Put the element taken (or a starting element) on ``cell``."""

    cell: str

    def text(self) -> str:
        return self.cell

    def to_json(self) -> dict[str, Any]:
        return {"type": "place", "cell": self.cell}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Place:
        return _typed(cls, data)


@dataclass(frozen=True)
class Build:
    """Build a completed project from the hand, or none (``card`` None)."""

    card: str | None

    def text(self) -> str:
        return f"build {self.card or 'none'}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "build", "card": self.card}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Build:
        return _typed(cls, data)


@dataclass(frozen=True)
class UseBonus:
    bonus: str

    def text(self) -> str:
        return f"use {BONUS_SHORT[self.bonus]}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "use", "bonus": self.bonus}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> UseBonus:
        return _typed(cls, data)


@dataclass(frozen=True)
class EndTurn:
    def text(self) -> str:
        return "end"

    def to_json(self) -> dict[str, Any]:
        return {"type": "end"}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EndTurn:
        return _typed(cls, data)


@dataclass(frozen=True)
class Back:
    def text(self) -> str:
        return "back"

    def to_json(self) -> dict[str, Any]:
        return {"type": "back"}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Back:
        return _typed(cls, data)


NeoAction = Draw | Take | Move | Place | Build | UseBonus | EndTurn | Back


def action_from_json(data: Mapping[str, Any]) -> NeoAction:
    try:
        kind = data["type"]
        if kind == "draw":
            return Draw(_opt_str(data["card"]))
        if kind == "take":
            return Take(_str(data["source"]), _str(data["colour"]))
        if kind == "move":
            return Move(_str(data["source"]), _str(data["colour"]), _str(data["cell"]))
        if kind == "place":
            return Place(_str(data["cell"]))
        if kind == "build":
            return Build(_opt_str(data["card"]))
        if kind == "use" and data["bonus"] in BONUS_SHORT:
            return UseBonus(str(data["bonus"]))
        if kind == "end":
            return EndTurn()
        if kind == "back":
            return Back()
    except (KeyError, TypeError) as exc:
        raise ParseError(f"Not a Neotopia action: {dict(data)!r}", code="bad_json") from exc
    raise ParseError(f"Not a Neotopia action: {dict(data)!r}", code="bad_json")


def _typed(cls: type[T], data: Mapping[str, Any]) -> T:
    action = action_from_json(data)
    if not isinstance(action, cls):
        raise ParseError(f"Not a {cls.__name__} action: {dict(data)!r}", code="bad_json")
    return action


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("expected a string")
    return value


def _opt_str(value: Any) -> str | None:
    return None if value is None else _str(value)


def parse_text(text: str, data: DataSet) -> NeoAction:
    """Read a typed action (not yet checked against the rules)."""
    if len(text) > MAX_TEXT:
        raise ParseError(f"That is {len(text)} characters long; an action is at most "
                         f"{MAX_TEXT}.", code="too_long", length=len(text), limit=MAX_TEXT)
    words = text.replace(":", " : ").replace(">", " ").split()
    if not words:
        raise ParseError(f"Nothing to read. Write {FORMS_HELP}.", code="empty")
    low = [w.lower() for w in words]
    head = low[0]
    cards = {c.upper(): c for c in data.cards}
    cells = {c.upper(): c for c in data.cells}
    if head in ("draw", "pioche", "piocher") and len(low) == 2:
        what = words[1].upper()
        if low[1] in ("deck", "paquet", "pile"):
            return Draw(None)
        if what in cards:
            return Draw(cards[what])
        raise ParseError(f"{words[1]!r} is not a project card: write draw C10 or draw deck.",
                         code="not_a_card", verb="draw", typed=words[1][:20])
    if head in ("build", "construire", "construis") and len(low) == 2:
        if low[1] in ("none", "aucun", "rien", "nothing"):
            return Build(None)
        if words[1].upper() in cards:
            return Build(cards[words[1].upper()])
        raise ParseError(f"{words[1]!r} is not a project card: write build C44 or build none.",
                         code="not_a_card", verb="build", typed=words[1][:20])
    if head in ("use", "utiliser", "utilise") and len(low) >= 2:
        word = "_".join(low[1:]).replace("privée", "").replace("private_", "").strip("_")
        word = {"initiative_privee": "initiative"}.get(word, word)
        if word in BONUS_WORDS:
            return UseBonus(BONUS_WORDS[word])
        raise ParseError(f"{' '.join(words[1:])!r} is not a bonus: use subsidy, automation, "
                         f"initiative or permits.", code="not_a_bonus",
                         typed=" ".join(words[1:])[:20])
    if len(low) == 1 and head in BONUS_WORDS:
        return UseBonus(BONUS_WORDS[head])
    if head in ("end", "fin") and low[1:] in ([], ["turn"], ["tour"], ["du", "tour"]):
        return EndTurn()
    if len(low) == 1 and head in ("back", "retour", "undo"):
        return Back()
    if len(low) == 1 and head in ("none", "skip"):
        return Build(None)
    if len(low) == 1 and words[0].upper() in cells:
        return Place(cells[words[0].upper()])
    sources = {m.id.upper(): m.id for m in data.manufactures}
    sources["RESERVE"] = "reserve"
    sources["RÉSERVE"] = "reserve"
    rest = [w for w in words[1:] if w != ":"]
    if words[0].upper() in sources and len(rest) == 1:
        colour = _colour(rest[0], data)
        return Take(sources[words[0].upper()], colour)
    if words[0].upper() in sources and len(rest) == 2:
        colour = _colour(rest[0], data)
        if rest[1].upper() not in cells:
            raise ParseError(f"{rest[1]!r} is not a cell: write the region letter and the "
                             f"number, as D11.", code="not_a_cell", typed=rest[1][:20])
        return Move(sources[words[0].upper()], colour, cells[rest[1].upper()])
    if words[0].upper() in sources:
        raise ParseError(f"Say which colour to take from {words[0].upper()}, as in "
                         f"{words[0].upper()}:P.", code="which_colour",
                         source=sources[words[0].upper()])
    raise ParseError(f"I could not read {text.strip()[:40]!r}. Write {FORMS_HELP}.",
                     code="unreadable", typed=text.strip()[:40])


def _colour(word: str, data: DataSet) -> str:
    ids = {c.upper(): c for c in data.colour_ids}
    if word.upper() in ids:
        return ids[word.upper()]
    colour = COLOUR_WORDS.get(word.lower())
    if colour is not None and colour in data.colour_ids:
        return colour
    raise ParseError(f"{word!r} is not a colour: use {', '.join(data.colour_ids)}.",
                     code="not_a_colour", typed=word[:20], colours=list(data.colour_ids))
