"""Bot levels: what players choose (``easy``, ``normal``, ``hard``) and the engine's AI
kind behind each (``random``, ``greedy``, ``search``).

A table keeps one level (``TableSettings.ai_level``): the one that plays for a late
seat, and the one a new bot gets unless the host names another. Each bot seat keeps its
own AI kind (``SeatRecord.ai_kind``).

The product default is ``hard`` (a game may name another, see ``default_level``).
``$URBANIST_BOT_LEVEL`` changes it for a process: the
test suite sets it to ``normal``, so that the many tests that play whole games with bots
stay fast (one test proves the default without it is ``hard``).
"""

from __future__ import annotations

import os
from typing import Any

from bot.service.errors import Refused

LEVELS: dict[str, str] = {"easy": "random", "normal": "greedy", "hard": "search"}
KINDS: dict[str, str] = {kind: level for level, kind in LEVELS.items()}
PRODUCT_LEVEL = "hard"
LEVEL_VARIABLE = "URBANIST_BOT_LEVEL"


def default_level(game: Any = None) -> str:
    """The level of a new table and of a new bot: ``hard``, unless the process says
    otherwise in ``$URBANIST_BOT_LEVEL`` (an unknown word there is ignored), or the game
    names another AI kind as its default (``default_ai``: a game whose search does not
    yet meet its strength goals in benchmarks/README.md keeps the greedy player)."""
    wanted = os.environ.get(LEVEL_VARIABLE, "").strip().lower()
    if wanted in LEVELS:
        return wanted
    return KINDS.get(str(getattr(game, "default_ai", "")), PRODUCT_LEVEL)


def check_level(level: str) -> str:
    """``level`` as stored (a level name, or an AI kind name kept for compatibility);
    a polite refusal that lists the levels otherwise."""
    word = level.strip().lower()
    if word in LEVELS:
        return word
    if word in KINDS:
        return KINDS[word]
    raise Refused("level", f"Unknown bot level {level!r}; the levels are easy, normal and "
                  "hard.", level=level, levels=list(LEVELS))


def level_of(kind: str | None) -> str | None:
    """The level an AI kind plays at (None for a kind that has no level)."""
    return KINDS.get(kind or "")


def kind_for(game: Any, level: str) -> str:
    """The AI kind that plays ``level`` in ``game``: the level's own kind, or the next
    weaker one the game has (a game without a search player plays ``hard`` greedily)."""
    names = list(LEVELS)
    for name in reversed(names[:names.index(check_level(level)) + 1]):
        kind = LEVELS[name]
        try:
            game.ai(kind)
        except (KeyError, ValueError):
            continue
        return kind
    return LEVELS["normal"]
