"""Ginkgopolis's engine at an older commit and in the work tree see the same games (issue 25).

Run: ``python benchmarks/ginkgopolis_equivalence.py [--old COMMIT] [--games 60]``
(from the repository root, in the project's venv).

The speed work on Ginkgopolis's views, legal moves and state copies must change nothing a
player, a bot or the store can observe. Both engines (the old commit's ``engine/``
exported with ``git archive`` into a temporary folder, as ``benchmarks/engine.py`` does)
play the same seeded games in child processes: 1 to 5 seats, with and without the
``strict_screens``, ``characters: intro`` and ``expert_hal`` options, random legal moves
(and now and then a typed action that may be refused). After every action each child
writes a digest of:

- the events of the action (or the refusal: exception type, message, code and values),
  the state's JSON (key order included), ``pending``, the news key, the outcome;
- every seat's view and the public view, serialised in their own key order, of the state
  and of a JSON round trip of it (as the service views a state read back from its
  snapshot);
- every seat's legal actions (text and JSON, in order);
- the refusals of a few random actions (and the state's JSON after each);
- ``state.copy()`` and ``scramble_hidden`` of the state, and, every fifth step, the
  ``greedy`` AI's choice.

It prints the games and steps compared and ``same_as_old yes`` when every digest
matches, else the first game and step that differ. A cheap part of this lives in
``tests/engine/ginkgopolis/test_view_copies.py``; this is the full-size check.
"""

from __future__ import annotations

import sys
from pathlib import Path

OLD = "281ff32"

# One child: plays the games and prints, per game, its per-step digests (JSON lines).
PLAY = r"""
import sys
from engine.ginkgopolis import GAME
from engine.ginkgopolis.actions import (DraftCharacter, GiveTile, MoveToken, NewHand,
                                        PlayCard, RefillDone, TakeTile)
from engine.ginkgopolis.cards import ALL_TILES, LETTERS

from equivalence_state import play_all, refusals

def tries(rng):
    tile = lambda: ALL_TILES[rng.randbelow(len(ALL_TILES))]
    letter = LETTERS[rng.randbelow(len(LETTERS))]
    return [PlayCard(tile(), tile(), None), PlayCard(letter, None, "res"),
            PlayCard(letter, tile(), None), NewHand(), DraftCharacter(rng.randbelow(40)),
            MoveToken(letter, rng.randbelow(9) - 4, rng.randbelow(9) - 4),
            GiveTile(tile()), TakeTile(tile()), RefillDone()]

def probes(st, seat, rng):
    return refusals(GAME, st, seat, tries(rng)[:: 1 + rng.randbelow(3)])

def pick(st, seat, rng, legal):
    action = legal[rng.randbelow(len(legal))]
    return tries(rng)[rng.randbelow(9)] if rng.randbelow(8) == 0 else action

variants = [(4, {}), (3, {}), (2, {}), (5, {}), (1, {}), (4, {"strict_screens": True}),
            (3, {"characters": "intro"}), (1, {"expert_hal": True}),
            (5, {"strict_screens": True, "characters": "intro"})]
play_all(GAME, variants, int(sys.argv[1]), probes=probes, pick=pick)
"""


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from equivalence import main

    main("ginkgopolis", PLAY, OLD, __doc__)
