"""Typed errors whose message a player can read.

Every error carries a stable ``code`` (for templates and tests) and an English
``message``; the bot may translate by code and fall back to the message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class UrbanistError(Exception):
    """Base of every error the engine raises on purpose."""

    code = "error"

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.params: Mapping[str, Any] = params

    def __str__(self) -> str:
        return self.message


class IllegalAction(UrbanistError):
    """The action is well formed but the rules forbid it now. The state is untouched."""

    code = "illegal"


class NotYourTurn(IllegalAction):
    """The seat has nothing to decide at the moment."""

    code = "not_your_turn"


class ParseError(UrbanistError):
    """A typed action could not be understood; the message says what would be legal."""

    code = "parse"


class BadOptions(UrbanistError):
    """Table options or seat count that the game does not support."""

    code = "options"
