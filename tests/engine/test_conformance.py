"""The generic conformance test: every registered game must pass it."""

from __future__ import annotations

import pytest

from engine.core import game_names, get_game
from engine.core.conformance import run_conformance

# The engine's own games only: a test-only game (tests/bot/fakegame.py registers one when
# the bot tests are collected first) is no part of what the engine promises.
BUILTIN = [name for name in game_names()
           if type(get_game(name)).__module__.startswith(f"engine.{name}.")]

CASES = [
    (name, seats, seed)
    for name in BUILTIN
    for seats in range(get_game(name).min_seats, get_game(name).max_seats + 1)
    for seed in (1, 2)
]


def test_the_builtin_games_are_registered() -> None:
    assert {"ginkgopolis", "skybridge"} <= set(BUILTIN)
    assert "fakepicks" not in BUILTIN


@pytest.mark.parametrize(("name", "seats", "seed"), CASES)
def test_game_conforms_to_the_protocol(name: str, seats: int, seed: int) -> None:
    game = get_game(name)
    result = run_conformance(game, seats, game.default_options(), seed, check_every=2)
    assert result["steps"] > 0
