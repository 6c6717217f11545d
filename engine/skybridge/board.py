"""The 3x3 board: nine towers, and where a piece of a given colour may go.

Foundations are numbered 1-9 row by row from the top-left. A tower is the stack
of pieces on one foundation, bottom first. A bridge is one piece that stands in
two stacks at once (S3), so it appears in both lists; each colour has a single
bridge, so its colour names it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from engine.skybridge.pieces import BLOCKS, Kind, Piece

SIDE: Final = 3
FOUNDATIONS: Final[tuple[int, ...]] = tuple(range(1, SIDE * SIDE + 1))


def row_col(foundation: int) -> tuple[int, int]:
    return divmod(foundation - 1, SIDE)


def adjacent(a: int, b: int) -> bool:
    """Orthogonal neighbours only: the rulebook forbids diagonal bridges."""
    (ra, ca), (rb, cb) = row_col(a), row_col(b)
    return abs(ra - rb) + abs(ca - cb) == 1


# Every pair a bridge could join, each once, smaller foundation first.
BRIDGE_SPANS: Final[tuple[tuple[int, int], ...]] = tuple(
    (a, b) for a in FOUNDATIONS for b in FOUNDATIONS if a < b and adjacent(a, b)
)


class Refusal(Exception):
    """Why a placement breaks a rule; ``code`` is stable, ``message`` is for players."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Board:
    __slots__ = ("_heights", "towers")

    def __init__(self, towers: list[list[Piece]] | None = None) -> None:
        self.towers: list[list[Piece]] = towers if towers is not None else [[] for _ in FOUNDATIONS]
        self._heights = [sum(p.storeys for p in t) for t in self.towers]

    def copy(self) -> Board:
        board = Board.__new__(Board)
        board.towers = [list(t) for t in self.towers]
        board._heights = list(self._heights)
        return board

    def tower(self, foundation: int) -> list[Piece]:
        return self.towers[foundation - 1]

    def height(self, foundation: int) -> int:
        return self._heights[foundation - 1]

    def top(self, foundation: int) -> Piece | None:
        tower = self.towers[foundation - 1]
        return tower[-1] if tower else None

    def roofed(self, foundation: int) -> bool:
        top = self.top(foundation)
        return top is not None and top.kind == "roof"

    def roof_colour(self, foundation: int) -> str | None:
        top = self.top(foundation)
        return top.colour if top is not None and top.kind == "roof" else None

    def pieces_placed(self) -> int:
        """One move places one piece; a bridge stands in two towers but is one piece."""
        in_towers = sum(len(t) for t in self.towers)
        return in_towers - sum(p.kind == "bridge" for t in self.towers for p in t) // 2

    def bridge_ends(self, colour: str) -> tuple[int, int] | None:
        bridge = Piece("bridge", colour)
        ends = [f for f, tower in enumerate(self.towers, 1) if bridge in tower]
        return (ends[0], ends[1]) if ends else None

    def open_for(self, foundation: int, colour: str) -> bool:
        """S1: a piece may rest only on a top that is not roofed and not its colour."""
        top = self.top(foundation)
        return top is None or (top.kind != "roof" and top.colour != colour)

    def lowest_for(self, colour: str) -> int | None:
        """S2: the height of the lowest tower on the whole board a block of ``colour`` may go on."""
        heights = [self.height(f) for f in FOUNDATIONS if self.open_for(f, colour)]
        return min(heights) if heights else None

    def check(self, colour: str, kind: Kind, at: tuple[int, ...]) -> None:
        """Raise Refusal unless a ``kind`` of ``colour`` may be placed at ``at``."""
        for f in at:
            if f not in FOUNDATIONS:
                raise Refusal("no_foundation", f"There is no foundation {f}: they are 1 to 9.")
        if kind == "bridge":
            self._check_bridge(colour, at)
            return
        if len(at) != 1:
            raise Refusal("one_foundation", "That piece goes on one foundation.")
        (f,) = at
        self._check_rests_on(colour, f)
        if kind == "roof" and not self.tower(f):
            raise Refusal(
                "roof_on_empty", f"A roof needs a tower under it: foundation {f} is empty."
            )
        if kind in BLOCKS:
            lowest = self.lowest_for(colour)
            if self.height(f) != lowest:
                choices = ", ".join(str(g) for g in self.lowest_open(colour))
                raise Refusal(
                    "not_lowest",
                    f"A block goes on the lowest tower it may rest on: height {lowest} "
                    f"(foundation {choices}), not foundation {f} at height {self.height(f)}.",
                )

    def lowest_open(self, colour: str) -> list[int]:
        lowest = self.lowest_for(colour)
        return [f for f in FOUNDATIONS if self.open_for(f, colour) and self.height(f) == lowest]

    def _check_rests_on(self, colour: str, f: int) -> None:
        top = self.top(f)
        if top is None:
            return
        if top.kind == "roof":
            raise Refusal("roofed", f"Foundation {f} has a roof: nothing more goes on it.")
        if top.colour == colour:
            raise Refusal(
                "same_colour",
                f"A {colour} piece may not rest on a {colour} piece (top of foundation {f}).",
            )

    def _check_bridge(self, colour: str, at: tuple[int, ...]) -> None:
        if len(at) != 2 or at[0] == at[1]:
            raise Refusal("bridge_ends", "A bridge joins two different foundations.")
        a, b = at
        if not adjacent(a, b):
            raise Refusal(
                "not_adjacent", f"Foundations {a} and {b} are not side by side (no diagonals)."
            )
        for f in at:
            if not self.tower(f):
                raise Refusal("bridge_on_empty", f"A bridge needs two towers: {f} is empty.")
            self._check_rests_on(colour, f)
        if self.height(a) != self.height(b):
            raise Refusal(
                "unequal",
                f"A bridge lies level: towers {a} and {b} have heights "
                f"{self.height(a)} and {self.height(b)}.",
            )
        top_a, top_b = self.top(a), self.top(b)
        if top_a is not None and top_a.kind == "bridge" and top_a == top_b:
            raise Refusal(
                "on_bridge",
                f"A bridge may not lie exactly on the {top_a.colour} bridge {a}-{b}.",
            )

    def allows(self, colour: str, kind: Kind, at: tuple[int, ...]) -> bool:
        try:
            self.check(colour, kind, at)
        except Refusal:
            return False
        return True

    def spots(self, colour: str, kind: Kind) -> Iterator[tuple[int, ...]]:
        """Every place a ``kind`` of ``colour`` may go now, in a stable order."""
        if kind == "bridge":
            # The same conditions as _check_bridge, without building refusals: this
            # runs for every move of every playout (a property test keeps them equal).
            heights = self._heights
            for a, b in BRIDGE_SPANS:
                if heights[a - 1] != heights[b - 1] or not heights[a - 1]:
                    continue
                top_a, top_b = self.towers[a - 1][-1], self.towers[b - 1][-1]
                if (
                    top_a.kind != "roof"
                    and top_b.kind != "roof"
                    and top_a.colour != colour
                    and top_b.colour != colour
                    and not (top_a.kind == "bridge" and top_a == top_b)
                ):
                    yield (a, b)
        elif kind in BLOCKS:
            yield from ((f,) for f in self.lowest_open(colour))
        else:
            yield from ((f,) for f in FOUNDATIONS if self.tower(f) and self.open_for(f, colour))

    def place(self, colour: str, kind: Kind, at: tuple[int, ...]) -> None:
        """Put the piece on; the caller has checked it."""
        piece = Piece(kind, colour)
        for f in at:
            self.towers[f - 1].append(piece)
            self._heights[f - 1] += piece.storeys

    def to_json(self) -> list[list[list[str]]]:
        return [[p.to_json() for p in t] for t in self.towers]

    @classmethod
    def from_json(cls, data: list[list[list[str]]]) -> Board:
        if len(data) != len(FOUNDATIONS):
            raise ValueError("a Skybridge board has nine towers")
        return cls([[Piece.from_json(p) for p in t] for t in data])
