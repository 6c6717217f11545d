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


def attempt(game: Any, st: Any, seat: int, action: Any) -> list[Any]:
    """An action applied (its events), or refused (the error's type, message, code and
    values): what a player or the store would see of it."""
    from engine.core.errors import UrbanistError

    try:
        events = game.apply(st, seat, action)
        return ["ok", action.text(), [(e.kind, e.data, e.to) for e in events]]
    except UrbanistError as error:
        return [type(error).__name__, str(error), error.code, dict(error.params)]


def refusals(game: Any, st: Any, seat: int, actions: list[Any]) -> list[Any]:
    """Each of ``actions`` tried on a copy of the state read back from its JSON, and
    that copy's JSON after it (a refusal must leave it untouched)."""
    out = []
    for action in actions:
        probe = game.state_from_json(game.state_to_json(st))
        out.append([*attempt(game, probe, seat, action), game.state_to_json(probe)])
    return out


def play(game: Any, seed: int, seats: int, options: dict[str, Any], *,
         probes: Any, pick: Any) -> list[str]:
    """One seeded game to its end, a digest per step: the state (``state_digest``), the
    game's own probes (``probes(st, seat, rng)``: refusals of illegal or typed actions),
    every fifth step the greedy AI's choice, then the action played (``pick(st, seat,
    rng, legal)``: mostly a legal one) and what came of it."""
    import hashlib

    from engine.core import Rng

    st = game.setup(seats, options, seed)
    rng = Rng.from_seed(seed * 7919 + seats)
    steps: list[str] = []
    step = 0
    while True:
        h = hashlib.sha256()
        state_digest(game, st, seats, step, h)
        if game.outcome(st) is not None:
            steps.append(h.hexdigest())
            return steps
        seat = min(game.pending(st).waiting)
        h.update(dump(probes(st, seat, rng)).encode())
        if step % 5 == 0:
            choice = game.ai("greedy").choose(st, seat, Rng.from_seed(step))
            h.update(dump(choice.to_json()).encode())
        action = pick(st, seat, rng, game.legal_actions(st, seat))
        h.update(dump(attempt(game, st, seat, action)).encode())
        steps.append(h.hexdigest())
        step += 1


def play_all(game: Any, variants: list[tuple[int, dict[str, Any]]], games: int, *,
             probes: Any, pick: Any) -> None:
    """``games`` games, the n-th of ``variants[n % len]`` seats and options, one JSON
    line each (what ``equivalence.run`` reads)."""
    for n in range(games):
        seats, options = variants[n % len(variants)]
        print(json.dumps({"game": n, "seats": seats, "options": options,
                          "steps": play(game, n, seats, options, probes=probes,
                                        pick=pick)}), flush=True)
