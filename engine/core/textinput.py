"""Bounds on what a player may type, shared by every game's parser.

A typed action comes straight from a Discord message, so a parser must never let its
length buy time: every game calls :func:`check_typed` before any other work, which
refuses a text longer than :data:`MAX_TYPED` characters with a ParseError of code
``too_long`` (params ``limit`` and ``length``), and reads numbers with
:func:`typed_int`, which accepts ASCII digits only and at most :data:`MAX_DIGITS` of
them. Past these two checks, parsers are written to run in linear time (no regular
expression with two adjacent quantifiers over the same characters).
"""

from __future__ import annotations

from typing import Final

from engine.core.errors import ParseError

MAX_TYPED: Final = 200
"""Longest typed action accepted, in characters; the longest real one is under 40."""

MAX_DIGITS: Final = 6
"""Longest number accepted in a typed action; no game counts anything near a million."""

_ASCII_DIGITS: Final = frozenset("0123456789")


def check_typed(text: str, limit: int = MAX_TYPED) -> str:
    """Return ``text`` unchanged, or raise ParseError ``too_long`` if it is over ``limit``.

    Only ``len`` is taken: the refusal costs nothing whatever the text.
    """
    length = len(text)
    if length > limit:
        raise ParseError(
            f"That is {length} characters long; an action is at most {limit}.",
            code="too_long", limit=limit, length=length,
        )
    return text


def is_ascii_number(token: str) -> bool:
    """True for one to :data:`MAX_DIGITS` ASCII digits (``str.isdigit`` also takes ``²``
    and ``①``, which ``int`` then rejects)."""
    return 0 < len(token) <= MAX_DIGITS and all(c in _ASCII_DIGITS for c in token)


def typed_int(token: str, what: str = "number") -> int:
    """Read a typed number: ASCII digits with an optional leading ``-``, at most
    :data:`MAX_DIGITS` digits; anything else is a ParseError, never a ValueError."""
    digits = token[1:] if token.startswith("-") else token
    if not is_ascii_number(digits):
        shown = token if len(token) <= 20 else token[:20] + "…"
        raise ParseError(
            f"{shown!r} is not a {what}: write it with at most {MAX_DIGITS} digits 0-9.",
            code="bad_number", what=what, limit=MAX_DIGITS,
        )
    return int(token)
