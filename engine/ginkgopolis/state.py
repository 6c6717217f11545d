"""The mutable game state and its JSON form.

Everything is plain data: lists, ints, strings. ``to_json`` and ``from_json`` are
exact inverses, which the conformance test checks at every step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.jsoncopy import json_copy

Cell = tuple[int, int]

# Player colours for screens and resources; building colours are B/R/Y, so these differ.
PLAYER_COLORS = ("green", "purple", "orange", "white", "black")
HAL_COLOR = "grey"


@dataclass
class Building:
    tiles: list[str]
    owner: int | None = None
    resources: int = 0
    site: bool = False

    @property
    def top(self) -> str:
        return self.tiles[-1]

    @property
    def height(self) -> int:
        return len(self.tiles)

    def to_json(self) -> dict[str, Any]:
        return {
            "tiles": list(self.tiles),
            "owner": self.owner,
            "res": self.resources,
            "site": self.site,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Building:
        return cls(list(d["tiles"]), d["owner"], d["res"], d["site"])


@dataclass
class Pick:
    card: str
    tile: str | None = None
    gain: str | None = None  # "res" or "tile": an Urbanization card played alone

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "tile": self.tile, "gain": self.gain}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Pick:
        return cls(card=d["card"], tile=d["tile"], gain=d["gain"])


@dataclass
class Player:
    total_res: int
    hand: list[str] = field(default_factory=list)
    tiles: list[str] = field(default_factory=list)
    screen_res: int = 0
    supply_res: int = 0
    sp: int = 0
    new_hand: int = 2
    characters: list[int] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    pick: Pick | None = None
    packet: list[int] = field(default_factory=list)
    draft_pick: int | None = None
    refill: list[str] = field(default_factory=list)
    refill_done: bool = False
    hal: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "total_res": self.total_res,
            "hand": list(self.hand),
            "tiles": list(self.tiles),
            "screen_res": self.screen_res,
            "supply_res": self.supply_res,
            "sp": self.sp,
            "new_hand": self.new_hand,
            "characters": list(self.characters),
            "kept": list(self.kept),
            "pick": self.pick.to_json() if self.pick else None,
            "packet": list(self.packet),
            "draft_pick": self.draft_pick,
            "refill": list(self.refill),
            "refill_done": self.refill_done,
            "hal": self.hal,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Player:
        # By position, in the order of the fields above: every state read back (issue 25)
        # reads every player, and a call by keywords costs it half again as much.
        pick = d["pick"]
        return cls(
            d["total_res"],
            list(d["hand"]),
            list(d["tiles"]),
            d["screen_res"],
            d["supply_res"],
            d["sp"],
            d["new_hand"],
            list(d["characters"]),
            list(d["kept"]),
            Pick(pick["card"], pick["tile"], pick["gain"]) if pick else None,
            list(d["packet"]),
            d["draft_pick"],
            list(d["refill"]),
            d["refill_done"],
            d["hal"],
        )


@dataclass
class State:
    """The whole game. ``players`` holds one entry per seat, plus Hal last in solitaire."""

    seats: int
    options: dict[str, Any]
    rng: int
    players: list[Player]
    board: dict[Cell, Building]
    tokens: dict[str, Cell]
    deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    supply: list[str] = field(default_factory=list)
    box: list[str] = field(default_factory=list)  # tiles removed at 2-3 players, never seen
    exhaustions: int = 0
    phase: str = "draft"  # draft | pick | resolve | over
    round: int = 1
    first: int = 0
    turn: int = 0  # during resolve: how many players have started resolving this round
    queue: list[dict[str, Any]] = field(default_factory=list)
    decision: dict[str, Any] | None = None
    end_triggered: bool = False
    revealed: list[dict[str, Any]] = field(default_factory=list)  # picks revealed this round
    hal_card: str | None = None
    draft_round: int = 0
    character_box: list[int] = field(default_factory=list)

    @property
    def solo(self) -> bool:
        return self.seats == 1

    @property
    def count(self) -> int:
        """Players in turn order, Hal included."""
        return len(self.players)

    def to_json(self) -> dict[str, Any]:
        board = self.board
        return {
            "seats": self.seats,
            "options": dict(self.options),
            "rng": self.rng,
            "players": [p.to_json() for p in self.players],
            # Building.to_json, inline: every save and every state read back (issue 25).
            "board": [[c[0], c[1], {"tiles": list(b.tiles), "owner": b.owner, "res": b.resources,
                                    "site": b.site}]
                      for c in sorted(board) for b in (board[c],)],
            "tokens": {k: [v[0], v[1]] for k, v in sorted(self.tokens.items())},
            "deck": list(self.deck),
            "discard": list(self.discard),
            "supply": list(self.supply),
            "box": list(self.box),
            "exhaustions": self.exhaustions,
            "phase": self.phase,
            "round": self.round,
            "first": self.first,
            "turn": self.turn,
            "queue": json_copy(self.queue),
            "decision": json_copy(self.decision),
            "end_triggered": self.end_triggered,
            "revealed": json_copy(self.revealed),
            "hal_card": self.hal_card,
            "draft_round": self.draft_round,
            "character_box": list(self.character_box),
        }

    def copy(self) -> State:
        """An independent copy, as ``from_json(to_json())`` gives, several times faster
        (the search copies the state for every simulation)."""
        return State(
            seats=self.seats,
            options=dict(self.options),
            rng=self.rng,
            # The constructors, not dataclasses.replace, which reads every field by name.
            players=[Player(total_res=p.total_res, hand=list(p.hand), tiles=list(p.tiles),
                            screen_res=p.screen_res, supply_res=p.supply_res, sp=p.sp,
                            new_hand=p.new_hand, characters=list(p.characters),
                            kept=list(p.kept),
                            pick=Pick(p.pick.card, p.pick.tile, p.pick.gain) if p.pick else None,
                            packet=list(p.packet), draft_pick=p.draft_pick,
                            refill=list(p.refill), refill_done=p.refill_done, hal=p.hal)
                     for p in self.players],
            board={c: Building(list(b.tiles), b.owner, b.resources, b.site)
                   for c, b in self.board.items()},
            tokens=dict(self.tokens),
            deck=list(self.deck),
            discard=list(self.discard),
            supply=list(self.supply),
            box=list(self.box),
            exhaustions=self.exhaustions,
            phase=self.phase,
            round=self.round,
            first=self.first,
            turn=self.turn,
            queue=json_copy(self.queue),
            decision=json_copy(self.decision),
            end_triggered=self.end_triggered,
            revealed=json_copy(self.revealed),
            hal_card=self.hal_card,
            draft_round=self.draft_round,
            character_box=list(self.character_box),
        )

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> State:
        return cls(
            seats=d["seats"],
            options=dict(d["options"]),
            rng=d["rng"],
            players=[Player.from_json(p) for p in d["players"]],
            # Building.from_json, inline (issue 25).
            board={(x, y): Building(list(b["tiles"]), b["owner"], b["res"], b["site"])
                   for x, y, b in d["board"]},
            tokens={k: (v[0], v[1]) for k, v in d["tokens"].items()},
            deck=list(d["deck"]),
            discard=list(d["discard"]),
            supply=list(d["supply"]),
            box=list(d["box"]),
            exhaustions=d["exhaustions"],
            phase=d["phase"],
            round=d["round"],
            first=d["first"],
            turn=d["turn"],
            queue=json_copy(d["queue"]),
            decision=json_copy(d["decision"]),
            end_triggered=d["end_triggered"],
            revealed=json_copy(d["revealed"]),
            hal_card=d["hal_card"],
            draft_round=d["draft_round"],
            character_box=list(d["character_box"]),
        )
