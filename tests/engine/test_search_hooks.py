"""The hooks a game passes to the search: a faster rollout player, and the candidate
filter that leaves out moves not worth a simulation (Neotopia's "back")."""

from __future__ import annotations

from typing import Any

from engine.core import Rng
from engine.core.protocol import Action
from engine.core.search import SearchConfig, SearchPlayer
from engine.neotopia import GAME as NEOTOPIA
from engine.neotopia.actions import Back
from engine.neotopia.search import FastGreedy as NeotopiaFastGreedy
from engine.quadropolis import GAME as QUADROPOLIS
from engine.quadropolis.determinize import FastGreedy as QuadropolisFastGreedy
from tests.engine.core.test_search import Move, Toy, ToyGame, _determinize


class Counting:
    """A rollout player that counts its calls (and plays the toy's first move)."""

    name = "first"

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, state: Toy, seat: int, rng: Rng) -> Action:
        self.calls += 1
        return ToyGame().legal_actions(state, seat)[0]


def _player(**kw: Any) -> SearchPlayer:
    return SearchPlayer(ToyGame(), _determinize, SearchConfig(iterations=12),  # type: ignore[arg-type]
                        **kw)


def test_the_given_rollout_player_plays_the_simulations_and_survives_with_config() -> None:
    policy = Counting()
    player = _player(policy=policy)
    player.choose(Toy(rng=3), 0, Rng.from_seed(3))
    assert policy.calls >= 12  # seat 1's pass in every simulation
    before = policy.calls
    player.with_config(iterations=6).choose(Toy(rng=3), 0, Rng.from_seed(3))
    assert policy.calls > before
    before = policy.calls
    # Asking for another rollout kind drops the given player (it stands for the old one).
    player.with_config(rollout="greedy").choose(Toy(rng=3), 0, Rng.from_seed(3))
    assert policy.calls == before


def test_candidates_leave_moves_out_of_the_search() -> None:
    def no_win(state: Any, seat: int, actions: list[Action]) -> list[Action]:
        return [a for a in actions if a != Move("win")]

    assert _player().choose(Toy(rng=5), 0, Rng.from_seed(5)) == Move("win")
    narrowed = _player(candidates=no_win)
    assert narrowed.choose(Toy(rng=5), 0, Rng.from_seed(5)) == Move("coin")
    assert narrowed.with_config(iterations=20).choose(Toy(rng=5), 0, Rng.from_seed(5)) \
        == Move("coin")

    def nothing(state: Any, seat: int, actions: list[Action]) -> list[Action]:
        return []

    # A filter that leaves nothing leaves everything: the seat must still move.
    assert _player(candidates=nothing).choose(Toy(rng=5), 0, Rng.from_seed(5)) == Move("win")


def test_neotopia_search_never_goes_back() -> None:
    """At every placement of a game, "back" is legal and never chosen."""
    search = NEOTOPIA.ai("search")
    assert isinstance(search, SearchPlayer)
    search = search.with_config(iterations=12, width=4)
    greedy = NEOTOPIA.ai("greedy")
    state = NEOTOPIA.setup(4, {}, 5)
    rng = Rng.from_seed(5)
    checked = 0
    while NEOTOPIA.outcome(state) is None and checked < 20:
        seat = state.current
        legal = NEOTOPIA.legal_actions(state, seat)
        if Back() in legal and len(legal) > 2:
            assert not isinstance(search.choose(state, seat, Rng.from_seed(checked)), Back)
            checked += 1
        NEOTOPIA.apply(state, seat, greedy.choose(state, seat, rng))
    assert checked == 20


def test_each_search_rolls_out_with_its_fast_greedy_player() -> None:
    for game, kind in ((NEOTOPIA, NeotopiaFastGreedy), (QUADROPOLIS, QuadropolisFastGreedy)):
        search = game.ai("search")
        assert isinstance(search, SearchPlayer)
        assert isinstance(search._policy, kind)
        assert isinstance(search.with_config(iterations=2)._policy, kind)
