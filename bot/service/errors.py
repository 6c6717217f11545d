"""Refusals: every reason the service says no, with a stable code and a template.

The template for code ``X`` is ``refusal_X``; ``context`` fills it. Whatever was
refused, the table's state is untouched.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

REFUSAL_CODES = (
    "no_table",  # no such table (or none in this channel)
    "not_player",  # the user holds no seat at this table
    "not_host",  # only the host or a server manager may do this
    "not_lobby",  # the table has already started (or ended)
    "not_running",  # the game is not being played (lobby, paused, over)
    "paused",  # the table is paused
    "already_seated",
    "table_full",
    "too_few",  # not enough seats to start
    "not_your_turn",  # the seat has nothing to decide now
    "illegal",  # the rules forbid this action now
    "parse",  # a typed action could not be understood
    "forged",  # an action value that is not a well-formed action of this game
    "stale",  # built for an older version of the table
    "options",  # bad table options or settings
    "unknown_game",
    "no_seat",  # no such seat number
    "busy",  # the table changed meanwhile; try again
    "storage",  # the database could not save (a full disk...): nothing changed
    "level",  # no such bot level (the context lists the levels)
    "followed",  # the table is shown in a channel already (``channel_id``)
    "not_followed",  # the table is not followed in this channel (it was opened there)
)


class Refused(Exception):
    def __init__(self, code: str, message: str, **context: Any) -> None:
        assert code in REFUSAL_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.context: Mapping[str, Any] = {"message": message, **context}

    @property
    def template(self) -> str:
        return f"refusal_{self.code}"
