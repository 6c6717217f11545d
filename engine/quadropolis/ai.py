"""AI players: a random one, and a greedy one that looks one move ahead.

Both read only the public board (Quadropolis has no hands); the greedy player never
looks at a face-down tile.
"""

from __future__ import annotations

from engine.core.rng import Rng
from engine.quadropolis.actions import Discard, Place, QAction, Take
from engine.quadropolis.legal import legal_actions
from engine.quadropolis.rules import can_place, slot_target
from engine.quadropolis.scoring import Building, City, Scorer, city_of
from engine.quadropolis.state import State
from engine.quadropolis.tiles import TILES


class RandomAI:
    name = "random"

    def choose(self, state: State, seat: int, rng: Rng) -> QAction:
        return rng.choice(legal_actions(state, seat))


def city_value(city: City, progress: float) -> float:
    """What a city is worth, roughly and fast: every building activated, minus what the
    missing resources would cost, plus customers for the spare inhabitants.

    ``progress`` runs from 0 (the first turn) to 1 (the end). Early on a missing
    resource is cheap (later tiles bring more) and a spare one is worth a little;
    at the end a missing resource costs a building and a spare one is a penalty."""
    scorer = Scorer(city)
    full = scorer.always
    for i in range(len(city.buildings)):
        full |= 1 << i
    points = float(scorer.score(full))
    need_i = sum(b.cost_inhabitants for b in city.buildings)
    need_e = sum(b.cost_energy for b in city.buildings)
    missing = max(0, need_i - city.inhabitants) + max(0, need_e - city.energy)
    spare_i = max(0, city.inhabitants - need_i)
    spare_e = max(0, city.energy - need_e)
    shops = sum(1 for b in city.buildings if b.type == "shop")
    cap = city.tables.max_customers
    customers = min(spare_i, cap * shops)
    full_shops, rest = divmod(customers, cap) if cap else (0, 0)
    points += full_shops * city.tables.shop[cap] + city.tables.shop[rest]
    parks = sum(b.absorbs for b in city.buildings)
    unplaced = (spare_i - customers) + max(0, spare_e - parks)
    points -= (1.0 + 2.5 * progress) * missing
    points += unplaced * (0.5 - 1.5 * progress)
    return points


def with_tile(city: City, tile_id: str, row: int, col: int) -> City:
    tile = TILES[tile_id]
    buildings = []
    placed = False
    for b in city.buildings:
        if (b.row, b.col) == (row, col):
            buildings.append(Building(row, col, b.type, b.floors + 1, tile.vp, tile.square))
            placed = True
        else:
            buildings.append(b)
    if not placed:
        buildings.append(Building(row, col, tile.type, 1, tile.vp, tile.square))
        buildings.sort(key=lambda b: (b.row, b.col))
    return City(city.mode, tuple(buildings), city.inhabitants + tile.inhabitants,
                city.energy + tile.energy)


def progress_of(state: State) -> float:
    """How far the game is, from 0 before the first move to about 1 at the last."""
    done = (state.round - 1) * 4 + state.turn - 1
    return done / (state.rounds * 4 - 1)


class GreedyAI:
    """Take the tile whose best placement raises ``city_value`` most, and place it there."""

    name = "greedy"

    def choose(self, state: State, seat: int, rng: Rng) -> QAction:
        legal = legal_actions(state, seat)
        city = city_of(state, seat)
        progress = progress_of(state)
        base = city_value(city, progress)
        if state.phase == "place":
            assert state.taken is not None
            tile_id = str(state.taken["tile"])
            scored = [(self._placement(city, tile_id, a, progress) - base, i)
                      for i, a in enumerate(legal)]
            return legal[self._pick(scored, rng)]
        cache: dict[tuple[str, int], float] = {}
        scored = []
        for i, a in enumerate(legal):
            assert isinstance(a, Take)
            row, col = slot_target(a.slot, a.architect)
            on_site = state.site[row - 1][col - 1]
            gain = 0.0
            if on_site is not None and state.face_up[row - 1][col - 1]:
                key = (on_site, a.architect)
                if key not in cache:
                    cache[key] = self._best_place(state, seat, city, on_site, a.architect,
                                                  progress) - base
                gain = cache[key]
            # Spend low-value architects first; keep the Urbanist away from good tiles.
            scored.append((max(gain, 0.0) - 0.01 * a.architect, i))
        return legal[self._pick(scored, rng)]

    def _best_place(self, state: State, seat: int, city: City, tile_id: str, architect: int,
                    progress: float) -> float:
        board = state.board
        best = city_value(city, progress)
        for r in range(1, board.rows + 1):
            for c in range(1, board.cols + 1):
                if not can_place(state, seat, tile_id, architect, r, c):
                    best = max(best, city_value(with_tile(city, tile_id, r, c), progress))
        return best

    def _placement(self, city: City, tile_id: str, action: QAction, progress: float) -> float:
        if isinstance(action, Discard):
            return city_value(city, progress)
        assert isinstance(action, Place)
        return city_value(with_tile(city, tile_id, action.row, action.col), progress)

    @staticmethod
    def _pick(scored: list[tuple[float, int]], rng: Rng) -> int:
        best = max(v for v, _ in scored)
        ties = [i for v, i in scored if v >= best - 1e-9]
        return ties[rng.randbelow(len(ties))]
