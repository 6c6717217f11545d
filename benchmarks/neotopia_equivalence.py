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
import hashlib, json, sys
from engine.core import Rng
from engine.core.errors import UrbanistError
from engine.neotopia import GAME
from engine.neotopia.actions import Build, Draw, Move, Place, Take, UseBonus

from equivalence_state import dump, state_digest

def refusals(st, seat, rng):
    data = st.data
    cells = list(data.cells)
    cards = list(data.cards)
    tries = [Place(cells[rng.randbelow(len(cells))]), Draw(cards[rng.randbelow(len(cards))]),
             Build(cards[rng.randbelow(len(cards))]), UseBonus("automation"),
             Take(data.manufactures[rng.randbelow(len(data.manufactures))].id,
                  data.colour_ids[rng.randbelow(len(data.colour_ids))])]
    out = []
    for action in tries:
        probe = GAME.state_from_json(GAME.state_to_json(st))
        try:
            GAME.apply(probe, seat, action)
            out.append(["ok", action.text(), dump(GAME.state_to_json(probe))])
        except UrbanistError as error:
            out.append([type(error).__name__, str(error), error.code, dump(dict(error.params)),
                        dump(GAME.state_to_json(probe))])
    return out

def play(seed, seats, options):
    st = GAME.setup(seats, options, seed)
    rng = Rng.from_seed(seed * 7919 + seats)
    steps = []
    step = 0
    while True:
        h = hashlib.sha256()
        state_digest(GAME, st, seats, step, h)
        if GAME.outcome(st) is not None:
            steps.append(h.hexdigest())
            break
        seat = min(GAME.pending(st).waiting)
        h.update(dump(refusals(st, seat, rng)).encode())
        if step % 5 == 0:
            choice = GAME.ai("greedy").choose(st, seat, Rng.from_seed(step))
            h.update(dump(choice.to_json()).encode())
        legal = GAME.legal_actions(st, seat)
        action = legal[rng.randbelow(len(legal))]
        if isinstance(action, Take) and rng.randbelow(3) == 0:
            # The typed shortcut, to a cell it may or may not reach.
            cells = [c for c in st.data.cells]
            action = Move(action.source, action.colour, cells[rng.randbelow(len(cells))])
        try:
            events = GAME.apply(st, seat, action)
            h.update(dump([(e.kind, e.data, e.to) for e in events]).encode())
        except UrbanistError as error:
            h.update(dump([type(error).__name__, str(error), error.code,
                           dict(error.params)]).encode())
        steps.append(h.hexdigest())
        step += 1
    return steps

games = int(sys.argv[1])
variants = [(4, {}), (3, {}), (2, {}), (4, {"mirror": True}),
            (4, {"second_lap_bonus": True}), (3, {"mirror": True, "second_lap_bonus": True})]
for n in range(games):
    seats, options = variants[n % len(variants)]
    print(json.dumps({"game": n, "seats": seats, "options": options,
                      "steps": play(n, seats, options)}), flush=True)
"""


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from equivalence import main

    main("neotopia", PLAY, OLD, __doc__)
