"""AI players: a random one, and a greedy one that looks one placement ahead."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from engine.core.protocol import Action
from engine.core.rng import Rng
from engine.skybridge.actions import Place
from engine.skybridge.board import FOUNDATIONS, Board
from engine.skybridge.pieces import STOREYS
from engine.skybridge.rules import current_slot, legal_moves, piece_colour
from engine.skybridge.scoring import seat_totals
from engine.skybridge.seating import seat_colours
from engine.skybridge.state import SkybridgeState


class RandomAI:
    name = "random"

    def choose(self, state: SkybridgeState, seat: int, rng: Rng) -> Place:
        return rng.choice(legal_moves(state, seat))


class GreedyAI:
    """Play the placement that most improves its lead over the best opponent.

    A seat's worth is its score if the game ended now, plus, for every roof it
    still holds, the height the tallest open tower may reach by the end (its
    height now plus an even share of the storeys still in the supplies). Without
    that second term the AI roofs 3-storey towers on its second move and loses
    nearly every game to random play. Ties are broken at random.
    """

    name = "greedy"

    def choose(self, state: SkybridgeState, seat: int, rng: Rng) -> Place:
        legal = legal_moves(state, seat)
        values = self.values(state, seat, legal)
        top = max(values)
        return rng.choice([a for a, v in zip(legal, values, strict=True) if v == top])

    def values(self, state: SkybridgeState, seat: int, legal: Sequence[Action]) -> list[Fraction]:
        """The lead over the best opponent that each placement leaves (the search's prior)."""
        slot = current_slot(state)
        assert slot is not None
        storeys_left = _storeys_in_hand(state)
        roofs = [sum(state.supply[c]["roof"] for c in cs) for cs in seat_colours(state.seats)]
        out: list[Fraction] = []
        for action in legal:
            assert isinstance(action, Place)
            board = state.board.copy()
            board.place(piece_colour(state, slot, action), action.kind, action.at)
            left = storeys_left - STOREYS[action.kind] * len(action.at)
            if action.kind == "roof":
                held = [r - 1 if s == seat else r for s, r in enumerate(roofs)]
            else:
                held = roofs
            roof_worth = _roof_worth(board, left)
            totals = seat_totals(board, state.seats)
            worth = [t + roof_worth * h for t, h in zip(totals, held, strict=True)]
            out.append(worth[seat] - max(w for s, w in enumerate(worth) if s != seat))
        return out


def _storeys_in_hand(state: SkybridgeState) -> int:
    """Storeys that are not on the board yet; a bridge raises two towers."""
    total = 0
    for pools in (state.supply.values(), state.extra):
        for pool in pools:
            for kind, count in pool.items():
                total += count * STOREYS[kind] * (2 if kind == "bridge" else 1)
    return total


def _roof_worth(board: Board, storeys_left: int) -> Fraction:
    open_towers = [board.height(f) for f in FOUNDATIONS if not board.roofed(f)]
    if not open_towers:
        return Fraction(0)
    return max(open_towers) + Fraction(storeys_left, len(open_towers))
