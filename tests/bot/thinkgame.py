"""``fakethink``: the fake game of fakegame.py with AI kinds to test where bots think.

- ``search``: a seeded choice that depends on the generator (the same inline and in a
  worker process only if the seed travels with the job);
- ``gated``: blocks on ``GATE`` (a threading.Event) before choosing, and records what
  it saw in ``SEEN``: with a thread pool, a test decides when the AI has finished
  thinking, without any timing;
- ``crash``: kills its worker process in the first round (``BrokenProcessPool``), then
  plays like ``search``;
- ``hang``: never answers.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import fakegame
from fakegame import FakeGame, GreedyAI, RandomAI, State

from engine.core import Rng, register

NAME = "fakethink"
GATE = threading.Event()
SEEN: list[tuple[int, int]] = []  # (seat, picks made) as each gated choice began
GATE_TIMEOUT = 30.0  # a test that forgets to open the gate fails instead of hanging


class SearchAI:
    name = "search"

    def choose(self, state: State, seat: int, rng: Rng) -> Any:
        legal = GAME.legal_actions(state, seat)
        return legal[(rng.randbelow(1000) + sum(state.points)) % len(legal)]


class GatedAI:
    name = "gated"

    def choose(self, state: State, seat: int, rng: Rng) -> Any:
        SEEN.append((seat, sum(p is not None for p in state.picks)))
        if not GATE.wait(GATE_TIMEOUT):
            raise TimeoutError("the test never opened the gate")
        return SearchAI().choose(state, seat, rng)


class CrashAI:
    name = "crash"

    def choose(self, state: State, seat: int, rng: Rng) -> Any:
        if state.round == 0 and state.phase == "pick":
            os._exit(3)  # a worker process dies (never call this kind inline)
        return SearchAI().choose(state, seat, rng)


class HangAI:
    name = "hang"

    def choose(self, state: State, seat: int, rng: Rng) -> Any:
        while True:  # a worker that never answers (never call this kind inline)
            pass


class ThinkGame(FakeGame):
    name = NAME

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        return fakegame.GAME.legal_actions(state, seat)

    def ai(self, kind: str) -> Any:
        kinds: dict[str, Any] = {"random": RandomAI, "greedy": GreedyAI, "search": SearchAI,
                                 "gated": GatedAI, "crash": CrashAI, "hang": HangAI}
        if kind not in kinds:
            raise KeyError(kind)
        return kinds[kind]()


GAME = register(ThinkGame())
