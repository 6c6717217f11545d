"""The search AI's Quadropolis pieces (kept out of the rules modules).

Nobody sees the face-down tiles or the coming rounds (drawn by the generator): a
determinization re-deals the face-down tiles from their sorted pool and draws the
generator anew, so it depends only on the public view and the seed. A simulation is
cut after a few actions and valued by ``city_value``, the greedy player's estimate.
"""

from __future__ import annotations

from engine.core.protocol import Game
from engine.core.rng import Rng
from engine.core.search import SearchConfig, SearchPlayer, lead_value, one_ply_prior
from engine.quadropolis.ai import city_value, progress_of
from engine.quadropolis.scoring import city_of
from engine.quadropolis.state import State


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
    worths = [city_value(city_of(state, s), progress) for s in range(state.seats)]
    return lead_value(worths, seat, 8.0)


def search_player(game: Game[State]) -> SearchPlayer:
    """The ``search`` AI: the few actions whose turn, played on greedily, values best,
    then greedy rollouts of a few actions, valued by ``city_value``."""
    prior = one_ply_prior(game, determinize, evaluate)
    config = SearchConfig(iterations=16, width=6, horizon=6)
    return SearchPlayer(game, determinize, config, prior=prior, evaluate=evaluate)
