"""The search AI's Skybridge pieces: Skybridge is open information, so a
determinization is the state itself with the generator (used only at setup) drawn anew."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.protocol import Action, Game
from engine.core.rng import Rng
from engine.core.search import SearchConfig, SearchPlayer
from engine.skybridge.ai import GreedyAI
from engine.skybridge.state import SkybridgeState


def determinize(state: SkybridgeState, seat: int, seed: int) -> SkybridgeState:
    out = state.copy()
    out.rng = Rng.from_seed(seed).next_u64()
    return out


def _prior(state: SkybridgeState, seat: int, actions: Sequence[Action]) -> list[float]:
    return [float(v) for v in GreedyAI().values(state, seat, actions)]


def search_player(game: Game[SkybridgeState]) -> SearchPlayer:
    """The ``search`` AI: the greedy player's best few placements, greedy rollouts."""
    return SearchPlayer(game, determinize, SearchConfig(iterations=32, width=6), prior=_prior)
