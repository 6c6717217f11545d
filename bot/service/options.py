"""Game options typed as text: ``characters=intro strict_screens=true``.

Only the reading is done here; whether a value is allowed is the engine's word
(``Game.setup`` raises ``BadOptions``), asked by ``TableService.create`` and ``configure``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot.service.errors import Refused

# English and French words, since the players of a French table type French.
TRUE_WORDS = frozenset({"true", "yes", "on", "1", "vrai", "oui"})
FALSE_WORDS = frozenset({"false", "no", "off", "0", "faux", "non"})
_AROUND_EQUALS = re.compile(r"\s*=\s*")
_SEPARATORS = re.compile(r"[\s,;]+")
_KEY = re.compile(r"^[A-Za-z_][\w-]*$")
# ASCII digits, and few: int() of 5,000 digits raises ValueError, and "²" is a digit too.
_WHOLE = re.compile(r"-?[0-9]{1,18}")


def parse_options(text: str, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """``key=value`` pairs (separated by spaces, commas or semicolons) as a dict. A value
    is read as the type of the option's default (true/false for a flag, a whole number
    for a number); an unknown key is passed on as typed, for the engine to name it in
    its refusal. Raises ``Refused("options")`` for text that is not ``key=value``."""
    found: dict[str, Any] = {}
    for token in _SEPARATORS.split(_AROUND_EQUALS.sub("=", text.strip())):
        if not token:
            continue
        key, equals, raw = token.partition("=")
        if not equals or not raw or not _KEY.match(key):
            raise Refused("options", f"Write each option as key=value, not {token!r}.",
                          field="options", typed=token)
        found[key] = _value(raw, defaults.get(key))
    return found


def _value(raw: str, default: Any) -> Any:
    word = raw.lower()
    whole = _WHOLE.fullmatch(raw) is not None
    if default is None:  # an option the game does not list: guess, the engine decides
        if whole:
            return int(raw)
        return True if word in TRUE_WORDS else False if word in FALSE_WORDS else raw
    if isinstance(default, bool):
        # Neither word: kept as typed, and the engine says what the flag accepts.
        return True if word in TRUE_WORDS else False if word in FALSE_WORDS else raw
    if isinstance(default, int):
        return int(raw) if whole else raw
    return raw
