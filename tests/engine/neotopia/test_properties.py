"""Properties over random games to the end, 2-4 players: the protocol's conformance,
accounting of every component, replay and JSON round trips, views that never leak,
and a game that always ends."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st_

from engine.core.conformance import canonical, run_conformance
from engine.core.rng import Rng
from engine.neotopia import GAME
from engine.neotopia.state import NeotopiaState
from tests.engine.neotopia.helpers import check_invariants

SEATS = st_.integers(min_value=2, max_value=4)
SEEDS = st_.integers(min_value=0, max_value=2**32)
OPTIONS = st_.fixed_dictionaries({"mirror": st_.booleans(),
                                  "second_lap_bonus": st_.booleans()})


@settings(max_examples=6, deadline=None)
@given(seats=SEATS, seed=SEEDS, options=OPTIONS)
def test_conformance(seats: int, seed: int, options: dict[str, Any]) -> None:
    result = run_conformance(GAME, seats, options, seed, check_every=7)
    assert result["steps"] > 0


def secrets_of(state: NeotopiaState, seat: int | None) -> set[str]:
    """Card and tile ids the seat may not know where they are."""
    hidden = set(state.deck) | set(state.stack) | set(state.removed)
    for s in range(state.seats):
        if s != seat:
            hidden |= set(state.hands[s])
    return hidden


@settings(max_examples=10, deadline=None)
@given(seats=SEATS, seed=SEEDS)
def test_every_component_is_accounted_for_and_views_never_leak(seats: int, seed: int) -> None:
    state = GAME.setup(seats, {}, seed)
    rng = Rng.from_seed(seed)
    players = [GAME.ai("random" if i % 2 else "greedy") for i in range(seats)]
    check_invariants(state)
    steps = 0
    while GAME.outcome(state) is None:
        seat = state.current
        action = players[seat].choose(state, seat, rng)
        events = GAME.apply(state, seat, action)
        check_invariants(state)
        for event in events:
            if event.to is None:
                text = json.dumps(event.to_json())
                # Drawn from the deck: the card is told only to its new owner.
                assert not (event.kind == "drew" and event.data["card"] is not None
                            and event.data["source"] == "deck")
                for secret in secrets_of(state, None) - set(state.hands[seat]):
                    assert f'"{secret}"' not in text
        if steps % 5 == 0:
            for viewer in [None, *range(seats)]:
                view = GAME.view(state, viewer)
                view.pop("last")  # "draw C10" names an offer card everyone saw taken
                text = json.dumps(view)
                for secret in secrets_of(state, viewer):
                    assert f'"{secret}"' not in text, (viewer, secret)
                for s in range(seats):
                    assert (view["players"][s]["hand"] is None) == (s != viewer)
        steps += 1
        assert steps < 3000, "the game always ends"
    outcome = GAME.outcome(state)
    assert outcome is not None and len(outcome.standings) == seats


@settings(max_examples=8, deadline=None)
@given(seats=SEATS, seed=SEEDS, cut=st_.integers(min_value=0, max_value=400))
def test_replay_and_json_round_trip_from_any_point(seats: int, seed: int, cut: int) -> None:
    state = GAME.setup(seats, {}, seed)
    rng = Rng.from_seed(seed)
    player = GAME.ai("random")
    log = []
    while GAME.outcome(state) is None and len(log) < cut:
        seat = state.current
        action = player.choose(state, seat, rng)
        log.append((seat, json.loads(json.dumps(action.to_json()))))
        GAME.apply(state, seat, action)
    text = canonical(GAME.state_to_json(state))
    again = GAME.state_from_json(json.loads(text))
    assert canonical(GAME.state_to_json(again)) == text
    assert canonical(GAME.view(again, 0)) == canonical(GAME.view(state, 0))
    replay = GAME.setup(seats, {}, seed)
    for seat, data in log:
        GAME.apply(replay, seat, GAME.action_from_json(data))
    assert canonical(GAME.state_to_json(replay)) == text


def test_the_same_seed_gives_the_same_game() -> None:
    def run() -> str:
        state = GAME.setup(4, {}, 11)
        rng = Rng.from_seed(11)
        ai = GAME.ai("greedy")
        while GAME.outcome(state) is None:
            GAME.apply(state, state.current, ai.choose(state, state.current, rng))
        return canonical(GAME.state_to_json(state))

    assert run() == run()
