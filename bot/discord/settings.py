"""``/table settings``: the text that shows a table's settings and game options, and the
change its parameters ask for. Who may change what is the service's word
(``TableService.configure``: the host or a manager, in the lobby)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from bot.discord.frontend import Frontend
from bot.discord.limits import truncate
from bot.discord.status import status_context
from bot.service import Refused, TableInfo, TableSettings

HOUR = 3600
NO_REMINDERS = frozenset({"none", "no", "0", "-", "aucun", "non"})
_SEPARATORS = re.compile(r"[\s,;]+")
_HOURS = re.compile(r"(\d{1,4}(?:\.\d+)?)h?")


def option_rows(info: TableInfo) -> list[dict[str, Any]]:
    """Every game option: its value at this table and the game's default, in the game's
    own order (options the game does not list, if any, after)."""
    defaults = info.default_options
    keys = [*defaults, *(k for k in info.options if k not in defaults)]
    rows = []
    for key in keys:
        value, default = info.options.get(key, defaults.get(key)), defaults.get(key)
        # ``True == 1`` in Python: a default is the same value of the same type.
        same = key in defaults and value == default and type(value) is type(default)
        rows.append({"key": key, "value": value, "default": default, "is_default": same})
    return rows


def settings_text(fe: Frontend, info: TableInfo) -> str:
    host = next((s.name for s in info.seats if s.user_id == info.host_id), None)
    return truncate(fe.say("settings", info.locale, info.game, **status_context(info),
                           locale_name=info.locale, host=host, host_id=info.host_id,
                           game_options=option_rows(info)))


def reminder_seconds(text: str) -> tuple[int, ...]:
    """``"12 1"`` (hours before the deadline, commas allowed, decimals too) as seconds;
    ``"none"`` for no reminders."""
    words = [w for w in _SEPARATORS.split(text.strip().lower()) if w]
    if not words or (len(words) == 1 and words[0] in NO_REMINDERS):
        return ()
    matches = [_HOURS.fullmatch(w) for w in words]
    if not all(matches):
        raise Refused("options", "Reminders are hours before the deadline, such as "
                      "'12 1', or 'none'.", field="reminders", typed=text)
    # Whether each falls inside the deadline is the service's check (TableSettings).
    return tuple(round(float(m.group(1)) * HOUR) for m in matches if m)


def wanted_settings(info: TableInfo, *, deadline_hours: int | None,
                    reminder_hours: str | None, timeout: str | None,
                    seat_order: str | None, level: str | None = None) -> TableSettings | None:
    """The table's settings with what the command changes; None when it changes none."""
    current = info.settings
    wanted = dataclasses.replace(
        current,
        deadline_seconds=current.deadline_seconds if deadline_hours is None
        else deadline_hours * HOUR,
        reminders=current.reminders if reminder_hours is None
        else reminder_seconds(reminder_hours),
        timeout_policy=timeout or current.timeout_policy,
        seat_order=seat_order or current.seat_order,
        ai_level=level or current.ai_level,
    )
    return None if wanted == current else wanted
