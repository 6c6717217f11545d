"""Read-only values the service hands to front ends (besides notifications)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.service.settings import TableSettings


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    name: str
    user_id: str | None
    is_bot: bool
    dm_ok: bool
    level: str | None = None  # a bot seat's level (easy, normal, hard)


@dataclass(frozen=True)
class TableInfo:
    """What anyone at the table may know about it (no secrets)."""

    id: int
    game: str
    status: str
    version: int
    host_id: str
    locale: str
    max_seats: int
    min_seats: int
    seats: tuple[SeatInfo, ...]
    waiting: dict[int, str] = field(default_factory=dict)  # seat -> decision kind
    deadlines: dict[int, float] = field(default_factory=dict)  # seat -> due time
    deadline_seconds: int = 0
    timeout_policy: str = "ai"
    channel_id: str | None = None
    thread_id: str | None = None
    guild_id: str | None = None
    outcome: dict[str, Any] | None = None
    options: dict[str, Any] = field(default_factory=dict)  # the game options in force
    default_options: dict[str, Any] = field(default_factory=dict)  # the game's defaults
    reminders: tuple[int, ...] = ()  # seconds before a deadline
    seat_order: str = "shuffle"
    ai_level: str = "hard"  # the bot level of the table (bot.service.levels)
    status_channel_id: str | None = None  # where the front end shows the table's status
    status_message_id: str | None = None
    # The waiting decision is a simultaneous secret pick (the channel then names nobody:
    # who has picked already is told only to whoever asks).
    simultaneous: bool = False
    prompt_versions: dict[int, int] = field(default_factory=dict)  # seat -> its decision's

    @property
    def settings(self) -> TableSettings:
        """The table's settings, to change some with ``dataclasses.replace`` and pass to
        ``TableService.configure``."""
        return TableSettings.stored(
            deadline_seconds=self.deadline_seconds, reminders=self.reminders,
            timeout_policy=self.timeout_policy, locale=self.locale, seat_order=self.seat_order,
            ai_level=self.ai_level)

    def seat_of(self, user_id: str) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def held_by(self, seat: int, user_id: str | None) -> SeatInfo | None:
        """The seat, if ``user_id`` holds it still: a private message made for a seat
        that changed hands meanwhile is moot, whatever the transport."""
        info = self.seats[seat] if 0 <= seat < len(self.seats) else None
        return info if user_id is not None and info is not None and info.user_id == user_id \
            else None

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]


@dataclass(frozen=True)
class Option:
    """One legal action: its text form (what a player may type) and its JSON form
    (what a button or select carries, with the table id and version). ``note`` is the
    game's short note key on it (``takes_nothing``), shown beside the text in the words of
    the ``option_note`` template."""

    text: str
    json: dict[str, Any]
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "json": self.json, "note": self.note}


@dataclass(frozen=True)
class Prompt:
    """A seat's current decision, to build buttons and menus from."""

    table_id: int
    seat: int
    version: int  # the version to put in every button built from these options
    decision: str | None  # None: nothing to decide; "changeable": submitted, may change
    options: tuple[Option, ...]
    deadline: float | None


@dataclass(frozen=True)
class ActResult:
    table_id: int
    seat: int
    # The table version after the action and the moves of the bots it triggered whose AI
    # is cheap; a bot that thinks in the pool (``hard``) plays a moment later.
    version: int
    text: str  # the action's text form, for the actor's own acknowledgement
    finished: bool
    # The actor's next decision came at once and was left to the front end that asked
    # for ``in_place`` (no private message was queued for it): show it in the answer.
    next_in_place: bool = False
    note: str | None = None  # the game's note on the action played (``Option.note``)


@dataclass(frozen=True)
class LogEntry:
    """One line of the public table log. ``text`` is None for a secret choice."""

    version: int
    seat: int
    name: str
    source: str
    text: str | None
    at: float
    events: tuple[dict[str, Any], ...]
    level: str | None = None  # the level of the AI that played (bot, timeout, admin)


@dataclass(frozen=True)
class BootReport:
    integrity_problems: tuple[str, ...]
    jobs: int
    running_tables: int
