"""The mutable game state and its JSON form (exact inverses of each other)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.skybridge.board import Board
from engine.skybridge.pieces import KINDS, Kind


@dataclass(frozen=True)
class Slot:
    """One place in the turn rotation: a seat and the colour it plays there.

    ``colour`` is None in the 2-player ``choose_colour`` game, where the seat
    picks either of its colours each turn.
    """

    seat: int
    colour: str | None


@dataclass
class SkybridgeState:
    seats: int
    options: dict[str, bool]
    rng: int
    first: int
    board: Board
    supply: dict[str, dict[Kind, int]]
    # 3 players: the fourth-colour blocks each seat still holds (S6); empty otherwise.
    extra: list[dict[Kind, int]]
    # Index in the rotation of the slot to play; None once nobody can place.
    turn: int | None
    # Rotation indices out for good (only with the ``elimination`` option).
    eliminated: list[int] = field(default_factory=list)
    last: dict[str, Any] | None = None

    @property
    def over(self) -> bool:
        return self.turn is None

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "options": dict(self.options),
            "rng": self.rng,
            "first": self.first,
            "board": self.board.to_json(),
            "supply": {c: dict(k) for c, k in self.supply.items()},
            "extra": [dict(e) for e in self.extra],
            "turn": self.turn,
            "eliminated": list(self.eliminated),
            "last": dict(self.last) if self.last is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SkybridgeState:
        return cls(
            seats=int(data["seats"]),
            options={str(k): bool(v) for k, v in data["options"].items()},
            rng=int(data["rng"]),
            first=int(data["first"]),
            board=Board.from_json(data["board"]),
            supply={c: _kinds(k) for c, k in data["supply"].items()},
            extra=[_kinds(e) for e in data["extra"]],
            turn=None if data["turn"] is None else int(data["turn"]),
            eliminated=[int(i) for i in data["eliminated"]],
            last=dict(data["last"]) if data["last"] is not None else None,
        )

    def copy(self) -> SkybridgeState:
        return SkybridgeState.from_json(self.to_json())


def _kinds(data: Mapping[str, Any]) -> dict[Kind, int]:
    out: dict[Kind, int] = {}
    for kind in KINDS:
        if kind in data:
            out[kind] = int(data[kind])
    if set(data) - set(out):
        raise ValueError(f"unknown piece kinds: {sorted(set(data) - set(out))}")
    return out
