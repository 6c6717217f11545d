"""The AI players: legal, deterministic for a seed, and the greedy one clearly stronger."""

from __future__ import annotations

from engine.core.play import head_to_head
from engine.core.rng import Rng
from engine.ginkgopolis import GAME


def test_greedy_beats_three_random_players_in_at_least_60_percent_of_200_games() -> None:
    wins, _ = head_to_head(GAME, 4, 200)
    assert wins >= 120, f"greedy won {wins} of 200"


def test_ai_choices_are_legal_and_repeatable() -> None:
    state = GAME.setup(3, {}, 4)
    for kind in ("random", "greedy"):
        ai = GAME.ai(kind)
        for seat in GAME.pending(state).waiting:
            a = ai.choose(state, seat, Rng.from_seed(7))
            assert a in GAME.legal_actions(state, seat)
            assert a == ai.choose(state, seat, Rng.from_seed(7))
