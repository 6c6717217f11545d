"""Properties over random games to the end: 2-4 players, both modes, with and without
the Squares."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.conformance import canonical, run_conformance
from engine.core.rng import Rng
from engine.quadropolis import GAME
from engine.quadropolis.scoring import city_of
from engine.quadropolis.state import State
from engine.quadropolis.tiles import TILES, all_tiles, round_tiles
from tests.engine.quadropolis.helpers import accounted

SEATS = st.integers(min_value=2, max_value=4)
MODES = st.sampled_from(["classic", "expert"])
SEEDS = st.integers(min_value=0, max_value=2**32)


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("options", [{"mode": "expert"}, {"squares": True},
                                     {"mode": "expert", "squares": True}])
def test_conformance_for_every_mode(seats: int, options: dict[str, object]) -> None:
    result = run_conformance(GAME, seats, dict(options), seats * 7, check_every=2)
    assert result["steps"] >= 4 * seats * (5 if options.get("mode") == "expert" else 4)


@settings(max_examples=12, deadline=None)
@given(seats=SEATS, mode=MODES, squares=st.booleans(), seed=SEEDS)
def test_conformance_random_games(seats: int, mode: str, squares: bool, seed: int) -> None:
    """Replay, JSON round trip, views that never depend on a secret, legal moves that
    apply, an end with an outcome."""
    run_conformance(GAME, seats, {"mode": mode, "squares": squares}, seed, check_every=4)


def _dealt(state: State) -> list[str]:
    rounds = range(1, state.round + 1)
    return [t for r in rounds for t in round_tiles(state.mode, state.squares, r)]


def _face_down_ids(state: State) -> list[str]:
    return [t for r, row in enumerate(state.site) for c, t in enumerate(row)
            if t is not None and not state.face_up[r][c]]


def _check_stacks(state: State, seat: int) -> None:
    """A stack is one type, several floors only of a stackable one, and the city that
    scoring sees has each building as tall as its stack."""
    stacks = {(r, c): stack for r, c, stack in state.players[seat].stacks()}
    for stack in stacks.values():
        assert len({TILES[t].type for t in stack}) == 1
        assert len(stack) == 1 or TILES[stack[0]].stackable
    city = city_of(state, seat)
    assert {(b.row, b.col): b.floors for b in city.buildings} == {
        where: len(stack) for where, stack in stacks.items()}
    for b in city.buildings:
        assert b.absorbs == (b.type == "park" and not b.square)


@settings(max_examples=12, deadline=None)
@given(seats=SEATS, mode=MODES, squares=st.booleans(), seed=SEEDS)
def test_every_tile_is_accounted_for_and_no_view_shows_a_face_down_one(
    seats: int, mode: str, squares: bool, seed: int
) -> None:
    state = GAME.setup(seats, {"mode": mode, "squares": squares}, seed)
    rng = Rng.from_seed(seed)
    players = [GAME.ai("greedy" if i == 0 else "random") for i in range(seats)]
    steps = 0
    while GAME.outcome(state) is None:
        assert sorted(accounted(state)) == sorted(_dealt(state))
        for s in range(seats):
            _check_stacks(state, s)
        hidden = _face_down_ids(state)
        for seat in [None, *range(seats)]:
            text = canonical(GAME.view(state, seat))
            for tid in hidden:
                assert f'"{tid}"' not in text
        seat = state.to_play
        assert seat is not None
        for event in GAME.apply(state, seat, players[seat].choose(state, seat, rng)):
            for tid in hidden:
                assert tid not in json.dumps(event.to_json())
        steps += 1
        assert steps < 500
    assert sorted(accounted(state)) == sorted(all_tiles(mode, squares))
    outcome = GAME.outcome(state)
    assert outcome is not None and len(outcome.standings) == seats


@settings(max_examples=6, deadline=None)
@given(seats=SEATS, mode=MODES, seed=SEEDS)
def test_same_seed_and_actions_give_the_same_state(seats: int, mode: str, seed: int) -> None:
    def play() -> str:
        state = GAME.setup(seats, {"mode": mode}, seed)
        rng = Rng.from_seed(seed + 1)
        ai = GAME.ai("greedy")
        while GAME.outcome(state) is None:
            seat = state.to_play
            assert seat is not None
            GAME.apply(state, seat, ai.choose(state, seat, rng))
        return canonical(GAME.state_to_json(state))

    assert play() == play()


def test_scrambling_moves_face_down_tiles_but_no_view_changes() -> None:
    state = GAME.setup(2, {}, 5)
    scrambled = GAME.scramble_hidden(state, None, 99)
    assert _face_down_ids(scrambled) != _face_down_ids(state)  # something really moved
    assert sorted(_face_down_ids(scrambled)) == sorted(_face_down_ids(state))
    for seat in (None, 0, 1):
        assert canonical(GAME.view(scrambled, seat)) == canonical(GAME.view(state, seat))
