"""The AI players: legal moves only, and a greedy player clearly stronger than random."""

from __future__ import annotations

import pytest

from engine.core.play import head_to_head
from engine.core.rng import Rng
from engine.quadropolis import GAME


@pytest.mark.parametrize("kind", ["random", "greedy"])
@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_ai_moves_are_legal_to_the_end(kind: str, mode: str) -> None:
    state = GAME.setup(3, {"mode": mode, "squares": True}, 31)
    ai = GAME.ai(kind)
    rng = Rng.from_seed(3)
    while GAME.outcome(state) is None:
        seat = state.to_play
        assert seat is not None
        action = ai.choose(state, seat, rng)
        assert action in GAME.legal_actions(state, seat)
        GAME.apply(state, seat, action)


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_greedy_beats_three_random_players(mode: str) -> None:
    """The benchmark plays 200 games (benchmarks/quadropolis.py); 24 seeded games here."""
    won, share = head_to_head(GAME, 4, 24, options={"mode": mode})
    assert share >= 0.6, (won, share)


def test_unknown_ai_kind_is_refused() -> None:
    with pytest.raises(KeyError):
        GAME.ai("clairvoyant")
