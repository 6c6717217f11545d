"""Service figures, one per line: ``name value unit``.

    python benchmarks/service.py [--actions 400] [--tables 10000] [--game ginkgopolis]
                                 [--seats 4]
    python benchmarks/service.py --postgres [--actions 400] [--pg-tables 100000]
                                 [--seconds 10]
    python benchmarks/service.py --stall [--moves 24] [--inline]

By default ``--seats``-player tables of ``--game`` (4-player Ginkgopolis) whose players
choose at random; each action is followed by its floor, turn about:

The garbage collector is tuned as the bot tunes it once booted (``bot/gc_tuning.py``;
``--default-gc`` leaves CPython's).

- action_commit_p50/p99: an accepted action, from ``service.act`` to its durable commit
  (SQLite file, WAL, synchronous=FULL) and the notifications handed over;
- raw_commit_p50/p99: a bare sqlite3 transaction writing the same bytes as that action's
  save (the action JSON, the snapshot and the outbox rows, recorded from the save
  itself) to a file with the same pragmas, right after it;
- action_commit_p99_ratio: the first p99 over the second (goal: within 3x);
- action_cpu_p50/mean, raw_cpu_mean: CPU seconds of the process (every thread, SQLite's
  included) per action and per floor transaction;
- loop_cpu_per_action: the process's CPU over the whole play, per action: besides the
  act, its info and prompt, the delivery task making and marking its messages (a
  transport that does nothing), the tables' setup; the floor's turns taken out;
- bytes_written_per_action: what a save writes, against action_and_snapshot_bytes (goal:
  within 1.5x);
- start_10k_tables: open the store, check integrity, and schedule every deadline and
  reminder job of N running tables in APScheduler (a bare database: see
  ``benchmarks/start.py`` for a realistic one);
- idle_table_memory: Python heap held per idle running table after that start (its
  jobs), and cached_table_memory: one table kept live in the service's cache.

With ``--stall`` (issue 12, item 5), the event loop while a 4-player Ginkgopolis table
of four ``hard`` bots (the search) plays ``--moves`` moves, a probe task sleeping 5 ms at
a time and recording how late it wakes:

- loop_stall_max/p99_idle: the same probe on an idle loop, in the same run (the floor:
  what the machine's scheduling alone costs);
- loop_stall_max/p99_pooled: the AI in the process pool (the product's path);
- loop_stall_max/p99_inline: every AI on the event loop (the old path), side by side;
  ``--inline`` runs only that one, ``--pooled`` only the other;
- search_move_p50/max: the time from one bot move to the next (what a table waits);
- greedy_move_p99: one greedy choice (the ``normal`` level), which stays on the loop.

With ``--postgres``, the same on a PostgreSQL server started by ``pgserver`` (its
defaults: fsync and synchronous_commit on, so a commit is durable), the service running
as it does beside other processes (``TableService.share``):

- pg_action_commit_p50/p99 against pg_raw_commit_p50/p99: an asyncpg transaction on the
  same server writing the same bytes (the action JSON, the snapshot, the outbox rows),
  turn about with the service, and the CPU figures as above;
- pg_actions_per_second_Nproc for 1, 2 and 4 processes, each playing its own tables for
  ``--seconds`` (every action a durable commit);
- pg_start_N_tables: open the store, take the leases, and schedule every deadline and
  reminder job of N running tables (100,000 by default) in APScheduler.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from random_play import random_moves

from bot.gc_tuning import settle_after_start
from bot.service import Actor, Notification, TableService, TableSettings
from bot.store import SqliteStore, Store, canonical, open_store
from engine.core import Rng, get_game

# The collector tuned as the bot tunes it after its start (``--default-gc``: CPython's).
GC_AS_THE_BOT = True


class NullNotifier:
    async def deliver(self, notes: list[Notification]) -> None:
        return None


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def emit(name: str, value: float, unit: str) -> None:
    print(f"{name} {value:.3f} {unit}", flush=True)


class Written:
    """What one save wrote: the action's JSON, the table's snapshot, the outbox payloads.

    Spelled out (``canonical``) on first use, not inside the save: the spy must not add
    to the service's CPU the very encoding the store does once already. Nothing changes
    these objects after the save (the store encodes the same ones)."""

    def __init__(self, action: Any, snapshot: str, outbox: list[Any]) -> None:
        self._raw: tuple[Any, list[Any]] | None = (action, outbox)
        self.snapshot = snapshot
        self._action = ""
        self._outbox: list[str] = []

    def settle(self) -> Written:
        """Encode now (before the floor's clock starts)."""
        if self._raw is not None:
            action, outbox = self._raw
            self._action = canonical(action) if action is not None else ""
            self._outbox = [canonical(p) for p in outbox]
            self._raw = None
        return self

    @property
    def action(self) -> str:
        return self.settle()._action

    @property
    def outbox(self) -> list[str]:
        return self.settle()._outbox

    @property
    def size(self) -> int:
        return len(self.action) + len(self.snapshot) + sum(len(o) for o in self.outbox)


@dataclass
class Timed:
    """Wall and CPU seconds of each service action and of its floor, run turn about."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    raw_wall: list[float] = field(default_factory=list)
    raw_cpu: list[float] = field(default_factory=list)
    written: list[Written] = field(default_factory=list)
    # The process's CPU over the whole play (info, prompt, act, the delivery task's
    # sending and marking, the tables' setup), the floor's turns taken out.
    loop_cpu: float = 0.0
    spy_cpu: float = 0.0  # the benchmark's own encoding of what was saved, taken out


def spy_on_saves(store: Store) -> list[Written]:
    """Record the bytes each ``save`` writes (the floor writes the same)."""
    saves: list[Written] = []
    save = store.save

    async def recorded(table: Any, **kwargs: Any) -> Any:
        action = kwargs.get("action")
        saves.append(Written(action.action if action is not None else None,
                             table.snapshot or "",
                             [r.payload for r in kwargs.get("outbox", ())]))
        return await save(table, **kwargs)

    store.save = recorded  # type: ignore[method-assign]
    return saves


class SqliteFloor:
    """A bare sqlite3 transaction on a file of its own with the store's pragmas, writing
    what the service's save wrote: the action row, the snapshot, the outbox rows."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.executescript(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, version INTEGER, snapshot TEXT);"
            "CREATE TABLE a (version INTEGER PRIMARY KEY, action TEXT);"
            "CREATE TABLE o (id INTEGER PRIMARY KEY, version INTEGER, payload TEXT);"
            "INSERT INTO t VALUES (1, 0, '');")
        self.version = 0

    async def write(self, written: Written) -> None:
        self.version += 1
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute("INSERT INTO a VALUES (?, ?)", (self.version, written.action))
        self.conn.execute("UPDATE t SET version = ?, snapshot = ? WHERE id = 1",
                          (self.version, written.snapshot))
        self.conn.executemany("INSERT INTO o (version, payload) VALUES (?, ?)",
                              [(self.version, o) for o in written.outbox])
        self.conn.execute("COMMIT")

    async def close(self) -> None:
        self.conn.close()


class PgFloor:
    """The same on the same PostgreSQL server, through one asyncpg connection."""

    def __init__(self, conn: asyncpg.Connection[asyncpg.Record]) -> None:
        self.conn = conn
        self.version = 0

    @classmethod
    async def open(cls, url: str) -> PgFloor:
        conn = await asyncpg.connect(url)
        await conn.execute(
            "CREATE TABLE raw_t (id BIGINT PRIMARY KEY, version BIGINT, snapshot TEXT); "
            "CREATE TABLE raw_a (version BIGINT PRIMARY KEY, action TEXT); "
            "CREATE TABLE raw_o (id BIGSERIAL PRIMARY KEY, version BIGINT, payload TEXT); "
            "INSERT INTO raw_t VALUES (1, 0, '')")
        return cls(conn)

    async def write(self, written: Written) -> None:
        self.version += 1
        async with self.conn.transaction():
            await self.conn.execute("INSERT INTO raw_a VALUES ($1, $2)", self.version,
                                    written.action)
            await self.conn.execute("UPDATE raw_t SET version = $1, snapshot = $2 "
                                    "WHERE id = 1", self.version, written.snapshot)
            await self.conn.executemany("INSERT INTO raw_o (version, payload) VALUES ($1, $2)",
                                        [(self.version, o) for o in written.outbox])

    async def close(self) -> None:
        await self.conn.close()


async def action_latency(tmp: Path, game: str, seats: int, count: int, *,
                         url: str | None = None) -> Timed:
    """``count`` actions of ``seats``-player tables of ``game``, each followed by its
    floor writing the same bytes: service and floor take turns, so a busy moment of the
    machine weighs on both alike."""
    store: Store = (await SqliteStore.open(tmp / "bench.sqlite3") if url is None
                    else await open_store(url))
    floor: SqliteFloor | PgFloor = (SqliteFloor(tmp / "raw.sqlite3") if url is None
                                    else await PgFloor.open(url))
    saves = spy_on_saves(store)
    service = TableService(store, NullNotifier(), cache_size=16)
    if url is not None:
        service.share(f"bench-{os.getpid()}")
        await service.boot()
    if GC_AS_THE_BOT:
        settle_after_start()  # as the bot does once booted (bot/gc_tuning.py)
    players = [Actor(f"u{i}", f"P{i}") for i in range(seats)]
    rng = Rng.from_seed(1)
    timed = Timed()
    loop_start = time.process_time()
    async for move in random_moves(service, game, players, rng):
        before = len(saves)
        wall, cpu = time.perf_counter(), time.process_time()
        await service.act(move.table, move.actor, move.json, version=move.version)
        timed.wall.append(time.perf_counter() - wall)
        timed.cpu.append(time.process_time() - cpu)
        # The player's save (a bot's reply, if any, is another action).
        spy = time.process_time()
        written = saves[before].settle()
        timed.spy_cpu += time.process_time() - spy
        timed.written.append(written)
        wall, cpu = time.perf_counter(), time.process_time()
        await floor.write(written)
        timed.raw_wall.append(time.perf_counter() - wall)
        timed.raw_cpu.append(time.process_time() - cpu)
        if len(timed.wall) == count:
            break
    await service.delivery.idle()
    timed.loop_cpu = (time.process_time() - loop_start - sum(timed.raw_cpu)
                      - timed.spy_cpu)
    await floor.close()
    await store.close()
    return timed


def emit_latency(prefix: str, timed: Timed) -> None:
    p99, raw99 = percentile(timed.wall, 99), percentile(timed.raw_wall, 99)
    emit(f"{prefix}action_commit_p50", percentile(timed.wall, 50) * 1000, "ms")
    emit(f"{prefix}action_commit_p99", p99 * 1000, "ms")
    emit(f"{prefix}raw_commit_p50", percentile(timed.raw_wall, 50) * 1000, "ms")
    emit(f"{prefix}raw_commit_p99", raw99 * 1000, "ms")
    emit(f"{prefix}action_commit_p99_ratio", p99 / raw99, "x")
    emit(f"{prefix}action_cpu_p50", percentile(timed.cpu, 50) * 1000, "ms")
    emit(f"{prefix}action_cpu_mean", statistics.fmean(timed.cpu) * 1000, "ms")
    emit(f"{prefix}raw_cpu_mean", statistics.fmean(timed.raw_cpu) * 1000, "ms")
    emit(f"{prefix}loop_cpu_per_action", timed.loop_cpu / len(timed.wall) * 1000, "ms")
    emit(f"{prefix}bytes_written_per_action",
         statistics.fmean(w.size for w in timed.written), "B")
    emit(f"{prefix}action_and_snapshot_bytes",
         statistics.fmean(len(w.action) + len(w.snapshot) for w in timed.written), "B")


async def fill_tables(path: Path, game: str, tables: int) -> None:
    """N running two-seat tables with their timers, written in bulk (setup, not measured)."""
    store = await SqliteStore.open(path)  # creates the schema
    await store.close()
    engine = get_game(game)
    state = engine.setup(2, engine.default_options(), 1)
    snapshot = canonical(engine.state_to_json(state))
    options = canonical(engine.default_options())
    now = time.time()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA synchronous=OFF")
    with conn:
        conn.executemany(
            "INSERT INTO tables (id, game, options, seed, status, version, snapshot, locale, "
            "host_id, deadline_seconds, reminders, timeout_policy, seat_order, max_seats, "
            "created_at, updated_at) VALUES (?, ?, ?, 1, 'running', 1, ?, 'en', 'u0', 86400, "
            "'[43200,3600]', 'ai', 'join', 2, ?, ?)",
            [(i, game, options, snapshot, now, now) for i in range(1, tables + 1)])
        conn.executemany(
            "INSERT INTO seats VALUES (?, ?, ?, ?, 0, NULL, 1, 1)",
            [(i, s, f"u{s}", f"P{s}") for i in range(1, tables + 1) for s in range(2)])
        timers = []
        for i in range(1, tables + 1):
            due = now + 3600 + (i % 86400)
            timers += [(i, 0, "deadline", due), (i, 0, "reminder", due - 1800)]
        conn.executemany("INSERT INTO timers VALUES (?, ?, ?, ?)", timers)
    conn.close()


async def start_time(path: Path, *, trace: bool) -> tuple[float, int, float]:
    """Seconds from opening the database to a started scheduler holding every job, and
    (with ``trace``, in a separate run since tracing slows Python down) the Python heap
    then held: store connection, service, jobs."""
    gc.collect()
    if trace:
        tracemalloc.start()
    baseline = tracemalloc.get_traced_memory()[0] if trace else 0
    started = time.perf_counter()
    store = await SqliteStore.open(path)
    scheduler = AsyncIOScheduler(timezone="UTC")
    service = TableService(store, NullNotifier(), scheduler=scheduler)
    report = await service.boot()
    scheduler.start()
    elapsed = time.perf_counter() - started
    held = 0.0
    if trace:
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - baseline
        tracemalloc.stop()
    scheduler.shutdown(wait=False)
    await store.close()
    return elapsed, report.jobs, held


async def cached_table_memory(tmp: Path, game: str) -> float:
    store = await SqliteStore.open(tmp / "cache.sqlite3")
    service = TableService(store, NullNotifier(), cache_size=1000)
    players = [Actor("a", "A"), Actor("b", "B")]
    ids = []
    for _ in range(50):
        info = await service.create(players[0], game, settings=TableSettings(seat_order="join"))
        await service.join(info.id, players[1])
        ids.append(info.id)
    for table_id in ids:
        await service.start(table_id, players[0])
    service._cache.clear()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for table_id in ids:
        await service.info(table_id)  # loads into the cache
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    await store.close()
    return (after - before) / len(ids)


async def pg_worker(url: str, game: str, seconds: float) -> None:
    """One process of the throughput figure: plays its own tables for ``seconds`` and
    prints how many actions it committed."""
    store = await open_store(url)
    service = TableService(store, NullNotifier())
    service.share(f"bench-{os.getpid()}")
    await service.boot()
    players = [Actor(f"{os.getpid()}a", "A"), Actor(f"{os.getpid()}b", "B")]
    rng = Rng.from_seed(os.getpid())
    done = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        info = await service.create(players[0], game, settings=TableSettings(seat_order="join"))
        await service.join(info.id, players[1])
        await service.start(info.id, players[0])
        while time.perf_counter() < end:
            current = await service.info(info.id)
            if current.status != "running":
                break
            seat = min(current.waiting)
            prompt = await service.prompt(info.id, players[seat])
            option = prompt.options[rng.randbelow(len(prompt.options))]
            await service.act(info.id, players[seat], option.json, version=prompt.version)
            done += 1
    print(done, flush=True)
    await service.delivery.idle()
    await store.close()


async def pg_throughput(url: str, game: str, processes: int, seconds: float) -> float:
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--pg-worker", url, "--game", game,
        "--seconds", str(seconds), stdout=asyncio.subprocess.PIPE) for _ in range(processes)]
    counts = [int((await p.communicate())[0].split()[-1]) for p in procs]
    return sum(counts) / seconds


async def pg_fill_tables(url: str, game: str, tables: int) -> None:
    """N running two-seat tables with their timers, written by the server itself."""
    store = await open_store(url)  # creates the schema
    await store.close()
    engine = get_game(game)
    snapshot = canonical(engine.state_to_json(engine.setup(2, engine.default_options(), 1)))
    now = time.time()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "INSERT INTO tables (id, game, options, seed, status, version, snapshot, locale, "
            "host_id, deadline_seconds, reminders, timeout_policy, seat_order, max_seats, "
            "created_at, updated_at) SELECT i, $1, $2, 1, 'running', 1, $3, 'en', 'u0', 86400, "
            "'[43200,3600]', 'ai', 'join', 2, $4, $4 FROM generate_series(1, $5) i",
            game, canonical(engine.default_options()), snapshot, now, tables)
        await conn.execute(
            "INSERT INTO seats (table_id, seat, user_id, name, is_bot) SELECT i, s, 'u' || s, "
            "'P' || s, false FROM generate_series(1, $1) i, generate_series(0, 1) s", tables)
        await conn.execute(
            "INSERT INTO timers (table_id, seat, kind, due_at) SELECT i, 0, k, $2 + 3600 + "
            "(i % 86400) - CASE k WHEN 'reminder' THEN 1800 ELSE 0 END "
            "FROM generate_series(1, $1) i, unnest(ARRAY['deadline', 'reminder']) k",
            tables, now)
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def pg_start_time(url: str) -> tuple[float, int]:
    started = time.perf_counter()
    store = await open_store(url)
    scheduler = AsyncIOScheduler(timezone="UTC")
    service = TableService(store, NullNotifier(), scheduler=scheduler)
    service.share(f"bench-{os.getpid()}")
    report = await service.boot()
    scheduler.start()
    elapsed = time.perf_counter() - started
    scheduler.shutdown(wait=False)
    await service.leases.release_all(store, time.time())
    await store.close()
    return elapsed, report.jobs


async def pg_main(args: argparse.Namespace) -> None:
    import pgserver

    with tempfile.TemporaryDirectory(prefix="urbanist-pgbench-") as name:
        server = pgserver.get_server(Path(name) / "pgdata", cleanup_mode="delete")
        try:
            url = server.get_uri()
            admin = await asyncpg.connect(url)
            for db in ("bench_actions", "bench_many"):
                await admin.execute(f"CREATE DATABASE {db}")
            await admin.close()
            head, sep, query = url.partition("?")
            base = head.rsplit("/", 1)[0]
            actions_url = f"{base}/bench_actions{sep}{query}"
            many_url = f"{base}/bench_many{sep}{query}"
            emit_latency("pg_", await action_latency(Path(name), args.game, args.seats,
                                                     args.actions, url=actions_url))
            for processes in (1, 2, 4):
                rate = await pg_throughput(actions_url, args.game, processes, args.seconds)
                emit(f"pg_actions_per_second_{processes}proc", rate, "actions/s")
            await pg_fill_tables(many_url, args.game, args.pg_tables)
            elapsed, jobs = await pg_start_time(many_url)
            emit(f"pg_start_{args.pg_tables}_tables", elapsed, "s")
            emit("pg_start_jobs_scheduled", jobs, "jobs")
        finally:
            server.cleanup()


async def stall(tmp: Path, moves: int, *, inline: bool) -> tuple[list[float], list[float]]:
    """The probe's lateness (s) while four search bots play ``moves`` moves, and the
    time between bot moves."""
    from bot.service.thinking import Thinker

    store = await SqliteStore.open(tmp / f"stall-{'inline' if inline else 'pooled'}.sqlite3")
    service = TableService(store, NullNotifier(), thinker=Thinker(inline=inline))
    host = Actor("host", "Host")
    info = await service.create(host, "ginkgopolis", seed=5, join=False, settings=TableSettings(
        ai_level="hard", timeout_policy="none"))
    for _ in range(4):
        await service.add_bot(info.id, host, level="hard")
    lags: list[float] = []
    stop = asyncio.Event()

    async def probe() -> None:
        while not stop.is_set():
            started = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append(time.perf_counter() - started - 0.005)

    probing = asyncio.create_task(probe())
    await asyncio.sleep(0.05)
    # Inline, the whole game would be played inside ``start``: it is a task, stopped
    # after ``moves`` moves like the pooled one.
    starting = asyncio.create_task(service.start(info.id, host))
    seen, at, between = 1, time.perf_counter(), []
    while seen < 1 + moves:
        await asyncio.sleep(0.01)
        record = await store.load_table(info.id)
        assert record is not None
        if record.version > seen:
            now = time.perf_counter()
            between += [(now - at) / (record.version - seen)] * (record.version - seen)
            seen, at = record.version, now
    stop.set()
    await probing
    starting.cancel()
    await asyncio.gather(starting, return_exceptions=True)
    await service.close()
    await asyncio.sleep(0.3)  # a commit cut by the cancel finishes (it is shielded)
    await store.close()
    return lags, between


async def idle_lags(seconds: float) -> list[float]:
    """The stall probe's lateness on a loop with nothing else to do."""
    lags: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        started = time.perf_counter()
        await asyncio.sleep(0.005)
        lags.append(time.perf_counter() - started - 0.005)
    return lags


def greedy_cost(count: int = 300) -> list[float]:
    """One Ginkgopolis greedy choice, over the states of a greedy game."""
    game = get_game("ginkgopolis")
    state = game.setup(4, game.default_options(), 3)
    rng = Rng.from_seed(3)
    timings: list[float] = []
    while game.outcome(state) is None and len(timings) < count:
        seat = min(game.pending(state).waiting)
        started = time.perf_counter()
        action = game.ai("greedy").choose(state, seat, rng)
        timings.append(time.perf_counter() - started)
        game.apply(state, seat, action)
    return timings


async def stall_main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="urbanist-bench-", dir=".") as name:
        modes = [m for m in ("pooled", "inline")
                 if not (args.inline and m == "pooled") and not (args.pooled and m == "inline")]
        idle = await idle_lags(2.0)
        emit("loop_stall_max_idle", max(idle) * 1000, "ms")
        emit("loop_stall_p99_idle", percentile(idle, 99) * 1000, "ms")
        for mode in modes:
            lags, between = await stall(Path(name), args.moves, inline=mode == "inline")
            emit(f"loop_stall_max_{mode}", max(lags) * 1000, "ms")
            emit(f"loop_stall_p99_{mode}", percentile(lags, 99) * 1000, "ms")
            emit(f"search_move_p50_{mode}", percentile(between, 50) * 1000, "ms")
            emit(f"search_move_max_{mode}", max(between) * 1000, "ms")
        emit("greedy_move_p99", percentile(greedy_cost(), 99) * 1000, "ms")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--game", default="ginkgopolis")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--pg-tables", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--pg-worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--stall", action="store_true",
                        help="the event loop's longest stall while four search bots play")
    parser.add_argument("--moves", type=int, default=24)
    parser.add_argument("--inline", action="store_true", help="--stall: only the old path")
    parser.add_argument("--pooled", action="store_true", help="--stall: only the pool")
    parser.add_argument("--default-gc", action="store_true",
                        help="CPython's collector, not tuned as the bot tunes it")
    args = parser.parse_args()
    global GC_AS_THE_BOT
    GC_AS_THE_BOT = not args.default_gc
    if args.stall:
        await stall_main(args)
        return
    if args.pg_worker is not None:
        await pg_worker(args.pg_worker, args.game, args.seconds)
        return
    if args.postgres:
        await pg_main(args)
        return
    with tempfile.TemporaryDirectory(prefix="urbanist-bench-", dir=".") as name:
        tmp = Path(name)
        emit_latency("", await action_latency(tmp, args.game, args.seats, args.actions))
        db = tmp / "many.sqlite3"
        await fill_tables(db, args.game, args.tables)
        elapsed, jobs, _ = await start_time(db, trace=False)
        _, _, held = await start_time(db, trace=True)
        emit(f"start_{args.tables}_tables", elapsed, "s")
        emit("start_jobs_scheduled", jobs, "jobs")
        emit("idle_table_memory", held / args.tables / 1024, "KiB")
        emit("cached_table_memory", await cached_table_memory(tmp, args.game) / 1024, "KiB")


if __name__ == "__main__":
    asyncio.run(main())
