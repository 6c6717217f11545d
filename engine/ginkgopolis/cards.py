"""Card data, loaded once from ``data/cards.json`` (see its ``_about`` and confidences)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

COLORS = ("B", "R", "Y")
COLOR_ITEM = {"R": "res", "B": "tile", "Y": "sp"}
TRIGGERS = ("exploit", "urbanize", "construct")
LETTERS = "ABCDEFGHIJKL"


@dataclass(frozen=True)
class Reward:
    res: int = 0
    tile: int = 0
    sp: int = 0


@dataclass(frozen=True)
class Character:
    id: int
    set: int
    color: str
    start: Reward
    trigger: str
    reward: Reward
    reconstructed: bool


@dataclass(frozen=True)
class BuildingCard:
    code: str
    color: str
    number: int
    trigger: str | None
    reward: Reward
    endgame: dict[str, Any] | None


def _reward(data: dict[str, int]) -> Reward:
    unknown = set(data) - {"res", "tile", "sp"}
    if unknown:
        raise ValueError(f"unknown reward keys in cards.json: {sorted(unknown)}")
    return Reward(res=data.get("res", 0), tile=data.get("tile", 0), sp=data.get("sp", 0))


def _load() -> tuple[
    dict[int, Character], dict[str, BuildingCard], dict[int, int], dict[str, tuple[int, int]]
]:
    raw = json.loads((Path(__file__).parent / "data" / "cards.json").read_text(encoding="utf-8"))
    chars = {
        c["id"]: Character(
            id=c["id"],
            set=c["set"],
            color=c["color"],
            start=_reward(c["start"]),
            trigger=c["trigger"],
            reward=_reward(c["reward"]),
            reconstructed=c["confidence"].startswith("RECONSTRUCTED"),
        )
        for c in raw["characters"]
    }
    buildings = {
        c["card"]: BuildingCard(
            code=c["card"],
            color=c["color"],
            number=c["number"],
            trigger=c.get("trigger"),
            reward=_reward(c.get("reward", {})),
            endgame=c.get("endgame"),
        )
        for c in raw["building_cards"]
    }
    per_player = {int(k): v for k, v in raw["resources_per_player"].items()}
    tokens = {k: (v[0], v[1]) for k, v in raw["starting_tokens"].items()}
    return chars, buildings, per_player, tokens


CHARACTERS, BUILDING_CARDS, RESOURCES_PER_PLAYER, STARTING_TOKENS = _load()
ALL_TILES: tuple[str, ...] = tuple(f"{c}{n}" for c in COLORS for n in range(1, 21))
STARTING_TILES: tuple[str, ...] = tuple(f"{c}{n}" for c in COLORS for n in (1, 2, 3))


class _TileNumbers(dict[str, int]):
    """``tile_number`` of every tile met, read from its name once (the menus' hot path)."""

    def __missing__(self, tile: str) -> int:
        number = self[tile] = int(tile[1:])
        return number


TILE_NUMBERS = _TileNumbers()


def is_urbanization(card: str) -> bool:
    return card in URBANIZATION_CARDS


# The Urbanization cards, one per letter (a set: one lookup, the resolution's hot path).
URBANIZATION_CARDS: frozenset[str] = frozenset(LETTERS)


def tile_color(tile: str) -> str:
    return tile[0]


def tile_number(tile: str) -> int:
    return int(tile[1:])
