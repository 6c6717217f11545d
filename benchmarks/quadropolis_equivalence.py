"""Quadropolis's engine at an older commit and in the work tree see the same games (issue 25).

Run: ``python benchmarks/quadropolis_equivalence.py [--old COMMIT] [--games 60]``
(from the repository root, in the project's venv).

The speed work on Quadropolis's views, state JSON and state copies must change nothing a
player, a bot or the store can observe. Both engines (the old commit's ``engine/``
exported with ``git archive`` into a temporary folder, by ``benchmarks/equivalence.py``)
play the same seeded games in child processes: 2 to 4 seats, classic and expert, with and
without squares, random legal moves (and now and then a typed action that may be
refused). After every action each child writes a digest of:

- the events of the action (or the refusal: exception type, message, code and values),
  the state's JSON (key order included), ``pending``, the news key, the outcome;
- ``state.copy()``'s JSON, and the JSON of a state read back from the state's JSON;
- every seat's view and the public view, serialised in their own key order, of the state
  and of a JSON round trip of it (as the service views a state read back from its
  snapshot);
- every seat's legal actions (text and JSON, in order) and their notes (takes nothing);
- the refusals of a few random actions, and of a random typed text (and the state's JSON
  after each);
- ``scramble_hidden`` of the state, and, every fifth step, the ``greedy`` AI's choice.

It prints the games and steps compared and ``same_as_old yes`` when every digest
matches, else the first game and step that differ. A cheap part of this lives in
``tests/engine/quadropolis/test_view_copies.py``; this is the full-size check.
"""

from __future__ import annotations

import sys
from pathlib import Path

OLD = "d32fea1"

# One child: plays the games and prints, per game, its per-step digests (JSON lines).
PLAY = r"""
import sys
from engine.core.errors import UrbanistError
from engine.quadropolis import GAME
from engine.quadropolis.actions import SLOTS, Discard, Place, Take

from equivalence_state import play_all, refusals

def tries(rng):
    return [Take(rng.randbelow(7), SLOTS[rng.randbelow(len(SLOTS))]),
            Place(rng.randbelow(7), rng.randbelow(7)), Discard(),
            Take(1 + rng.randbelow(5), SLOTS[rng.randbelow(len(SLOTS))]),
            Place(1 + rng.randbelow(4), 1 + rng.randbelow(5))]

TEXTS = ["A3@L4", "r2c3", "discard", "a9@x1", "r9c9", "hello", "3@T2", "2,3", "", "A1@"]

def parsed(st, seat, text):
    try:
        action = GAME.parse_action(st, seat, text)
        return ["ok", action.to_json()]
    except UrbanistError as error:
        return [type(error).__name__, str(error), error.code, dict(error.params)]

def probes(st, seat, rng):
    out = refusals(GAME, st, seat, tries(rng)[:: 1 + rng.randbelow(3)])
    return [*out, parsed(st, seat, TEXTS[rng.randbelow(len(TEXTS))])]

def pick(st, seat, rng, legal):
    action = legal[rng.randbelow(len(legal))]
    return tries(rng)[rng.randbelow(5)] if rng.randbelow(8) == 0 else action

variants = [(4, {}), (4, {"mode": "expert"}), (3, {"squares": True}), (2, {}),
            (4, {"mode": "expert", "squares": True}), (3, {"mode": "expert"}),
            (2, {"mode": "expert", "squares": True})]
play_all(GAME, variants, int(sys.argv[1]), probes=probes, pick=pick)
"""


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from equivalence import main

    main("quadropolis", PLAY, OLD, __doc__)
