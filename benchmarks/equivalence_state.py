"""What the engine equivalence checks digest of a state after every step, the same for
every game (imported by the child programs of ``benchmarks/<game>_equivalence.py``,
which run it beside the old commit's engine as well as the work tree's)."""

from __future__ import annotations

import json
from typing import Any


def dump(value: Any) -> str:
    # Key order is part of what a player or the store sees: not sorted.
    return json.dumps(value, separators=(",", ":"), default=repr)


def state_digest(game: Any, st: Any, seats: int, step: int, h: Any) -> None:
    """Feed ``h`` the state's JSON (as is, copied, read back), ``pending``, the news key,
    the outcome, and for the table and every seat the views (of the state and of its
    copy read back from JSON), the legal actions (text, JSON, the game's note on each)
    and the state as that seat's hidden information is scrambled."""
    h.update(dump(game.state_to_json(st)).encode())
    h.update(dump(game.state_to_json(st.copy())).encode())
    h.update(repr(game.pending(st)).encode())
    h.update(repr(game.news_key(st)).encode())
    h.update(repr(game.outcome(st)).encode())
    back = game.state_from_json(json.loads(json.dumps(game.state_to_json(st))))
    h.update(dump(game.state_to_json(back)).encode())
    note = getattr(game, "action_note", None)
    for seat in [None, *range(seats)]:
        h.update(dump(game.view(back, seat)).encode())
        h.update(dump(game.view(st, seat)).encode())
        if seat is None:
            continue
        for state in (st, back):
            legal = game.legal_actions(state, seat)
            h.update(dump([(a.text(), a.to_json(),
                            None if note is None else note(state, seat, a))
                           for a in legal]).encode())
        h.update(dump(game.state_to_json(game.scramble_hidden(st, seat, step))).encode())
