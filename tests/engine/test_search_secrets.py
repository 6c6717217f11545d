"""The search AI never reads what its seat cannot see, in every registered game.

Two states that differ only in other seats' secrets (re-dealt by the game's own
``scramble_hidden``, with the generator's state changed too) must give the same choice
for the same seed and budget; the determinization itself must not depend on them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from engine.core import Rng, game_names, get_game
from engine.core.conformance import canonical
from engine.core.search import SearchPlayer

# The engine's own games: the bot's tests register a fake game (without a search AI)
# in the same process when they are collected first.
GAMES = [name for name in game_names()
         if type(get_game(name)).__module__.startswith(f"engine.{name}.")]


def _position(name: str, seats: int, seed: int, steps: int) -> tuple[Any, Any, int] | None:
    """A random position ``steps`` actions in, and a seat with a real choice there."""
    game = get_game(name)
    state = game.setup(seats, {}, seed)
    rng = Rng.from_seed(seed)
    players = [game.ai("random" if s % 2 else "greedy") for s in range(seats)]
    for _ in range(steps):
        if game.outcome(state) is not None:
            return None
        waiting = sorted(game.pending(state).waiting)
        seat = waiting[rng.randbelow(len(waiting))]
        game.apply(state, seat, players[seat].choose(state, seat, rng))
    if game.outcome(state) is not None:
        return None
    choosers = [s for s in range(seats) if len(game.legal_actions(state, s)) > 1]
    if not choosers:
        return None
    return game, state, choosers[rng.randbelow(len(choosers))]


def _twin(game: Any, state: Any, seat: int, seed: int) -> Any:
    twin = game.scramble_hidden(state, seat, seed)
    # Nobody sees the generator's state: a search that read it would see the future.
    twin.rng = Rng.from_seed(seed ^ 0xBADC0DE).next_u64()
    assert canonical(game.view(twin, seat)) == canonical(game.view(state, seat))
    return twin


def _tiny(game: Any) -> SearchPlayer:
    player = game.ai("search")
    assert isinstance(player, SearchPlayer)
    return player.with_config(iterations=6, width=3)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=4, deadline=None)
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2**31), steps=st_.integers(0, 60),
       other=st_.integers(1, 2**31))
def test_same_choice_whatever_the_others_secrets(
    name: str, seats: int, seed: int, steps: int, other: int
) -> None:
    found = _position(name, seats, seed, steps)
    if found is None:
        return
    game, state, seat = found
    twin = _twin(game, state, seat, other)
    before = canonical(game.state_to_json(state))
    player = _tiny(game)
    chosen = player.choose(state, seat, Rng.from_seed(seed))
    assert player.choose(twin, seat, Rng.from_seed(seed)) == chosen
    assert chosen in game.legal_actions(state, seat)
    # Searching leaves the real state as it was.
    assert canonical(game.state_to_json(state)) == before


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=6, deadline=None)
@given(seats=st_.integers(2, 4), seed=st_.integers(0, 2**31), steps=st_.integers(0, 80),
       other=st_.integers(1, 2**31), deal=st_.integers(0, 2**31))
def test_determinization_depends_only_on_the_view(
    name: str, seats: int, seed: int, steps: int, other: int, deal: int
) -> None:
    found = _position(name, seats, seed, steps)
    if found is None:
        return
    game, state, seat = found
    determinize = _tiny(game).determinize
    world = determinize(state, seat, deal)
    again = determinize(_twin(game, state, seat, other), seat, deal)
    assert canonical(game.state_to_json(world)) == canonical(game.state_to_json(again))
    # The seat's own decisions are the same in the determinized world.
    assert game.legal_actions(world, seat) == game.legal_actions(state, seat)
    json.dumps(game.state_to_json(world))
