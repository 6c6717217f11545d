"""The registry of games, by name."""

from __future__ import annotations

from typing import Any

from engine.core.protocol import Game

_GAMES: dict[str, Game[Any]] = {}
_loaded = False


def register(game: Game[Any]) -> Game[Any]:
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> Game[Any]:
    _load_builtin()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise KeyError(f"unknown game {name!r}; known games: {known}") from None


def game_names() -> list[str]:
    _load_builtin()
    return sorted(_GAMES)


def _load_builtin() -> None:
    # Importing a game package registers it; done lazily to keep imports cheap, and once:
    # the service looks a game up at every load and every message it makes.
    global _loaded
    if _loaded:
        return
    import importlib

    for module in (
        "engine.ginkgopolis", "engine.skybridge", "engine.quadropolis", "engine.neotopia",
    ):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
    _loaded = True
