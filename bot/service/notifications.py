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

    @property
    def private(self) -> bool:
        return self.seat is not None


class Notifier(Protocol):
    async def deliver(self, notes: Sequence[Notification]) -> None:
        """Called after the commit, in order, under the table's lock: enqueue, don't dawdle."""
        ...


@dataclass
class MemoryNotifier:
    """Keeps every notification; the test and console transport."""

    notes: list[Notification] = field(default_factory=list)

    async def deliver(self, notes: Sequence[Notification]) -> None:
        self.notes.extend(notes)

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
