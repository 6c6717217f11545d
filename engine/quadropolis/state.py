"""The mutable game state and its JSON form (exact inverses of each other).

Coordinates are 1-based everywhere: ``(row, col)`` from the top left, on the 5x5
construction site and in a city (4x4 classic, 4x5 expert).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.jsoncopy import json_copy
from engine.quadropolis.tiles import BOARDS, TABLES, TILES, CityBoard, Tables, Tile, rounds

SITE = 5


@dataclass
class Player:
    # city[r][c] is the stack on that space, tile ids bottom to top ([] = empty space).
    city: list[list[list[str]]]
    inhabitants: int = 0
    energy: int = 0
    # Classic: the numbers of this player's architects not yet played this round.
    architects: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            # The stacks copied by hand, not by copy.deepcopy: every save (issue 25).
            "city": [[list(stack) for stack in row] for row in self.city],
            "inhabitants": self.inhabitants,
            "energy": self.energy,
            "architects": list(self.architects),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Player:
        return cls(
            # An empty space (most of them) skips the inner comprehension (issue 25).
            city=[[[str(t) for t in stack] if stack else [] for stack in row]
                  for row in data["city"]],
            inhabitants=int(data["inhabitants"]),
            energy=int(data["energy"]),
            architects=[int(n) for n in data["architects"]],
        )

    def stacks(self) -> list[tuple[int, int, list[str]]]:
        return [
            (r + 1, c + 1, stack)
            for r, row in enumerate(self.city)
            for c, stack in enumerate(row)
            if stack
        ]


@dataclass
class State:
    seats: int
    mode: str
    squares: bool
    rng: int
    round: int
    turn: int  # 1..4: every player plays once per turn
    index: int  # position in this round's order, 0..seats-1
    phase: str  # "take", "place" or "over"
    first: int  # the seat that started this round
    mayor: int  # the seat holding the Mayor pawn
    site: list[list[str | None]]  # 5x5 tile ids, None for an empty space
    face_up: list[list[bool]]
    urbanist: tuple[int, int] | None
    slots: list[dict[str, Any]]  # {"slot", "architect", "seat"} in play order
    pool: dict[int, int]  # expert: architects still available by number
    players: list[Player]
    taken: dict[str, Any] | None = None  # {"seat", "architect", "slot", "tile"}
    box: list[str] = field(default_factory=list)  # tiles left on the site at a round's end
    discards: list[str] = field(default_factory=list)
    last: dict[str, Any] | None = None

    @property
    def board(self) -> CityBoard:
        return BOARDS[self.mode]

    @property
    def tables(self) -> Tables:
        return TABLES[self.mode]

    @property
    def rounds(self) -> int:
        return rounds(self.mode)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def to_play(self) -> int | None:
        if self.over:
            return None
        return (self.first + self.index) % self.seats

    def tile(self, tile_id: str) -> Tile:
        return TILES[tile_id]

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "mode": self.mode,
            "squares": self.squares,
            "rng": self.rng,
            "round": self.round,
            "turn": self.turn,
            "index": self.index,
            "phase": self.phase,
            "first": self.first,
            "mayor": self.mayor,
            "site": [list(row) for row in self.site],
            "face_up": [list(row) for row in self.face_up],
            "urbanist": None if self.urbanist is None else list(self.urbanist),
            "slots": [dict(s) for s in self.slots],
            "pool": {str(k): v for k, v in sorted(self.pool.items())},
            "players": [p.to_json() for p in self.players],
            "taken": None if self.taken is None else dict(self.taken),
            "box": list(self.box),
            "discards": list(self.discards),
            "last": json_copy(self.last),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        urbanist = data["urbanist"]
        return cls(
            seats=int(data["seats"]),
            mode=str(data["mode"]),
            squares=bool(data["squares"]),
            rng=int(data["rng"]),
            round=int(data["round"]),
            turn=int(data["turn"]),
            index=int(data["index"]),
            phase=str(data["phase"]),
            first=int(data["first"]),
            mayor=int(data["mayor"]),
            site=[[None if t is None else str(t) for t in row] for row in data["site"]],
            face_up=[[bool(f) for f in row] for row in data["face_up"]],
            urbanist=None if urbanist is None else (int(urbanist[0]), int(urbanist[1])),
            slots=[
                {"slot": str(s["slot"]), "architect": int(s["architect"]), "seat": int(s["seat"])}
                for s in data["slots"]
            ],
            pool={int(k): int(v) for k, v in data["pool"].items()},
            players=[Player.from_json(p) for p in data["players"]],
            taken=None if data["taken"] is None else dict(data["taken"]),
            box=[str(t) for t in data["box"]],
            discards=[str(t) for t in data["discards"]],
            last=json_copy(data["last"]),
        )

    def copy(self) -> State:
        """``State.from_json(self.to_json())``, field by field without the JSON in between
        (issue 25): the values already have the types ``from_json`` gives them, and the
        pool comes out sorted by number, as the JSON writes it."""
        return State(
            seats=self.seats,
            mode=self.mode,
            squares=self.squares,
            rng=self.rng,
            round=self.round,
            turn=self.turn,
            index=self.index,
            phase=self.phase,
            first=self.first,
            mayor=self.mayor,
            site=[list(row) for row in self.site],
            face_up=[list(row) for row in self.face_up],
            urbanist=self.urbanist,
            slots=[{"slot": s["slot"], "architect": s["architect"], "seat": s["seat"]}
                   for s in self.slots],
            pool=dict(sorted(self.pool.items())),
            players=[
                Player([[list(stack) for stack in row] for row in p.city], p.inhabitants,
                       p.energy, list(p.architects))
                for p in self.players
            ],
            taken=None if self.taken is None else dict(self.taken),
            box=list(self.box),
            discards=list(self.discards),
            last=json_copy(self.last),
        )
