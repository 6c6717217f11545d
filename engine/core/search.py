"""A search player for every game: determinized rollouts under sequential halving.

Method. This is information-set Monte Carlo search at depth one (the "flat" form of
single-observer IS-MCTS): every simulation starts from a *determinization*, a full
state that agrees with everything the deciding seat can see and re-deals everything it
cannot (other hands, tiles behind screens, deck and supply order, face-down tiles,
other seats' unrevealed picks, the generator's state). The candidate action is applied
to it and the game is played on with a fast policy (each game's greedy player by
default) to the end, or for ``horizon`` actions and then valued by the game's
``evaluate`` (a cut never falls inside the seat's own turn). The value of a finished
game is the seat's win share, with its rank as a smaller, denser term; a cut-off is
valued by the logistic of the seat's estimated lead (``lead_value``).

Why not a deep tree. The engines are pure Python: a full game costs tens of
milliseconds, so at one second per move only tens to a few hundred simulations fit.
A deep IS-MCTS tree would spread them over nodes that are each visited a handful of
times; with these budgets a one-ply search that improves on a good rollout policy
(rollout policy improvement) is the stronger and far more predictable choice. The
budget is spent by *sequential halving*, which is built for picking the best arm with
a fixed budget: every round gives each surviving action the same simulations (common
random numbers: the same determinizations and rollout seeds for every action, so their
difference is not noise of the deal), then keeps the better half. A game may supply a
*prior* that ranks actions so that only the ``width`` most promising are searched: its
greedy player's values where it has them, else ``one_ply_prior`` (the evaluation after
the action and the rest of the seat's turn).

Per-game pieces (each game's ``ai("search")`` builds the player): Ginkgopolis
(engine/ginkgopolis/determinize.py), Skybridge (engine/skybridge/search.py, open
information), Quadropolis (engine/quadropolis/determinize.py), Neotopia
(engine/neotopia/search.py). A game may also pass a faster rollout player that decides
exactly as its greedy one (Quadropolis and Neotopia cache the greedy evaluations, about
3-4x faster, checked move by move in their tests) and a filter of the moves worth
searching (Neotopia leaves out "back").

Anchor. A cut-off value sees the points of the moment, not the plans a rollout
player's rules encode (which cards to keep, which region to open). With ``anchor`` set,
the rollout player's own choice is always one of the arms, never halved away, and it is
kept unless another arm beats it by the anchor in logits of its value: the search then
corrects the policy where it finds a clear gain instead of replacing it move by move.
In Neotopia this took the search from about half its games to about three in five
(engine/neotopia/search.py, "Fourth tuning").

Soundness. The search reads the real state only through ``legal_actions`` of its own
seat and the determinizer. A determinizer must depend only on the seat's view and the
seed (it re-deals from sorted pools, so two states that differ only in other seats'
secrets give the same determinization): the choice then depends only on the view, the
seed and the budget, which tests/engine/test_search_secrets.py checks for every game.
The anchor is the rollout player's choice on the first determinization, not on the
real state. Simultaneous decisions are sound because the determinizer clears every
unrevealed decision of another seat: in the simulations, that seat decides again, by
the policy.

Budget. ``iterations`` simulations make the choice deterministic for a seed (tests,
replays, benchmarks); ``time_limit`` optionally stops earlier in play.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.core.protocol import Action, AIPlayer, Game, Outcome
from engine.core.rng import Rng

Determinizer = Callable[[Any, int, int], Any]
Prior = Callable[[Any, int, Sequence[Action]], Sequence[float]]
Evaluator = Callable[[Any, int], float]
Candidates = Callable[[Any, int, list[Action]], list[Action]]

_MASK = (1 << 64) - 1


@dataclass(frozen=True)
class SearchConfig:
    """How one game's search spends its budget.

    ``iterations``: simulations per decision (the deterministic budget).
    ``rollout``: the AI kind that plays every seat inside a simulation.
    ``width``: with a prior, how many of the best-ranked actions are searched.
    ``horizon``: actions played in a simulation before ``evaluate`` cuts it off, at
    the first moment the searching seat is not the one to act (None plays to the end).
    ``time_limit``: seconds; stops the search early in play (None: never).
    ``margin``: if set, a finished game is valued half by the win share and half by
    ``lead_value`` of the final totals with this scale: a denser signal than winning
    alone, for games with many players and close scores.
    ``anchor``: if set, the rollout player's own choice is always searched and is kept
    unless another action beats it by at least this much, in logits of the value at the
    policy's choice (with ``lead_value`` of scale s, 1/s is one point of lead).
    """

    iterations: int = 64
    rollout: str = "greedy"
    width: int = 8
    horizon: int | None = None
    time_limit: float | None = None
    margin: float | None = None
    anchor: float | None = None


def outcome_value(outcome: Outcome, seat: int) -> float:
    """Win share (a win shared by k counts 1/k) plus a small term for the rank reached."""
    seats = [s for s in outcome.standings]
    mine = next(s for s in seats if s.seat == seat)
    winners = [s for s in outcome.winners]
    share = 1.0 / len(winners) if mine.rank == 1 else 0.0
    n = len(seats)
    rank_term = (n - mine.rank) / (n - 1) if n > 1 else 1.0
    return 0.8 * share + 0.2 * rank_term


def lead_value(worths: Sequence[float], seat: int, scale: float) -> float:
    """An evaluation in (0, 1) from each seat's estimated worth: the logistic of the lead
    over the best other seat, ``scale`` being a lead that is worth about 73%."""
    others = [w for s, w in enumerate(worths) if s != seat]
    lead = worths[seat] - max(others) if others else worths[seat]
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, lead / scale))))


def one_ply_prior(
    game: Game[Any], determinize: Determinizer, evaluate: Evaluator, policy: str = "greedy",
    *, player: AIPlayer[Any] | None = None,
) -> Prior:
    """A prior for games without a cheap greedy value: ``evaluate`` after each action and
    the rest of the seat's own turn played by ``policy`` (or by ``player``, e.g. a faster
    equivalent of it), on a copy of the (already determinized) state the search passes in."""
    if player is None:
        player = game.ai(policy)

    def prior(state: Any, seat: int, actions: Sequence[Action]) -> list[float]:
        values = []
        for action in actions:
            world = determinize(state, seat, 0)
            game.apply(world, seat, action)
            rng = Rng.from_seed(0)
            for _ in range(50):
                if game.outcome(world) is not None or seat not in game.pending(world).waiting:
                    break
                game.apply(world, seat, player.choose(world, seat, rng))
            values.append(evaluate(world, seat))
        return values

    return prior


class SearchPlayer:
    """An :class:`AIPlayer` that searches; one per game, built by the game's ``ai``."""

    name = "search"

    def __init__(
        self,
        game: Game[Any],
        determinize: Determinizer,
        config: SearchConfig = SearchConfig(),
        *,
        prior: Prior | None = None,
        evaluate: Evaluator | None = None,
        policy: AIPlayer[Any] | None = None,
        candidates: Candidates | None = None,
    ) -> None:
        if config.horizon is not None and evaluate is None:
            raise ValueError("a horizon needs an evaluation function")
        self.game = game
        self.determinize = determinize
        self.config = config
        self.prior = prior
        self.evaluate = evaluate
        # A game may pass a faster player that decides exactly as ``config.rollout``
        # (a cache of its evaluations), so that more simulations fit in the budget.
        self._policy: AIPlayer[Any] = policy if policy is not None else game.ai(config.rollout)
        self._given_policy = policy
        self.candidates = candidates

    def with_config(self, **changes: Any) -> SearchPlayer:
        """The same player with other settings, e.g. a tiny budget for tests."""
        return SearchPlayer(self.game, self.determinize, replace(self.config, **changes),
                            prior=self.prior, evaluate=self.evaluate,
                            policy=None if "rollout" in changes else self._given_policy,
                            candidates=self.candidates)

    def choose(self, state: Any, seat: int, rng: Rng) -> Action:
        legal = self.game.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        base = rng.next_u64()
        # Candidates come from a determinization, not the real state, so that nothing
        # here can read another seat's secret; the seat's own actions are the same.
        first = self.determinize(state, seat, base)
        arms = self.game.legal_actions(first, seat)
        if self.candidates is not None:
            # A game may leave out moves never worth a simulation (Neotopia's "back").
            arms = self.candidates(first, seat, arms) or arms
        if len(arms) == 1:
            return arms[0]
        anchor: Action | None = None
        if self.config.anchor is not None:
            anchor = self._policy.choose(first, seat, Rng.from_seed(base ^ 0xA11C))
        if self.prior is not None and len(arms) > self.config.width:
            values = self.prior(first, seat, arms)
            order = sorted(range(len(arms)), key=lambda i: (-values[i], i))
            kept = set(order[: self.config.width])
            arms = [a for i, a in enumerate(arms) if i in kept or a == anchor]
        if anchor is not None and anchor not in arms:
            arms.append(anchor)
        return self._halving(state, seat, arms, base,
                             None if anchor is None else arms.index(anchor))

    # ------------------------------------------------------------------ search
    def _halving(self, state: Any, seat: int, arms: list[Action], base: int,
                 anchor: int | None = None) -> Action:
        """Sequential halving over ``arms``; ``anchor``: the index of the policy's choice,
        never halved away."""
        cfg = self.config
        deadline = None if cfg.time_limit is None else time.perf_counter() + cfg.time_limit
        alive = list(range(len(arms)))
        kept = set() if anchor is None else {anchor}
        total = [0.0] * len(arms)
        count = [0] * len(arms)
        rounds = max(1, math.ceil(math.log2(len(arms))))
        left = cfg.iterations
        sample = 0
        for r in range(rounds):
            per = max(1, (left // (rounds - r)) // len(alive))
            seeds = [(base + (sample + j + 1) * 0x9E3779B97F4A7C15) & _MASK for j in range(per)]
            sample += per
            for seed in seeds:
                for i in alive:
                    total[i] += self.simulate(state, seat, arms[i], seed)
                    count[i] += 1
                    left -= 1
                if deadline is not None and time.perf_counter() > deadline:
                    return self._pick(arms, alive, total, count, anchor)
            if len(alive) <= 1 or left <= 0:
                break
            ranked = sorted(alive, key=lambda i: (-total[i] / count[i], i))
            alive = sorted(set(ranked[: max(1, (len(alive) + 1) // 2)]) | kept)
        return self._pick(arms, alive, total, count, anchor)

    def _pick(self, arms: list[Action], alive: list[int], total: list[float],
              count: list[int], anchor: int | None) -> Action:
        best = self._best(alive, total, count)
        margin = self.config.anchor
        if anchor is None or margin is None or best == anchor:
            return arms[best]
        # Keep the policy's choice unless the search clearly beats it: a static value
        # cut at the end of a turn cannot see the plans the policy's rules encode.
        mine, theirs = total[best] / count[best], total[anchor] / max(1, count[anchor])
        slope = max(theirs * (1.0 - theirs), 1e-6)
        return arms[best] if mine - theirs >= margin * slope else arms[anchor]

    @staticmethod
    def _best(alive: list[int], total: list[float], count: list[int]) -> int:
        return min(alive, key=lambda i: (-total[i] / max(1, count[i]), i))

    def simulate(self, state: Any, seat: int, action: Action, seed: int) -> float:
        """One simulation: determinize with ``seed``, play ``action``, then the policy."""
        game = self.game
        world = self.determinize(state, seat, seed)
        game.apply(world, seat, action)
        rng = Rng.from_seed(seed ^ 0x5EA2C4)
        steps = 0
        horizon = self.config.horizon
        while True:
            outcome = game.outcome(world)
            if outcome is not None:
                if self.config.margin is None:
                    return outcome_value(outcome, seat)
                totals = [0.0] * len(outcome.standings)
                at = 0
                for i, s in enumerate(outcome.standings):
                    totals[i] = float(s.total)
                    if s.seat == seat:
                        at = i
                return 0.5 * outcome_value(outcome, seat) + 0.5 * lead_value(
                    totals, at, self.config.margin
                )
            waiting = game.pending(world).waiting
            # Never cut inside the seat's own turn (a take before its placement, a
            # Neotopia turn of several steps): its value shows only once the turn is done.
            if horizon is not None and steps >= horizon and seat not in waiting:
                assert self.evaluate is not None
                return self.evaluate(world, seat)
            who = min(waiting)
            game.apply(world, who, self._policy.choose(world, who, rng))
            steps += 1
