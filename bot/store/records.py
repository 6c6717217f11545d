"""Plain values that cross the store interface, independent of any database driver."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["lobby", "running", "paused", "finished", "aborted"]
Source = Literal["player", "timeout", "bot", "admin"]
TimerKind = Literal["deadline", "reminder"]

STATUSES: tuple[Status, ...] = ("lobby", "running", "paused", "finished", "aborted")
SOURCES: tuple[Source, ...] = ("player", "timeout", "bot", "admin")


def canonical(data: Any) -> str:
    """The one JSON spelling used for snapshots, so that equal states compare equal as text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass
class TableRecord:
    """One row of ``tables``. ``id`` is 0 until the store has created the row."""

    game: str
    options: dict[str, Any]
    seed: int
    host_id: str
    max_seats: int
    status: Status = "lobby"
    version: int = 0
    snapshot: str | None = None  # canonical JSON of the engine state; None in the lobby
    outcome: dict[str, Any] | None = None
    guild_id: str | None = None
    channel_id: str | None = None
    thread_id: str | None = None
    locale: str = "en"
    deadline_seconds: int = 24 * 3600
    reminders: tuple[int, ...] = ()  # seconds before the deadline
    timeout_policy: str = "ai"
    seat_order: str = "shuffle"
    # The bot level (bot.service.levels) that plays for a late seat and that a new bot
    # gets by default.
    ai_level: str = "hard"
    paused_at: float | None = None
    # The front end's status message of the table (its channel and message ids), kept so
    # that a restarted front end edits the same message.
    status_channel_id: str | None = None
    status_message_id: str | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    id: int = 0
    # Bumped by every write; a write must name the rev it read (see Store.save).
    rev: int = 0
    # A bot seat has a decision to make: resumed at boot and by the periodic sweep.
    bot_turn: bool = False
    # The version ``snapshot`` is of: a snapshot is written every few actions (and when
    # the game ends), so the state at ``version`` is the snapshot with the log's actions
    # after ``snapshot_version`` applied (``bot.service.replay.state_now``).
    snapshot_version: int = 0


@dataclass
class SeatRecord:
    """One seat. ``user_id`` is None for a bot seat; ``prompt_version`` is the table version
    at which the seat's current decision opened (older buttons for it are still valid)."""

    seat: int
    name: str
    user_id: str | None = None
    is_bot: bool = False
    ai_kind: str | None = None
    dm_ok: bool = True
    prompt_version: int = 0


@dataclass(frozen=True)
class ActionRecord:
    """One accepted action. ``version`` is the table version it produced."""

    table_id: int
    version: int
    seat: int
    action: dict[str, Any]
    source: Source
    at: float
    actor_id: str | None = None
    public_text: str | None = None  # None when the action was a secret (simultaneous) choice
    events: list[dict[str, Any]] = field(default_factory=list)  # public events only


@dataclass(frozen=True, order=True)
class TimerRecord:
    due_at: float
    seat: int
    kind: TimerKind


@dataclass(frozen=True)
class ScheduledTimer:
    """The earliest timer of one kind for one running table: what the scheduler needs."""

    table_id: int
    version: int
    kind: TimerKind
    due_at: float


OutboxState = Literal["pending", "held", "sending", "sent", "failed"]


@dataclass(frozen=True)
class OutboxRow:
    """One message a table owes: ``payload`` is a notification's JSON (see
    ``bot.service.notifications.Notification.to_json``); ``seat`` None is for the table.
    ``held`` rows wait for the end of their round; ``sending`` rows were handed to the
    transport when the process stopped, so whether they went out is in doubt. ``sent``
    names the parts of the row's message that already went out (the transport's own
    marks), when it goes out in several."""

    table_id: int
    version: int
    seat: int | None
    payload: dict[str, Any]
    state: OutboxState = "pending"
    due_at: float = 0.0
    attempts: int = 0
    created_at: float = 0.0
    error: str | None = None
    id: int = 0
    sent: tuple[str, ...] = ()


# What an outbox row's payload loses once the row is sent or has failed for good: the
# bulk of it (the views and texts to render), which nothing reads again. The rest (who,
# which template, slot, version and files) stays for whoever inspects the outbox.
SPENT_KEYS: tuple[str, ...] = ("context", "fallback")


def sent_from_column(value: str | None) -> tuple[str, ...]:
    """An outbox row's ``sent`` marks as stored (a JSON list; NULL for none)."""
    return tuple(json.loads(value)) if value else ()


def sent_to_column(sent: tuple[str, ...]) -> str | None:
    return json.dumps(list(sent)) if sent else None


@dataclass(frozen=True)
class OutboxResult:
    """What became of one outbox row: ``sent``, ``held`` (public news kept for its
    round), ``retry`` (at ``due_at``), or ``failed`` for good (``error`` says why).
    ``sent`` replaces the row's marks of the parts already sent: a message in several
    parts that failed half-way is retried from the first part missing, not from the top
    (``sending`` with marks: the progress of a message still going out)."""

    id: int
    state: OutboxState
    due_at: float = 0.0
    error: str | None = None
    sent: tuple[str, ...] = ()


@dataclass(frozen=True)
class MenuRecord:
    """A private message showing a seat's menu for the decision opened at
    ``prompt_version``."""

    table_id: int
    seat: int
    prompt_version: int
    channel_id: str
    message_id: str


class VersionConflict(Exception):
    """The table moved on since it was loaded; nothing was written."""
