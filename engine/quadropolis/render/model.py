"""What the images draw, read once from a view: small frozen values.

The drawing modules never look into the view's dict themselves; ``read_board`` does,
so the view's JSON shape is known in this one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Cell = tuple[int, int]  # (row, column), 0-based from the top left


@dataclass(frozen=True)
class Tile:
    """A building tile's face: what it is and what is printed on it."""

    id: str
    kind: str
    inhabitants: int = 0
    energy: int = 0
    vp: int = 0
    mayor: bool = False
    square: bool = False


@dataclass(frozen=True)
class Stack:
    """One building of a city: a tile or a stack of floors of one kind."""

    kind: str
    floors: int
    top: Tile


@dataclass(frozen=True)
class SiteSpace:
    """A space of the construction site: a face-up tile, a face-down one, or nothing."""

    tile: Tile | None = None
    face_down: bool = False


@dataclass(frozen=True)
class Architect:
    """An architect placed at a slot of the construction site.

    ``side`` is "top", "bottom", "left" or "right"; ``index`` the column (top, bottom)
    or row (left, right) it faces, 0-based. ``owner`` is the seat that played it.
    """

    side: str
    index: int
    number: int
    owner: int | None


@dataclass(frozen=True)
class Player:
    seat: int
    color: str
    name: str
    inhabitants: int
    energy: int
    city: tuple[tuple[Stack | None, ...], ...]
    architects: tuple[int, ...] = ()  # classic: this player's architects still to play
    mayor: bool = False
    empty_spaces: int = 0


@dataclass(frozen=True)
class Taken:
    """A tile taken from the site, waiting to be placed by ``seat``."""

    seat: int
    architect: int
    slot: str
    tile: Tile


@dataclass(frozen=True)
class Board:
    mode: str  # "classic" or "expert"
    round: int
    rounds: int
    turn: int
    over: bool
    site: tuple[tuple[SiteSpace, ...], ...]
    architects: tuple[Architect, ...]
    urbanist: Cell | None
    players: tuple[Player, ...]
    first: int | None  # the seat that started this round
    current: int | None  # the seat to play now
    mayor: int | None = None  # the seat holding the Mayor (it starts the next round)
    pool: tuple[int, ...] = ()  # expert: the architects still in the shared pool
    taken: Taken | None = None
    last: str = ""  # a caption of the last move
    squares: bool = False
    districts: tuple[tuple[int, ...], ...] = field(default=())
    numbers: tuple[tuple[int, ...], ...] = field(default=())  # expert: space numbers

    @property
    def expert(self) -> bool:
        return self.mode == "expert"

    @property
    def city_rows(self) -> int:
        return len(self.districts)

    @property
    def city_cols(self) -> int:
        return len(self.districts[0])


@dataclass(frozen=True)
class Placed:
    """The final allocation on one building: activated or removed, and what is on it.

    ``inhabitants`` and ``energy`` count everything placed there: the activation cost,
    a shop's customers, the barrel a park absorbs (also counted in ``absorbs``).
    """

    active: bool
    inhabitants: int = 0
    energy: int = 0
    absorbs: int = 0


@dataclass(frozen=True)
class Allocation:
    """One player's final allocation, as the engine's outcome gives it."""

    spaces: dict[Cell, Placed]
    unplaced_inhabitants: int = 0
    unplaced_energy: int = 0
