"""The garbage collector tuned for a long-running bot (issue 25: the tail of an action).

A full collection walks every object alive; in a bot that has booted (the games' data,
their caches, the tables kept live) that is hundreds of thousands of objects, and it ran
in the middle of an action: the worst Neotopia actions spent 20-60 ms of the event loop in
it (`benchmarks/gc_tail.py`). What the start built lives as long as the process, so it is
frozen out of the collector's walks, and young objects are collected less often (the
service makes many short-lived ones per action, nearly all freed by reference counting).
The games are made ready first (their modules, data sets and the tables derived from
them), so that they are frozen too and no player's first action after a start waits for
them.
"""

from __future__ import annotations

import gc
import logging

from engine.core import game_names, get_game

log = logging.getLogger(__name__)

# Allocations between two young collections (CPython's default: 700), and how many
# collections of one generation trigger one of the next (defaults: 10, 10).
THRESHOLDS = (20_000, 20, 50)


def settle_after_start(*, warm: bool = True) -> None:
    """Call once the service has booted: what exists now is kept out of later walks.
    ``warm``: each game is made ready first (``warm_games``), so that its data is among
    what is frozen."""
    if warm:
        warm_games()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


def warm_games() -> list[str]:
    """Import every registered game and make a view and a menu of a new table of each:
    its data sets and the tables derived from them are built now, once, not in the first
    player's action after a start (Neotopia's took 60-80 ms, each import 120-150 ms).
    Returns the games made ready; one that fails is logged and left for its first use."""
    ready = []
    for name in game_names():
        try:
            game = get_game(name)
            state = game.setup(game.min_seats, game.default_options(), 0)
            game.view(state, None)
            for seat in sorted(game.pending(state).waiting):
                game.view(state, seat)
                game.legal_actions(state, seat)
        except Exception:
            log.exception("the game %s could not be made ready at the start", name)
            continue
        ready.append(name)
    return ready
