"""The generic conformance checks that every registered game must pass.

They run a seeded random game to the end and check, at every step, what the
protocol promises: JSON round trips, replay determinism, views that never depend
on hidden information, legal actions that always apply, and an outcome at the end.
"""

from __future__ import annotations

import json
from typing import Any

from engine.core.errors import IllegalAction
from engine.core.protocol import Action, Game, seat_name
from engine.core.rng import Rng


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def run_conformance(
    game: Game[Any], seats: int, options: dict[str, Any], seed: int, *, check_every: int = 1
) -> dict[str, Any]:
    """Play one random game and assert every protocol promise. Returns a summary."""
    state = game.setup(seats, options, seed)
    rng = Rng.from_seed(seed ^ 0x5EED)
    log: list[tuple[int, dict[str, Any]]] = []
    steps = 0
    while game.outcome(state) is None:
        pending = game.pending(state)
        assert pending.waiting, "the game is not over, so someone must have a decision"
        for seat in range(seats):
            legal = game.legal_actions(state, seat)
            if seat in pending.waiting or seat in pending.changeable:
                assert legal, f"seat {seat} is waited for but has no legal action"
            else:
                assert not legal, f"seat {seat} is not waited for but has legal actions"
        seat = sorted(pending.waiting)[rng.randbelow(len(pending.waiting))]
        legal = game.legal_actions(state, seat)
        action: Action = legal[rng.randbelow(len(legal))]
        # Text and JSON forms of the action must both come back to the same action.
        assert game.parse_action(state, seat, action.text()) == action, action.text()
        assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action
        if steps % check_every == 0:
            _check_state(game, state, seats, seed + steps)
        before = canonical(game.state_to_json(state))
        events = game.apply(state, seat, action)
        # An accepted action changes the state or at least says something happened.
        assert canonical(game.state_to_json(state)) != before or events, action.text()
        for event in events:
            json.dumps(event.to_json())
            assert event.to is None or 0 <= event.to < seats
        log.append((seat, action.to_json()))
        steps += 1
        assert steps < 50_000, "the game must end"
    _check_state(game, state, seats, seed)
    outcome = game.outcome(state)
    assert outcome is not None
    assert {s.seat for s in outcome.standings if s.seat is not None} == set(range(seats))
    for standing in outcome.standings:
        assert standing.total == sum(line.points for line in standing.lines)
        if standing.seat is not None:
            assert standing.name == seat_name(standing.seat), standing.name
    # Replaying the log from the seed reproduces the final state byte for byte.
    replay = game.setup(seats, options, seed)
    for seat, data in log:
        game.apply(replay, seat, game.action_from_json(data))
    assert canonical(game.state_to_json(replay)) == canonical(game.state_to_json(state))
    return {"steps": steps, "outcome": outcome}


def _check_state(game: Game[Any], state: Any, seats: int, seed: int) -> None:
    data = game.state_to_json(state)
    text = canonical(data)
    again = game.state_from_json(json.loads(text))
    assert canonical(game.state_to_json(again)) == text, "state JSON round trip"
    for seat in [None, *range(seats)]:
        view = game.view(state, seat)
        json.dumps(view)
        scrambled = game.scramble_hidden(state, seat, seed)
        assert canonical(game.view(scrambled, seat)) == canonical(view), (
            f"the view of seat {seat} depends on something it may not see"
        )


def assert_refused_untouched(game: Game[Any], state: Any, seat: int, action: Action) -> None:
    before = canonical(game.state_to_json(state))
    try:
        game.apply(state, seat, action)
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"{action.text()} should have been refused")
    assert canonical(game.state_to_json(state)) == before
