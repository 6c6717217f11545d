"""The pieces of Skybridge: colours, kinds, storeys and the set each colour owns.

The rulebook (rules/skybridge.fr.txt) lists 11 pieces per colour: one bridge, four
3-storey blocks, four 2-storey blocks and two roofs, in four colours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Kind = Literal["block3", "block2", "bridge", "roof"]

KINDS: Final[tuple[Kind, ...]] = ("block3", "block2", "bridge", "roof")
BLOCKS: Final[tuple[Kind, ...]] = ("block3", "block2")

# Storeys a piece adds to every tower it stands on; a roof only closes the tower.
STOREYS: Final[dict[Kind, int]] = {"block3": 3, "block2": 2, "bridge": 1, "roof": 0}

PER_COLOUR: Final[dict[Kind, int]] = {"block3": 4, "block2": 4, "bridge": 1, "roof": 2}

# Seat i plays COLOURS[i]; in the 3-player game the last one is the fourth colour.
COLOURS: Final[tuple[str, ...]] = ("red", "yellow", "green", "blue")
LETTERS: Final[dict[str, str]] = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}

# The 3-player game gives every seat these blocks of the fourth colour (S6).
EXTRA_PER_SEAT: Final[dict[Kind, int]] = {"block3": 1, "block2": 1}


@dataclass(frozen=True, slots=True)
class Piece:
    kind: Kind
    colour: str

    @property
    def storeys(self) -> int:
        return STOREYS[self.kind]

    def to_json(self) -> list[str]:
        return [self.kind, self.colour]

    @classmethod
    def from_json(cls, data: list[str]) -> Piece:
        kind, colour = data
        if kind not in KINDS or colour not in COLOURS:
            raise ValueError(f"not a Skybridge piece: {data!r}")
        return cls(kind, colour)
