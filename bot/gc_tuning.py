"""The garbage collector tuned for a long-running bot (issue 25: the tail of an action).

A full collection walks every object alive; in a bot that has booted (the games' data,
their caches, the tables kept live) that is hundreds of thousands of objects, and it ran
in the middle of an action: the worst Neotopia actions spent 20-60 ms of the event loop in
it (`benchmarks/gc_tail.py`). What the start built lives as long as the process, so it is
frozen out of the collector's walks, and young objects are collected less often (the
service makes many short-lived ones per action, nearly all freed by reference counting).
"""

from __future__ import annotations

import gc

# Allocations between two young collections (CPython's default: 700), and how many
# collections of one generation trigger one of the next (defaults: 10, 10).
THRESHOLDS = (20_000, 20, 50)


def settle_after_start() -> None:
    """Call once the service has booted: what exists now is kept out of later walks."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
