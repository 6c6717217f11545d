"""The protocol every game implements, and the values that cross it.

A game is a spec object (stateless); its state is a mutable value that ``apply``
changes in place. ``apply`` either succeeds completely or raises without touching
the state. ``view`` is the only thing renderers, templates and transports read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from engine.core.rng import Rng

JSON = dict[str, Any]
View = dict[str, Any]


@runtime_checkable
class Action(Protocol):
    """A small frozen value with a JSON form and a short text form a player could type."""

    def text(self) -> str: ...

    def to_json(self) -> JSON: ...


@dataclass(frozen=True)
class Pending:
    """Who must decide now, and what.

    ``waiting`` maps each seat that still owes a decision to a decision kind
    (a template key such as ``pick`` or ``token``). ``changeable`` holds seats that
    have submitted a simultaneous decision and may still change it.
    """

    waiting: Mapping[int, str]
    simultaneous: bool = False
    changeable: frozenset[int] = frozenset()

    @property
    def seats(self) -> frozenset[int]:
        return frozenset(self.waiting)


@dataclass(frozen=True)
class Event:
    """Something that happened, for the table log and notifications.

    ``to`` is None for a public event, or the only seat allowed to read it.
    ``data`` holds plain JSON values only; a public event never holds a secret.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: int | None = None

    def to_json(self) -> JSON:
        return {"kind": self.kind, "data": dict(self.data), "to": self.to}


@dataclass(frozen=True)
class ScoreLine:
    """One row of a score breakdown: a stable key, the points, optional detail values."""

    key: str
    points: int
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Standing:
    """A competitor's final result. ``seat`` is None for an automaton such as Hal.

    An engine knows no player's name: a seated standing is named ``seat_name(seat)``,
    which the bot replaces with the seat's name (the conformance checks hold it to that)."""

    seat: int | None
    name: str
    total: int
    lines: tuple[ScoreLine, ...]
    rank: int


def seat_name(seat: int) -> str:
    """The name an engine gives a seat in its results: numbered from 1, as players count."""
    return f"Seat {seat + 1}"


@dataclass(frozen=True)
class Outcome:
    standings: tuple[Standing, ...]

    @property
    def winners(self) -> tuple[Standing, ...]:
        return tuple(s for s in self.standings if s.rank == 1)

    def to_json(self) -> JSON:
        return {
            "standings": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "total": s.total,
                    "rank": s.rank,
                    "lines": [
                        {"key": ln.key, "points": ln.points, "detail": dict(ln.detail)}
                        for ln in s.lines
                    ],
                }
                for s in self.standings
            ]
        }


def rank_totals(totals: list[int]) -> list[int]:
    """Competition ranks (1, 1, 3 ...): equal totals share a rank, so a tie is a shared win."""
    return [1 + sum(1 for other in totals if other > t) for t in totals]


S = TypeVar("S")


class Game(Protocol[S]):
    name: str
    min_seats: int
    max_seats: int

    def default_options(self) -> JSON: ...

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> S: ...

    def pending(self, state: S) -> Pending: ...

    def legal_actions(self, state: S, seat: int) -> list[Action]: ...

    def apply(self, state: S, seat: int, action: Action) -> list[Event]: ...

    def view(self, state: S, seat: int | None) -> View: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def parse_action(self, state: S, seat: int, text: str) -> Action: ...

    def action_from_json(self, data: Mapping[str, Any]) -> Action: ...

    def state_to_json(self, state: S) -> JSON: ...

    def state_from_json(self, data: Mapping[str, Any]) -> S: ...

    def ai(self, kind: str) -> AIPlayer[S]: ...

    # Optional: ``news_key(state) -> Hashable``, what a piece of news belongs to (a
    # round, a player's turn). A front end tells one such unit in one post; without it
    # the public view's ``round`` is used (None: every move is news).
    # Optional: ``action_note(state, seat, action) -> str | None``, a short note key on a
    # legal action that would surprise a player (Quadropolis: ``takes_nothing``); front
    # ends show it beside the action's text, in the words of the ``option_note`` template.
    # Optional: ``default_ai: str``, the AI kind a front end plays by default when it is
    # not ``search`` (a game whose search misses its strength goals keeps ``greedy``).

    def scramble_hidden(self, state: S, seat: int | None, seed: int) -> S:
        """A copy of ``state`` with everything ``seat`` may not see re-dealt at random.

        The conformance test checks that ``view(state, seat)`` equals
        ``view(scramble_hidden(state, seat, ...), seat)``: no view may depend on a secret.
        """
        ...


S_contra = TypeVar("S_contra", contravariant=True)


class AIPlayer(Protocol[S_contra]):
    """An automated seat. It reads only what its seat may know, plus the public board."""

    name: str

    def choose(self, state: S_contra, seat: int, rng: Rng) -> Action: ...
