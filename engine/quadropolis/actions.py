"""The actions of a turn, with their JSON and text forms, and the parser.

A turn is two decisions, so that no menu offers more than 25 choices at once:

1. **take**: put an architect at a slot of the construction site. Text ``A3@L4``:
   architect 3 at the left end of site row 4, so it takes the 3rd space of that row
   (L141). Slots: ``L1``-``L5`` / ``R1``-``R5`` at the left / right end of row 1-5,
   ``T1``-``T5`` / ``B1``-``B5`` at the top / bottom end of column 1-5. The menu groups
   the choices by architect (the text before ``@``, ``A1`` to ``A5``): at most 5 groups
   of 20 slots.
2. **place** the tile taken, if any (an empty space or a face-down tile gives nothing
   and ends the turn): ``r2c3`` puts it on row 2, column 3 of your city (on top of the
   stack there when it builds a floor); ``discard`` throws it away (it gives nothing).

Case and spaces do not matter: ``a3 @ l4``, ``3@L4``, ``R2C3``, ``r2 c3`` and ``2,3``
are read too. A typed text over :data:`MAX_TEXT` characters is refused at once with a
ParseError (``too_long``); the parser reads each character a bounded number of times.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.core.errors import ParseError

MAX_TEXT: Final = 200
SIDES: Final = ("T", "B", "L", "R")
SIDE_NAMES: Final = {"T": "top", "B": "bottom", "L": "left", "R": "right"}
SLOTS: Final = tuple(f"{side}{n}" for side in SIDES for n in range(1, 6))
FORMS_HELP: Final = (
    "take with architect@slot (A3@L4: architect 3 at the left end of site row 4; "
    "slots L1-L5, R1-R5, T1-T5, B1-B5), then place with r2c3 (row 2, column 3 of "
    "your city) or discard"
)


@dataclass(frozen=True)
class Take:
    """Put architect ``architect`` at ``slot`` and take the tile it points at."""

    architect: int
    slot: str

    def text(self) -> str:
        return f"A{self.architect}@{self.slot}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "take", "architect": self.architect, "slot": self.slot}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Take:
        action = from_json(data)
        if not isinstance(action, Take):
            raise ParseError(f"Not a take action: {dict(data)!r}", code="bad_json")
        return action


@dataclass(frozen=True)
class Place:
    """Put the taken tile on ``(row, col)`` of your city (a new floor if a stack is there)."""

    row: int
    col: int

    def text(self) -> str:
        return f"r{self.row}c{self.col}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "place", "row": self.row, "col": self.col}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Place:
        action = from_json(data)
        if not isinstance(action, Place):
            raise ParseError(f"Not a place action: {dict(data)!r}", code="bad_json")
        return action


@dataclass(frozen=True)
class Discard:
    """Throw the taken tile away: it gives nothing (L169)."""

    def text(self) -> str:
        return "discard"

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard"}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Discard:
        action = from_json(data)
        if not isinstance(action, Discard):
            raise ParseError(f"Not a discard action: {dict(data)!r}", code="bad_json")
        return action


QAction = Take | Place | Discard


def from_json(data: Mapping[str, Any]) -> QAction:
    try:
        kind = data.get("type")
        if kind == "take":
            return make_take(int(data["architect"]), str(data["slot"]))
        if kind == "place":
            return make_place(int(data["row"]), int(data["col"]))
        if kind == "discard":
            return Discard()
    except (KeyError, TypeError, ValueError) as exc:
        raise ParseError(f"Not a Quadropolis action: {dict(data)!r}", code="bad_json") from exc
    raise ParseError(f"Not a Quadropolis action: {dict(data)!r}", code="bad_json")


def make_take(architect: int, slot: str) -> Take:
    if not 1 <= architect <= 5:
        raise ParseError(
            f"There is no architect {architect}: they are numbered 1 to 5 (1 to 4 in classic).",
            code="bad_architect", architect=architect,
        )
    if slot not in SLOTS:
        raise ParseError(
            f"There is no slot {slot!r}: use L1-L5, R1-R5 (ends of the site's rows) or "
            "T1-T5, B1-B5 (ends of its columns).",
            code="bad_slot", slot=slot,
        )
    return Take(architect, slot)


def make_place(row: int, col: int) -> Place:
    if not (1 <= row <= 4 and 1 <= col <= 5):
        raise ParseError(
            f"There is no space r{row}c{col}: your city has rows 1-4 and columns 1-4 "
            "(1-5 in expert).",
            code="bad_space", row=row, col=col,
        )
    return Place(row, col)


_DISCARD_WORDS: Final = frozenset(
    {"discard", "d", "defausser", "défausser", "defausse", "défausse"}
)


def parse(text: str) -> QAction:
    """Read a typed action; raises ParseError saying what was expected."""
    if len(text) > MAX_TEXT:
        raise ParseError(
            f"That is {len(text)} characters long; an action is at most {MAX_TEXT}.",
            code="too_long", limit=MAX_TEXT, length=len(text),
        )
    compact = "".join(text.split()).lower()
    if not compact:
        raise ParseError(f"Type an action: {FORMS_HELP}.", code="empty")
    if compact in _DISCARD_WORDS:
        return Discard()
    if "@" in compact:
        head, _, slot = compact.partition("@")
        if head.startswith("a"):
            head = head[1:]
        if not (len(head) == 1 and head.isascii() and head.isdigit()):
            raise ParseError(
                f"Before @ write the architect, A1 to A5, as in A3@L4, not {head!r}.",
                code="bad_architect_text", typed=head[:20],
            )
        side, number = slot[:1].upper(), slot[1:]
        if side not in SIDES or not (len(number) == 1 and number.isascii() and number.isdigit()):
            raise ParseError(
                f"After @ write a slot: L1-L5, R1-R5, T1-T5 or B1-B5, not {slot[:20]!r}.",
                code="bad_slot", slot=slot[:20],
            )
        return make_take(int(head), side + number)
    row_col = _row_col(compact)
    if row_col is not None:
        return make_place(*row_col)
    shown = text.strip()
    shown = shown if len(shown) <= 30 else shown[:30] + "…"
    raise ParseError(f"I could not read {shown!r}. Write {FORMS_HELP}.", code="unreadable")


def _row_col(compact: str) -> tuple[int, int] | None:
    """``r2c3`` or ``2,3`` (row, then column), else None."""
    if len(compact) == 4 and compact[0] == "r" and compact[2] == "c":
        digits = compact[1] + compact[3]
    elif len(compact) == 3 and compact[1] in ",;/-":
        digits = compact[0] + compact[2]
    elif len(compact) == 2:
        digits = compact
    else:
        return None
    if not digits.isascii() or not digits.isdigit():
        return None
    return int(digits[0]), int(digits[1])
