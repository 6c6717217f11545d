"""Who is asking (``Actor``) and how a table is run (``TableSettings``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.errors import Refused
from bot.service.levels import check_level

LOCALES = ("en", "fr")
TIMEOUT_POLICIES = ("ai", "none")  # ai: the AI plays for a late seat; none: no deadlines
SEAT_ORDERS = ("shuffle", "join")
HOUR = 3600


@dataclass(frozen=True)
class Actor:
    """A person using a front end. ``user_id`` is the front end's stable id (a Discord
    snowflake as text, ``local:1`` in the console). ``manager`` is the front end's word
    that the user may manage the server; it grants the host's powers on every table of that
    server (``guild_id``)."""

    user_id: str
    name: str = ""
    manager: bool = False
    # Where ``manager`` holds (a Discord server's id): a moderator of one server has no
    # host's powers over a table of another, nor over a mail table followed in one of
    # its channels. None: wherever the front end says (the console, tests).
    guild_id: str | None = None

    @property
    def display(self) -> str:
        return self.name or self.user_id

    def manages(self, guild_id: str | None) -> bool:
        """Whether this person has the host's powers over a table of ``guild_id``."""
        return self.manager and (self.guild_id is None or self.guild_id == guild_id)


@dataclass(frozen=True)
class TableSettings:
    deadline_seconds: int = 24 * HOUR
    # Seconds before the deadline at which late seats are reminded; None: half time and
    # one hour before (those that fall inside the decision's time).
    reminders: tuple[int, ...] | None = None
    timeout_policy: str = "ai"
    locale: str = "en"
    seat_order: str = "shuffle"
    # The bot level (bot.service.levels): plays for a late seat, and is a new bot's
    # level unless the host names one. None: the default (``hard``) for a new table,
    # the table's own when settings are changed.
    ai_level: str | None = None

    @classmethod
    def stored(cls, *, deadline_seconds: int, reminders: tuple[int, ...], timeout_policy: str,
               locale: str, seat_order: str, ai_level: str | None = None) -> TableSettings:
        """The settings a table was stored with. Reminders equal to the defaults for its
        deadline come back as None (the defaults), so that changing the deadline alone
        moves them along with it; other reminders are kept as they are."""
        default = cls(deadline_seconds=deadline_seconds).reminder_offsets()
        return cls(deadline_seconds=deadline_seconds,
                   reminders=None if tuple(reminders) == default else tuple(reminders),
                   timeout_policy=timeout_policy, locale=locale, seat_order=seat_order,
                   ai_level=ai_level)

    def reminder_offsets(self) -> tuple[int, ...]:
        wanted = (
            (self.deadline_seconds // 2, HOUR) if self.reminders is None else self.reminders
        )
        offsets = {o for o in wanted if 0 < o < self.deadline_seconds}
        return tuple(sorted(offsets, reverse=True))

    def validate(self) -> None:
        if self.deadline_seconds <= 0:
            raise Refused("options", "The deadline must be positive.", field="deadline")
        late = [o for o in self.reminders or () if not 0 < o < self.deadline_seconds]
        if late:
            # Dropping them silently would leave a host believing reminders are set.
            raise Refused("options", "A reminder must fall between the start of a decision "
                          "and its deadline.", field="reminders", reminders=late)
        if self.timeout_policy not in TIMEOUT_POLICIES:
            raise Refused("options", f"Unknown timeout policy {self.timeout_policy!r}.",
                          field="timeout_policy")
        if self.locale not in LOCALES:
            raise Refused("options", f"Unknown locale {self.locale!r}.", field="locale")
        if self.seat_order not in SEAT_ORDERS:
            raise Refused("options", f"Unknown seat order {self.seat_order!r}.",
                          field="seat_order")
        if self.ai_level is not None:
            check_level(self.ai_level)
