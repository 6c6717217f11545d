"""The tiles, city boards and scoring tables, read once from ``data/quadropolis.json``.

The data is transcribed from the project's shared component data; each tile keeps the
confidence of its fields (``official``, ``transcribed``, ``inferred``, ``reconstructed``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final, Literal

Mode = Literal["classic", "expert"]
MODES: Final = ("classic", "expert")

TYPES: Final = (
    "tower_block", "shop", "public_service", "park", "factory", "harbor", "office", "monument",
)
STACKABLE: Final = frozenset({"tower_block", "office"})

_DATA: Final[dict[str, Any]] = json.loads(
    (Path(__file__).resolve().parent / "data" / "quadropolis.json").read_text(encoding="utf-8")
)


@dataclass(frozen=True)
class Tile:
    id: str
    round: int
    modes: tuple[str, ...]
    type: str
    vp: int
    inhabitants: int  # gained when placed
    energy: int
    cost_inhabitants: int  # activation cost
    cost_energy: int
    absorbs: int  # pollution absorbed (parks, not squares)
    mark: str  # "none", "3-4" or "4"
    face_up_with: tuple[int, ...]
    mayor: bool
    square: bool
    confidence: tuple[tuple[str, str], ...]

    @property
    def stackable(self) -> bool:
        return self.type in STACKABLE

    def face_up(self, seats: int) -> bool:
        return seats in self.face_up_with

    def to_json(self) -> dict[str, Any]:
        """The face of the tile, as every view shows it."""
        return {
            "id": self.id,
            "type": self.type,
            "floors": 1 if self.stackable else 0,
            "vp": self.vp,
            "inhabitants": self.inhabitants,
            "energy": self.energy,
            "cost": {"inhabitants": self.cost_inhabitants, "energy": self.cost_energy},
            "mayor": self.mayor,
            "square": self.square,
            "mark": self.mark,
            "absorbs": self.absorbs,
        }


def _tile(raw: dict[str, Any]) -> Tile:
    cost = raw.get("activation_cost", {})
    return Tile(
        id=str(raw["id"]),
        round=int(raw["round"]),
        modes=tuple(raw["modes"]),
        type=str(raw["type"]),
        vp=int(raw["printed_vp"]),
        inhabitants=int(raw["produces"]["inhabitants"]),
        energy=int(raw["produces"]["energy"]),
        cost_inhabitants=int(cost.get("inhabitants", 0)),
        cost_energy=int(cost.get("energy", 0)),
        absorbs=int(raw["absorbs_pollution"]),
        mark=str(raw["player_mark"]),
        face_up_with=tuple(int(n) for n in raw["face_up_with"]),
        mayor=bool(raw["mayor_symbol"]),
        square=bool(raw.get("square", False)),
        confidence=tuple(sorted((str(k), str(v)) for k, v in raw["confidence"].items())),
    )


TILES: Final[dict[str, Tile]] = {t.id: t for t in (_tile(raw) for raw in _DATA["tiles"])}
SQUARE_FOR: Final[dict[str, str]] = dict(_DATA["squares"]["replacements"])
# Each tile's face, made once: a view shows up to a few hundred faces (issue 25).
_FACES: Final[dict[str, dict[str, Any]]] = {i: t.to_json() for i, t in TILES.items()}


def face(tile_id: str) -> dict[str, Any]:
    """``TILES[tile_id].to_json()``, a new dict each time (the caller may change it), made
    by copying the face made once: two flat copies (the tile's fields, then its cost)."""
    out = _FACES[tile_id].copy()
    out["cost"] = out["cost"].copy()
    return out


def rounds(mode: str) -> int:
    return 4 if mode == "classic" else 5


@cache
def round_tiles(mode: str, squares: bool, round_no: int) -> tuple[str, ...]:
    """The 25 tile ids of a round, in data order (the deal shuffles them)."""
    ids = [str(i) for i in _DATA["rounds"][mode][str(round_no)]]
    if squares:
        ids = [SQUARE_FOR.get(i, i) for i in ids]
    return tuple(ids)


def all_tiles(mode: str, squares: bool) -> tuple[str, ...]:
    return tuple(i for r in range(1, rounds(mode) + 1) for i in round_tiles(mode, squares, r))


@dataclass(frozen=True)
class CityBoard:
    rows: int
    cols: int
    districts: tuple[tuple[int, ...], ...]
    space_numbers: tuple[tuple[int, ...], ...] | None  # expert only

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "cols": self.cols,
            "districts": [list(r) for r in self.districts],
            "space_numbers": None
            if self.space_numbers is None
            else [list(r) for r in self.space_numbers],
        }


def _board(raw: dict[str, Any]) -> CityBoard:
    numbers = raw.get("space_numbers")
    return CityBoard(
        rows=int(raw["rows"]),
        cols=int(raw["cols"]),
        districts=tuple(tuple(int(x) for x in row) for row in raw["districts"]),
        space_numbers=None if numbers is None else tuple(tuple(int(x) for x in r) for r in numbers),
    )


BOARDS: Final[dict[str, CityBoard]] = {
    "classic": _board(_DATA["city_board_classic"]),
    "expert": _board(_DATA["city_board_expert"]),
}


@dataclass(frozen=True)
class Tables:
    """One mode's scoring tables, as lists indexed by count (index 0 scores 0)."""

    max_floors: int
    max_customers: int
    tower: tuple[int, ...]
    shop: tuple[int, ...]
    public_service: tuple[int, ...]
    park: tuple[int, ...]
    factory: dict[str, int]
    harbor: tuple[int, ...]
    office: tuple[tuple[int, ...], ...]  # [group size 1..5+][floors], index 0 unused
    monument: dict[str, int]


def _by_count(raw: dict[str, Any]) -> tuple[int, ...]:
    top = max(int(k) for k in raw)
    return tuple(int(raw.get(str(k), 0)) for k in range(top + 1))


def _tables(mode: str) -> Tables:
    raw = _DATA["scoring"][mode]
    park = raw.get("park_by_adjacent_tower_blocks_and_offices") or raw[
        "park_by_adjacent_tower_blocks"
    ]
    office: tuple[tuple[int, ...], ...] = ()
    monument: dict[str, int] = {}
    if mode == "expert":
        rows = raw["office_by_group_size_then_floors"]
        office = (
            (0,) * 6,
            *(
                (0, *(int(rows[key][str(f)]) for f in range(1, 6)))
                for key in ("1", "2", "3", "4", "5+")
            ),
        )
        monument = {str(k): int(v) for k, v in raw["monument_per_adjacent"].items()}
    tower = _by_count(raw["tower_block_by_floors"])
    shop = _by_count(raw["shop_by_customers"])
    return Tables(
        max_floors=len(tower) - 1,
        max_customers=len(shop) - 1,
        tower=tower,
        shop=shop,
        public_service=_by_count(raw["public_service_by_districts_with_one"]),
        park=_by_count(park),
        factory={str(k): int(v) for k, v in raw["factory_per_adjacent"].items()},
        harbor=_by_count(raw["harbor_by_run_length"]),
        office=office,
        monument=monument,
    )


TABLES: Final[dict[str, Tables]] = {m: _tables(m) for m in MODES}
