"""The mutable state of a Neotopia table and its JSON form (exact inverses).

The data set is not copied into the state: the state names it (``options["dataset"]``)
and ``data`` loads it, cached, so a saved game stays small and replays exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from engine.core.jsoncopy import json_copy
from engine.neotopia.data import DataSet, dataset

# What a seat is deciding now (template keys of ``Pending``).
STAGES = ("start", "turn", "place", "build", "subsidy", "automation", "initiative",
          "permits", "over")


@dataclass
class NeotopiaState:
    seats: int
    options: dict[str, Any]
    rng: int
    first: int
    phase: str  # "start" | "play" | "over"
    board: dict[str, str]  # cell -> colour id
    cell_tokens: dict[str, str]  # bonus cell -> token kind, face up until covered
    piles: dict[str, list[str]]  # region -> tokens, top first (only the top is public)
    manufactures: dict[str, list[str]]
    stack: list[str]  # tile ids, top first; the flag tile is last
    on_top: list[str]  # elements waiting on the top tile
    centre: list[str]  # the flag tile's elements once it is turned
    discarded: list[str]  # turned tiles, in order
    removed: list[str]  # tiles put back in the box (2-3 players)
    reserve: dict[str, int]
    deck: list[str]  # top first
    offer: list[str]
    hands: list[list[str]]
    tokens: list[list[str]]  # bonus tokens held, in the order obtained
    used_tokens: list[list[str]]
    scores: list[dict[str, int]]  # per seat, per region: 20 x laps + space
    built: list[dict[str, Any]]  # {"seat", "card", "region"}, oldest first
    current: int
    round: int
    actions_left: int
    bonus_used: bool
    stage: str
    bonus: str | None = None  # the bonus being spent by the current stage
    taking: dict[str, str] | None = None  # {"source", "colour"} chosen, to place
    return_stage: str = "turn"  # where ``back`` goes from the place stage
    draws_left: int = 0
    build_options: list[str] = field(default_factory=list)
    build_at: str | None = None
    flag_turned: bool = False
    centre_used: bool = False
    final_round: int | None = None
    end_reason: str | None = None
    idle_turns: int = 0
    acted: bool = False  # the current seat did something this turn
    last: dict[str, Any] | None = None
    group_points: list[dict[str, int]] | None = None

    @property
    def data(self) -> DataSet:
        return dataset(str(self.options["dataset"]))

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def colour_of(self, seat: int) -> str:
        return self.data.colour_ids[seat]

    def seat_of(self, colour: str) -> int | None:
        ids = self.data.colour_ids
        i = ids.index(colour) if colour in ids else -1
        return i if 0 <= i < self.seats else None

    def last_project(self, region: str) -> str | None:
        for entry in reversed(self.built):
            if entry["region"] == region:
                return str(entry["card"])
        return None

    def to_json(self) -> dict[str, Any]:
        return {name: json_copy(getattr(self, name)) for name in _FIELDS}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> NeotopiaState:
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown state keys: {sorted(unknown)}")
        values = {k: json_copy(v) for k, v in data.items()}
        # JSON object keys are strings already; ints stay ints through json.
        return cls(**values)

    def copy(self) -> NeotopiaState:
        return NeotopiaState.from_json(self.to_json())


_FIELDS = tuple(f.name for f in fields(NeotopiaState))
