"""Property tests over random games: every mode, conservation, determinism, views."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from skyhelp import GAME, snapshot

from engine.core.play import ai_playout
from engine.core.rng import Rng
from engine.skybridge.board import BRIDGE_SPANS, FOUNDATIONS, Refusal
from engine.skybridge.pieces import BLOCKS, COLOURS, EXTRA_PER_SEAT, KINDS, PER_COLOUR, Piece
from engine.skybridge.scoring import (
    colour_lines,
    colour_points,
    points_by_colour,
    seat_lines,
    seat_totals,
)
from engine.skybridge.seating import rotation, seat_colours
from engine.skybridge.state import SkybridgeState

MODES = [
    (2, {}),
    (2, {"choose_colour": True}),
    (2, {"elimination": True}),
    (3, {}),
    (3, {"elimination": True}),
    (4, {}),
    (4, {"elimination": True}),
]
modes = st.sampled_from(MODES)


def random_game(seats: int, options: dict[str, bool], seed: int,
                data: st.DataObject | None = None) -> list[SkybridgeState]:
    """Every state of one random game, first to last. With ``data``, Hypothesis draws
    each move, so a failing game shrinks to one of first choices."""
    state = GAME.setup(seats, options, seed)
    rng = Rng.from_seed(seed)
    states = [state.copy()]
    while GAME.outcome(state) is None:
        seat = min(GAME.pending(state).waiting)
        legal = GAME.legal_actions(state, seat)
        action = (rng.choice(legal) if data is None
                  else data.draw(st.sampled_from(legal), label="action"))
        GAME.apply(state, seat, action)
        states.append(state.copy())
    return states


def on_board(state: SkybridgeState, kind: str, colour: str) -> int:
    piece = Piece(kind, colour)  # type: ignore[arg-type]
    if kind == "bridge":
        return int(any(piece in t for t in state.board.towers))
    return sum(t.count(piece) for t in state.board.towers)


@pytest.mark.parametrize("mode", MODES, ids=[f"{n}-{'-'.join(o) or 'plain'}" for n, o in MODES])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.data_too_large])
@given(seed=st.integers(min_value=0, max_value=2**32), data=st.data())
def test_every_piece_is_on_the_board_or_in_a_supply(
    mode: tuple[int, dict[str, bool]], seed: int, data: st.DataObject
) -> None:
    seats, options = mode
    for state in random_game(seats, options, seed, data):
        for colour, kinds in state.supply.items():
            for kind in KINDS:
                assert kinds[kind] >= 0
                assert kinds[kind] + on_board(state, kind, colour) == PER_COLOUR[kind]
        if seats == 3:
            for kind in BLOCKS:
                held = sum(extra[kind] for extra in state.extra)
                assert held + on_board(state, kind, "blue") == EXTRA_PER_SEAT[kind] * 3
            assert on_board(state, "bridge", "blue") == on_board(state, "roof", "blue") == 0


@settings(max_examples=25, deadline=None)
@given(modes, st.integers(min_value=0, max_value=2**32))
def test_the_game_ends_only_when_nobody_can_place(
    mode: tuple[int, dict[str, bool]], seed: int
) -> None:
    seats, options = mode
    final = random_game(seats, options, seed)[-1]
    board = final.board
    for index, slot in enumerate(rotation(final)):
        if index in final.eliminated:
            continue  # out for good (elimination option), even if it could place now
        colours = [slot.colour] if slot.colour else seat_colours(seats)[slot.seat]
        for colour in colours:
            for kind in KINDS:
                if final.supply[colour][kind]:
                    assert not list(board.spots(colour, kind))
        for kind in BLOCKS if seats == 3 else ():
            if final.extra[slot.seat][kind]:
                assert not list(board.spots("blue", kind))


@settings(max_examples=20, deadline=None)
@given(modes, st.integers(min_value=0, max_value=2**32))
def test_spots_agree_with_the_rule_checks(mode: tuple[int, dict[str, bool]], seed: int) -> None:
    seats, options = mode
    for state in random_game(seats, options, seed)[::3]:
        board = state.board
        for colour in ("red", "yellow", "green", "blue"):
            for kind in KINDS:
                spots = set(board.spots(colour, kind))
                cands = BRIDGE_SPANS if kind == "bridge" else [(f,) for f in FOUNDATIONS]
                for at in cands:
                    try:
                        board.check(colour, kind, at)
                        allowed = True
                    except Refusal:
                        allowed = False
                    assert allowed == (at in spots), (colour, kind, at)


@settings(max_examples=10, deadline=None)
@given(modes, st.integers(min_value=0, max_value=2**32))
def test_same_seed_same_actions_same_bytes(mode: tuple[int, dict[str, bool]], seed: int) -> None:
    seats, options = mode
    one = GAME.setup(seats, options, seed)
    two = GAME.setup(seats, options, seed)
    ai_playout(GAME, one, ["greedy"] * seats, seed)
    ai_playout(GAME, two, ["greedy"] * seats, seed)
    assert snapshot(one) == snapshot(two)


@settings(max_examples=10, deadline=None)
@given(modes, st.integers(min_value=0, max_value=2**32))
def test_views_show_legal_moves_only_to_their_seat(
    mode: tuple[int, dict[str, bool]], seed: int
) -> None:
    seats, options = mode
    for state in random_game(seats, options, seed)[::4]:
        public = GAME.view(state, None)
        assert "legal" not in public
        json.dumps(public)
        for seat in range(seats):
            mine = GAME.view(state, seat)
            assert mine["legal"] == [a.text() for a in GAME.legal_actions(state, seat)]
            without = {k: v for k, v in mine.items() if k not in ("legal", "viewer")}
            assert without == {k: v for k, v in public.items() if k != "viewer"}


@settings(max_examples=15, deadline=None)
@given(modes, st.integers(min_value=0, max_value=2**32))
def test_the_fast_scorers_agree_with_the_score_lines(
    mode: tuple[int, dict[str, bool]], seed: int
) -> None:
    # The AIs and the game-over event count points without building lines: at every
    # state of a game they must give what the standings' lines add up to.
    seats, options = mode
    for state in random_game(seats, options, seed):
        board = state.board
        by_colour = points_by_colour(board)
        for colour in COLOURS:
            lines = sum(line.points for line in colour_lines(board, colour))
            assert colour_points(board, colour) == lines == by_colour.get(colour, 0)
        assert seat_totals(board, seats) == [
            sum(line.points for line in seat_lines(board, seats, s)) for s in range(seats)]
