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
    # Parts of the context made at send time from the table's state at ``version``
    # (``view``: the recipient's view, the public one for the table; ``options``: the
    # seat's legal moves): the outbox stores what identifies them, not their bytes, and
    # a notification superseded or never sent costs nothing (see ``bot/service/fill.py``).
    # A transport always receives them made (``fill`` empty).
    fill: tuple[str, ...] = ()

    @property
    def private(self) -> bool:
        return self.seat is not None

    def evolve(self, **changes: Any) -> Notification:
        """``dataclasses.replace(self, **changes)`` without its cost: that one builds the
        changed copy through ``__init__`` field by field (15 fields), and a note is
        copied three or four times between its action and its sending (issue 25: a
        sixth of an action's CPU). No field is derived, so a copy of the fields is the
        same value."""
        unknown = changes.keys() - self.__dict__.keys()
        if unknown:
            raise TypeError(f"Notification has no field {sorted(unknown)}")
        copy = object.__new__(Notification)
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(changes)
        return copy

    def to_json(self) -> dict[str, Any]:
        """The stored form (an outbox row's payload); ``outbox_id`` is the row's own id.

        Lean: what the row holds already (table, seat, game, version) and an event's data
        spread beside ``data`` are left out of the context and put back by ``from_json``
        (a row is written with every action: issue 25), and fields at their default are
        left out. The lean form is checked to read back the same, else the context is
        stored whole."""
        # A row whose table facts are filled at send time (``TABLE``) leaves the game and
        # the language out as well: the table says them.
        later = TABLE in self.fill
        stored: dict[str, Any] = {
            "table_id": self.table_id, "template": self.template, "version": self.version,
        }
        if self.seat is not None:  # a note to the table has no seat
            stored["seat"] = self.seat
        if not later:
            stored.update(game=self.game, locale=self.locale)
        row = {**stored, "game": self.game}
        lean = _lean_context(self.context, row)
        if _full_context(lean, row) == self.context:
            stored["context"] = lean
        else:
            stored.update(context=dict(self.context), whole=True)
        optional = {"user_id": self.user_id, "slot": self.slot, "fallback": self.fallback,
                    "files": [[f.kind, f.seat] for f in self.files],
                    "defer": self.defer, "fill": [p for p in self.fill if p != TABLE]}
        stored.update((k, v) for k, v in optional.items() if v)
        if _is_event(self.template):  # an event's fallback is ``event`` unless it says
            stored.pop("fallback", None)
            if self.fallback != "event":
                stored["fallback"] = self.fallback or ""
        return stored

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, outbox_id: int = 0,
                  table_id: int | None = None) -> Notification:
        later = "game" not in data  # the table's facts are filled when it is sent
        game = data.get("game", "")
        return cls(
            table_id=int(data["table_id"] if table_id is None else table_id),
            seat=data.get("seat"), template=data["template"],
            context=(dict(data["context"]) if data.get("whole")
                     else _full_context(data.get("context", {}), {**data, "game": game})),
            game=game, locale=data.get("locale", ""), user_id=data.get("user_id"),
            files=tuple(FileSpec(k, s) for k, s in data.get("files", ())),
            slot=data.get("slot"), version=int(data.get("version", 0)),
            fallback=data.get("fallback", "event" if _is_event(data["template"]) else None)
            or None, defer=bool(data.get("defer", False)),
            outbox_id=outbox_id,
            fill=(*((TABLE,) if later else ()), *data.get("fill", ())),
        )


# The context keys every notification has whose value the stored row says already.
_ROW_KEYS = ("table_id", "game", "version", "seat")
_SPREAD = "_spread"  # a stored context whose ``data`` is spread into it on reading
# An event's data is spread into its context (``compose.event_notes``): for an event,
# that is the stored form's default, and ``_APART`` marks a context that is not so.
_APART = "_apart"


def _is_event(template: object) -> bool:
    return str(template).startswith("event_")


def _derived(context: Mapping[str, Any], row: Mapping[str, Any]) -> dict[str, Any]:
    derived = {k: row.get(k) for k in _ROW_KEYS}
    template = str(row.get("template", ""))
    if _is_event(template):  # every event's note says which, and to whom
        derived.update(event=template.removeprefix("event_"), to_seat=row.get("seat"))
    return derived


def _lean_context(context: Mapping[str, Any], row: Mapping[str, Any]) -> dict[str, Any]:
    derived = _derived(context, row)
    data = context.get("data")
    spread: Mapping[str, Any] = data if isinstance(data, dict) and data and all(
        k in context and context[k] == v for k, v in data.items()) else {}
    lean = {k: v for k, v in context.items()
            if not (k in derived and derived[k] == v) and k not in spread}
    event = _is_event(row.get("template"))
    if spread and not event:
        lean[_SPREAD] = True
    elif event and not spread:
        lean[_APART] = True
    return lean


def _full_context(stored: Mapping[str, Any], row: Mapping[str, Any]) -> dict[str, Any]:
    if not stored:
        return {}  # a row done with keeps no context (``SPENT_KEYS``)
    full = {**_derived(stored, row)}
    rest = {k: v for k, v in stored.items() if k not in (_SPREAD, _APART)}
    spread = (stored.get(_SPREAD) or (_is_event(row.get("template")) and not stored.get(_APART)
                                       and isinstance(rest.get("data"), dict)))
    if spread:
        full.update(rest["data"])
        full.update({k: v for k, v in rest.items() if k not in rest["data"]})
    else:
        full.update(rest)
    return full


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


# A ``fill`` part: the table's facts (names, status, host, game, language), read from
# the table when the notification is sent (``bot/service/fill.py``).
TABLE = "table"

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
