"""Random games, 2-4 players, both modes, with and without Squares: every image draws at
its layout's size at any moment, and no public image depends on a hidden tile."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.rng import Rng
from engine.quadropolis.render import (
    board_layout,
    final_layout,
    private_layout,
    render_board,
    render_final,
    render_private,
)
from engine.quadropolis.render.read import read_board
from tests.engine.quadropolis.render.states import GAME, png


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    expert=st.booleans(),
    squares=st.booleans(),
    stops=st.lists(st.integers(0, 200), min_size=2, max_size=3),
)
def test_random_games_draw_at_any_moment(
    seats: int, seed: int, expert: bool, squares: bool, stops: list[int]
) -> None:
    state = GAME.setup(seats, {"mode": "expert" if expert else "classic", "squares": squares},
                       seed)
    rng = Rng.from_seed(seed)
    ai = GAME.ai("random")
    moves = 0
    while GAME.outcome(state) is None:
        if moves in stops:
            view = GAME.view(state, None)
            board = read_board(view)
            assert png(render_board(view)).size == board_layout(board).size
            hidden = GAME.scramble_hidden(state, None, seed + 1)
            assert render_board(view) == render_board(GAME.view(hidden, None))
            seat = min(GAME.pending(state).waiting)
            mine = GAME.view(state, seat)
            assert png(render_private(mine)).size == private_layout(read_board(mine)).size
        seat = min(GAME.pending(state).waiting)
        GAME.apply(state, seat, ai.choose(state, seat, rng))
        moves += 1
    view = GAME.view(state, None)
    outcome = GAME.outcome(state)
    assert outcome is not None
    data = render_final(view, outcome.to_json())
    assert png(data).size == final_layout(read_board(view), outcome.to_json()).size
