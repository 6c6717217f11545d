"""What the service says, as transport-agnostic values, and where it says it.

A front end receives ``Notification`` values through a ``Notifier`` and renders them
with ``bot.text.Renderer`` (Jinja2 templates per locale). The service never formats
a sentence itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class FileSpec:
    """An image a front end may attach: the view of ``seat`` (None: the public view),
    drawn by the game's renderer if it has one. ``kind`` is ``board`` or ``scores``."""

    kind: str
    seat: int | None = None


@dataclass(frozen=True)
class Notification:
    """One message for a table (``seat`` None) or privately for one seat.

    ``template`` names a Jinja2 template (``templates/<locale>/[<game>/]<template>.txt``);
    ``context`` holds plain JSON values (never another seat's secrets when ``seat`` is
    set, never any secret when it is None). ``user_id`` is the recipient seat's user,
    so a front end can DM without another lookup. ``slot``: notifications with the same
    non-empty slot supersede each other (a front end may edit one message in place).
    """

    table_id: int
    seat: int | None
    template: str
    context: Mapping[str, Any]
    game: str
    locale: str
    user_id: str | None = None
    files: tuple[FileSpec, ...] = ()
    slot: str | None = None
    version: int = 0
    fallback: str | None = None  # template to use when ``template`` has no file
    # Public news of a round still being played: a front end that gathers a round's
    # news into one post may hold it until a note without ``defer`` comes.
    defer: bool = False
    # The outbox row that carries this notification (0 when it was never stored), and
    # whether an earlier attempt may have sent it already (a crash in the middle).
    outbox_id: int = 0
    in_doubt: bool = False
    # The parts of this notification's message that went out already (a message sent in
    # several parts failed, or the process died, half-way), as the transport marked
    # them: a retry sends only the others.
    sent: tuple[str, ...] = ()

    @property
    def private(self) -> bool:
        return self.seat is not None

    def to_json(self) -> dict[str, Any]:
        """The stored form (an outbox row's payload); ``outbox_id`` is the row's own id."""
        return {
            "table_id": self.table_id, "seat": self.seat, "template": self.template,
            "context": dict(self.context), "game": self.game, "locale": self.locale,
            "user_id": self.user_id, "files": [[f.kind, f.seat] for f in self.files],
            "slot": self.slot, "version": self.version, "fallback": self.fallback,
            "defer": self.defer,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, outbox_id: int = 0,
                  table_id: int | None = None) -> Notification:
        return cls(
            table_id=int(data["table_id"] if table_id is None else table_id),
            seat=data["seat"], template=data["template"], context=data["context"],
            game=data["game"], locale=data["locale"], user_id=data.get("user_id"),
            files=tuple(FileSpec(k, s) for k, s in data.get("files", ())),
            slot=data.get("slot"), version=int(data.get("version", 0)),
            fallback=data.get("fallback"), defer=bool(data.get("defer", False)),
            outbox_id=outbox_id,
        )


@dataclass(frozen=True)
class Retry:
    """The transport could not send now: try again after ``after`` seconds."""

    after: float
    error: str


@dataclass(frozen=True)
class Failed:
    """The transport will never manage to send it (``error`` says why). ``expected``: a
    refusal that is part of the game's normal life and handled as such (a player who
    closed their DMs plays through ``/hand``), not a fault an operator should look at."""

    error: str
    expected: bool = False


HELD = "held"
SENT = "sent"
# What became of one notification: sent, held (public news kept for its round), or not.
Delivery = Retry | Failed | str


class Notifier(Protocol):
    """A transport. ``deliver`` receives a table's stored notifications in order (held
    public news first, then what is due), sends what it can and says, per notification
    (by ``outbox_id``), what became of it; a notification it does not mention is sent.
    ``inline`` transports are called at once after each commit (tests, the console);
    the others by the delivery worker, off the table's lock."""

    inline: bool

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]: ...


@dataclass
class MemoryNotifier:
    """Keeps every notification; the test and console transport."""

    notes: list[Notification] = field(default_factory=list)
    inline: bool = True

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        self.notes.extend(notes)
        return {}

    def to_table(self, table_id: int | None = None) -> list[Notification]:
        return [
            n for n in self.notes if n.seat is None and table_id in (None, n.table_id)
        ]

    def to_seat(self, seat: int, table_id: int | None = None) -> list[Notification]:
        return [
            n for n in self.notes if n.seat == seat and table_id in (None, n.table_id)
        ]

    def templates(self, seat: int | None = None, *, table: bool = False) -> list[str]:
        if table:
            return [n.template for n in self.notes if n.seat is None]
        if seat is None:
            return [n.template for n in self.notes]
        return [n.template for n in self.notes if n.seat == seat]

    def clear(self) -> None:
        self.notes.clear()
