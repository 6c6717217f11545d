"""AI players: a random one, and a greedy one that looks one placement ahead."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from engine.core.protocol import Action
from engine.core.rng import Rng
from engine.skybridge.actions import Place
from engine.skybridge.board import FOUNDATIONS
from engine.skybridge.pieces import STOREYS
from engine.skybridge.rules import current_slot, legal_moves, piece_colour
from engine.skybridge.scoring import points_by_colour
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
        colours = seat_colours(state.seats)
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
            points = points_by_colour(board)
            totals = [sum(points.get(c, 0) for c in cs) for cs in colours]
            # Each seat's worth is its total plus a roof's worth (the tallest open tower
            # plus an even share of the storeys left) per roof held, kept exact as
            # numerators over the number of open towers: one Fraction per placement.
            open_towers = [board.height(f) for f in FOUNDATIONS if not board.roofed(f)]
            n = len(open_towers)
            roof = n * max(open_towers) + left if n else 0
            worth = [n * t + roof * h for t, h in zip(totals, held, strict=True)] if n else totals
            lead = worth[seat] - max(w for s, w in enumerate(worth) if s != seat)
            out.append(Fraction(lead, n or 1))
        return out


def _storeys_in_hand(state: SkybridgeState) -> int:
    """Storeys that are not on the board yet; a bridge raises two towers."""
    total = 0
    for pools in (state.supply.values(), state.extra):
        for pool in pools:
            for kind, count in pool.items():
                total += count * STOREYS[kind] * (2 if kind == "bridge" else 1)
    return total
