"""Neotopia's engine at an older commit and in the work tree see the same games (issue 25).

Run: ``python benchmarks/neotopia_equivalence.py [--old COMMIT] [--games 60]``
(from the repository root, in the project's venv).

The speed work on Neotopia's views, legal moves and state copies must change nothing a
player, a bot or the store can observe. Both engines (the old commit's ``engine/``
exported with ``git archive`` into a temporary folder, as ``benchmarks/engine.py`` does)
play the same seeded games in child processes: 2, 3 and 4 seats, with and without the
``mirror`` and ``second_lap_bonus`` options, random legal moves (and typed two-step
moves). After every action each child writes a digest of:

- the events of the action, the state's JSON (key order included), ``pending``, the
  news key, the outcome;
- every seat's view and the public view, serialised in their own key order (a JSON
  round trip of the state first, as the service views a state read back from its
  snapshot);
- every seat's legal actions (text and JSON, in order);
- the refusals of a few illegal actions (exception type, code, message and values);
- ``state.copy()`` and ``scramble_hidden`` of the state, and, every fifth step, the
  ``greedy`` AI's choice.

It prints one line per child and ``same_as_old yes`` when every digest matches, else the
first game and step that differ. A cheap part of this lives in
``tests/engine/neotopia/test_view_caches.py``; this is the full-size check.
"""

from __future__ import annotations

import sys
from pathlib import Path

OLD = "e20cd84"

# One child: plays the games and prints, per game, its per-step digests (JSON lines).
PLAY = r"""
import sys
from engine.neotopia import GAME
from engine.neotopia.actions import Build, Draw, Move, Place, Take, UseBonus

from equivalence_state import play_all, refusals

def probes(st, seat, rng):
    data = st.data
    cells = list(data.cells)
    cards = list(data.cards)
    return refusals(GAME, st, seat, [
        Place(cells[rng.randbelow(len(cells))]), Draw(cards[rng.randbelow(len(cards))]),
        Build(cards[rng.randbelow(len(cards))]), UseBonus("automation"),
        Take(data.manufactures[rng.randbelow(len(data.manufactures))].id,
             data.colour_ids[rng.randbelow(len(data.colour_ids))])])

def pick(st, seat, rng, legal):
    action = legal[rng.randbelow(len(legal))]
    if isinstance(action, Take) and rng.randbelow(3) == 0:
        # The typed shortcut, to a cell it may or may not reach.
        cells = list(st.data.cells)
        action = Move(action.source, action.colour, cells[rng.randbelow(len(cells))])
    return action

variants = [(4, {}), (3, {}), (2, {}), (4, {"mirror": True}),
            (4, {"second_lap_bonus": True}), (3, {"mirror": True, "second_lap_bonus": True})]
play_all(GAME, variants, int(sys.argv[1]), probes=probes, pick=pick)
"""


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from equivalence import main

    main("neotopia", PLAY, OLD, __doc__)
