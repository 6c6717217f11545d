"""Helpers shared by the service, the AI and the tests: checked apply and playouts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.protocol import Action, Event, Game
from engine.core.rng import Rng


def playout(
    game: Game[Any],
    state: Any,
    choose: Callable[[Any, int], Action],
    *,
    max_actions: int = 100_000,
    on_apply: Callable[[int, Action, list[Event]], None] | None = None,
) -> int:
    """Play until the game ends, asking ``choose(state, seat)`` for every decision.

    Seats are served in ascending order among those waiting, which is deterministic.
    Returns the number of actions applied.
    """
    count = 0
    while game.outcome(state) is None:
        pending = game.pending(state)
        if not pending.waiting:
            raise RuntimeError("game is not over but nobody has to act")
        seat = min(pending.waiting)
        action = choose(state, seat)
        events = game.apply(state, seat, action)
        if on_apply is not None:
            on_apply(seat, action, events)
        count += 1
        if count > max_actions:
            raise RuntimeError("game did not end")
    return count


def ai_playout(game: Game[Any], state: Any, kinds: list[str], seed: int) -> int:
    """Play to the end with one AI kind per seat (e.g. ``["greedy", "random"]``)."""
    rng = Rng.from_seed(seed)
    players = [game.ai(k) for k in kinds]
    return playout(game, state, lambda st, seat: players[seat].choose(st, seat, rng))


def head_to_head(
    game: Game[Any],
    seats: int,
    games: int,
    *,
    strong: str = "greedy",
    weak: str = "random",
    options: dict[str, Any] | None = None,
) -> tuple[int, float]:
    """One ``strong`` AI seat (rotating, seed by seed) against ``weak`` ones.

    Returns the games the strong seat won (shared wins included) and its share of wins,
    a win shared by k players counting 1/k.
    """
    won, share = 0, 0.0
    for seed in range(games):
        seat = seed % seats
        kinds = [weak] * seats
        kinds[seat] = strong
        state = game.setup(seats, options or {}, seed)
        ai_playout(game, state, kinds, seed)
        outcome = game.outcome(state)
        assert outcome is not None
        winners = [s.seat for s in outcome.winners]
        if seat in winners:
            won += 1
            share += 1 / len(winners)
    return won, share / games
