"""Where bots think: cheap AI kinds on the event loop, CPU-bound ones in a process pool.

The search player spends up to about a second of CPU per move; on the event loop that
second would freeze every table of the process. So a *pooled* kind (``search`` by
default) is asked of a worker process: the state goes there as its JSON form, the game
is looked up by name in the worker (its module imported first, so a game registered by
a test is found too), and the action comes back as JSON. The AI's generator is seeded
by the caller from the table and version, so the choice is the same inline and pooled:
replays and tests stay deterministic.

``random`` and ``greedy`` stay inline: one Ginkgopolis greedy move costs well under a
millisecond (``benchmarks/service.py --stall`` prints it), less than sending it to a
worker would.

The pool starts at the first pooled choice and is shut down with the service
(``TableService.close``). A worker that dies (``BrokenProcessPool``) costs one move: the
caller gets ``None`` and plays a fallback, and the next choice builds a new pool. A
bot process that dies, even by SIGKILL, takes its workers with it (their lifeline pipe
closes), and with them the fork server and the resource tracker.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from typing import Any

from engine.core import Rng, get_game

log = logging.getLogger(__name__)

POOLED_KINDS = frozenset({"search"})
WORKERS = 2  # the machine's cores are shared with the bot's own process
# A choice that takes longer is given up (the search spends about a second): its workers
# are stopped, the move falls back, and the next choice builds a new pool.
THINK_SECONDS = 60.0
ORPHANED = 70  # a worker's exit status when the bot died before it


@dataclass(frozen=True)
class ThinkJob:
    """One choice to make, as plain picklable values."""

    module: str  # the game's module, imported in the worker so the game is registered
    game: str
    state: Mapping[str, Any]  # the engine state's JSON form
    seat: int
    kind: str
    seed: int


def choose_json(job: ThinkJob) -> dict[str, Any]:
    """The AI's choice for ``job`` as the action's JSON form. Runs in a worker process
    (and inline where no pool is wanted): only ``job`` is read, nothing of the caller."""
    importlib.import_module(job.module)
    game = get_game(job.game)
    state = game.state_from_json(job.state)
    action = game.ai(job.kind).choose(state, job.seat, Rng.from_seed(job.seed))
    return dict(action.to_json())


def _warm() -> None:
    importlib.import_module("engine.core.search")


def _background(lifeline: Connection | None = None) -> None:
    # A worker yields the CPU to the bot's own process: on a busy machine the event loop
    # answers clicks first, and a bot's move waits a little longer.
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    # Ctrl-C in a terminal reaches the whole process group: the worker leaves it to the
    # bot's process, which saves the table and stops the pool (no worker traceback).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if lifeline is not None:
        threading.Thread(target=_die_with_the_bot, args=(lifeline,), name="lifeline",
                         daemon=True).start()


def _die_with_the_bot(lifeline: Connection) -> None:
    # Nothing is ever written to the lifeline: it turns readable at end of file, when the
    # bot's process, its only writer, is gone (even by SIGKILL). A worker then stops at
    # once, mid-thought if need be: nobody is left to read its answer.
    with contextlib.suppress(OSError):
        multiprocessing.connection.wait([lifeline])
    os._exit(ORPHANED)


# Why a pipe, not a parent-death signal (prctl PR_SET_PDEATHSIG): a forkserver worker's
# parent is the fork server, not the bot, and the fork server only exits when no process
# holds its "alive" pipe, which every worker it forked holds. So the worker would wait
# for the fork server and the fork server for the worker, for ever; and the resource
# tracker, whose pipe the workers hold too, with them. Once the workers are gone, both
# see end of file on their pipes and exit: the lifeline frees all of them. (Nor would
# the signal suit the spawn method, where the bot is the parent: it fires when the
# *thread* that forked ends, and pools start from helper threads that may end first.)
_lifeline: tuple[int, Connection, Connection] | None = None  # (pid, reader, writer)
_lifeline_lock = threading.Lock()


def _lifeline_reader(context: BaseContext) -> Connection:
    """The read end of this process's lifeline, given to each worker; the write end
    stays here, open for the process's whole life (the bot's death closes it)."""
    global _lifeline
    with _lifeline_lock:
        # A process forked from the bot makes its own: sharing the bot's writer, its
        # workers would live as long as the bot too, not as long as their own parent.
        if _lifeline is None or _lifeline[0] != os.getpid():
            reader, writer = context.Pipe(duplex=False)
            _lifeline = (os.getpid(), reader, writer)
        return _lifeline[1]


def _process_pool() -> Executor:
    # forkserver: a worker is not forked from a process that runs threads (the
    # database's, the event loop's helpers), which may leave locks held in the child.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    return ProcessPoolExecutor(max_workers=WORKERS, mp_context=context,
                               initializer=_background,
                               initargs=(_lifeline_reader(context),))


def _stop_workers(executor: Executor) -> None:
    """Terminate a process pool's workers (a stuck one would hold a core for ever)."""
    processes: dict[int, Any] = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()


class Thinker:
    """Asks an AI for a move without blocking the event loop.

    ``pooled``: the AI kinds sent to the executor (all others are cheap and asked
    inline by the service). ``executor``: builds the executor (a process pool by
    default; tests may give a thread pool). ``inline=True`` keeps every kind on the
    event loop (the old path, for the benchmark that compares them)."""

    def __init__(self, *, pooled: frozenset[str] = POOLED_KINDS,
                 executor: Callable[[], Executor] = _process_pool,
                 inline: bool = False, timeout: float = THINK_SECONDS,
                 workers: int = WORKERS) -> None:
        self.pooled = pooled
        self.timeout = timeout
        # As many choices in the executor as it has workers: the others wait here, so the
        # timeout counts a choice's own thinking, never its wait behind other tables'.
        self._slots = asyncio.Semaphore(workers)
        self._factory = executor
        self._executor: Executor | None = None
        self._starting = asyncio.Lock()
        self.inline_all = inline
        self.rebuilt = 0  # pools replaced after a broken one (tests, logs)

    def is_pooled(self, kind: str) -> bool:
        return not self.inline_all and kind in self.pooled

    @property
    def started(self) -> bool:
        return self._executor is not None

    async def _ready(self) -> Executor:
        """The executor, started off the event loop: starting worker processes (and the
        fork server, the first time) would stall every table for a tenth of a second."""
        async with self._starting:
            if self._executor is None:
                self._executor = await asyncio.to_thread(self._start)
            return self._executor

    def _start(self) -> Executor:
        executor = self._factory()
        executor.submit(_warm).result()  # the workers run, and have imported the engine
        return executor

    async def choose(self, job: ThinkJob) -> dict[str, Any] | None:
        """The action's JSON form; None when the worker died or thought past ``timeout``
        (the pool is rebuilt for the next choice). An exception the AI raised is raised
        here."""
        async with self._slots:
            return await self._choose(job)

    async def _choose(self, job: ThinkJob) -> dict[str, Any] | None:
        executor = await self._ready()
        try:
            return await asyncio.wait_for(
                asyncio.get_running_loop().run_in_executor(executor, choose_json, job),
                self.timeout)
        except BrokenProcessPool:
            log.error("AI worker died while choosing for seat %d (%s); the pool is rebuilt",
                      job.seat, job.kind)
        except TimeoutError:
            log.error("AI %s took over %.0f s for seat %d; its pool is stopped and rebuilt",
                      job.kind, self.timeout, job.seat)
            _stop_workers(executor)
        if self._executor is executor:
            self._executor = None
            self.rebuilt += 1
        executor.shutdown(wait=False, cancel_futures=True)
        return None

    def shutdown(self) -> None:
        """Stop the workers (a choice under way is abandoned: its table's ``bot_turn``
        stays set, and the next sweep plays it)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            # The workers are stopped first, so the pool's manager thread ends at once and
            # is joined here: left running into the interpreter's exit, Python 3.11's
            # atexit hook may write to its closed wake-up pipe ("Bad file descriptor").
            _stop_workers(executor)
            executor.shutdown(wait=True, cancel_futures=True)
