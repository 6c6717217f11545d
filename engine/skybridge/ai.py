"""AI players: a random one, and a greedy one that looks one placement ahead."""

from __future__ import annotations

from engine.core.rng import Rng
from engine.skybridge.actions import Place
from engine.skybridge.rules import current_slot, legal_moves, piece_colour
from engine.skybridge.scoring import seat_totals
from engine.skybridge.state import SkybridgeState


class RandomAI:
    name = "random"

    def choose(self, state: SkybridgeState, seat: int, rng: Rng) -> Place:
        return rng.choice(legal_moves(state, seat))


class GreedyAI:
    """Play the placement that most improves its lead over the best opponent.

    Scores are what each seat would get if the game ended now; ties are broken
    at random so that the AI does not always open the same way.
    """

    name = "greedy"

    def choose(self, state: SkybridgeState, seat: int, rng: Rng) -> Place:
        legal = legal_moves(state, seat)
        slot = current_slot(state)
        assert slot is not None
        best: list[Place] = []
        best_value: int | None = None
        for action in legal:
            board = state.board.copy()
            board.place(piece_colour(state, slot, action), action.kind, action.at)
            totals = seat_totals(board, state.seats)
            others = [t for s, t in enumerate(totals) if s != seat]
            value = totals[seat] - max(others)
            if best_value is None or value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return rng.choice(best)
