"""Service figures, one per line: ``name value unit``.

    python benchmarks/service.py [--actions 400] [--tables 10000] [--game skybridge]
    python benchmarks/service.py --postgres [--actions 400] [--pg-tables 100000]
                                 [--seconds 10]
    python benchmarks/service.py --stall [--moves 24] [--inline]

- action_commit_p50/p99: an accepted action, from ``service.act`` to its durable commit
  (SQLite file, WAL, synchronous=FULL) and the notifications handed over;
- raw_commit_p50/p99: a bare sqlite3 transaction writing the same bytes (the action JSON
  and the snapshot) to a file with the same pragmas, measured in the same run;
- action_commit_p99_ratio: the first p99 over the second (goal: within 10x);
- start_10k_tables: open the store, check integrity, and schedule every deadline and
  reminder job of N running tables in APScheduler (goal: under 5 s);
- idle_table_memory: Python heap held per idle running table after that start (its
  jobs), and cached_table_memory: one table kept live in the service's cache.

With ``--stall`` (issue 12, item 5), the event loop while a 4-player Ginkgopolis table
of four ``hard`` bots (the search) plays ``--moves`` moves, a probe task sleeping 5 ms at
a time and recording how late it wakes:

- loop_stall_max/p99_pooled: the AI in the process pool (the product's path);
- loop_stall_max/p99_inline: every AI on the event loop (the old path), side by side;
  ``--inline`` runs only that one, ``--pooled`` only the other;
- search_move_p50/max: the time from one bot move to the next (what a table waits);
- greedy_move_p99: one greedy choice (the ``normal`` level), which stays on the loop.

With ``--postgres``, the same on a PostgreSQL server started by ``pgserver`` (its
defaults: fsync and synchronous_commit on, so a commit is durable), the service running
as it does beside other processes (``TableService.share``):

- pg_action_commit_p50/p99 against pg_raw_commit_p50/p99: an asyncpg transaction on the
  same server writing the same bytes (the action JSON and the snapshot);
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
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.service import Actor, Notification, TableService, TableSettings
from bot.store import SqliteStore, Store, canonical, open_store
from engine.core import Rng, get_game


class NullNotifier:
    async def deliver(self, notes: list[Notification]) -> None:
        return None


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def emit(name: str, value: float, unit: str) -> None:
    print(f"{name} {value:.3f} {unit}", flush=True)


async def action_latency(tmp: Path, game: str, count: int, *, url: str | None = None
                         ) -> tuple[list[float], list[tuple[str, str]]]:
    store: Store = (await SqliteStore.open(tmp / "bench.sqlite3") if url is None
                    else await open_store(url))
    service = TableService(store, NullNotifier(), cache_size=16)
    if url is not None:
        service.share(f"bench-{os.getpid()}")
        await service.boot()
    players = [Actor(f"u{i}", f"P{i}") for i in range(2)]
    rng = Rng.from_seed(1)
    timings: list[float] = []
    payloads: list[tuple[str, str]] = []
    while len(timings) < count:
        info = await service.create(players[0], game, settings=TableSettings(seat_order="join"))
        await service.join(info.id, players[1])
        await service.start(info.id, players[0])
        while len(timings) < count:
            current = await service.info(info.id)
            if current.status != "running":
                break
            seat = min(current.waiting)
            prompt = await service.prompt(info.id, players[seat])
            option = prompt.options[rng.randbelow(len(prompt.options))]
            started = time.perf_counter()
            await service.act(info.id, players[seat], option.json, version=prompt.version)
            timings.append(time.perf_counter() - started)
            record = await store.load_table(info.id)
            assert record is not None and record.snapshot is not None
            payloads.append((canonical(option.json), record.snapshot))
    await service.delivery.idle()
    await store.close()
    return timings, payloads


def raw_latency(tmp: Path, payloads: list[tuple[str, str]]) -> list[float]:
    conn = sqlite3.connect(tmp / "raw.sqlite3", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, version INTEGER, snapshot TEXT)")
    conn.execute("CREATE TABLE a (version INTEGER PRIMARY KEY, action TEXT)")
    conn.execute("INSERT INTO t VALUES (1, 0, '')")
    timings = []
    for version, (action, snapshot) in enumerate(payloads, 1):
        started = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO a VALUES (?, ?)", (version, action))
        conn.execute("UPDATE t SET version = ?, snapshot = ? WHERE id = 1", (version, snapshot))
        conn.execute("COMMIT")
        timings.append(time.perf_counter() - started)
    conn.close()
    return timings


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


async def pg_raw_latency(url: str, payloads: list[tuple[str, str]]) -> list[float]:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE raw_t (id BIGINT PRIMARY KEY, version BIGINT, "
                           "snapshot TEXT); CREATE TABLE raw_a (version BIGINT PRIMARY KEY, "
                           "action TEXT); INSERT INTO raw_t VALUES (1, 0, '')")
        timings = []
        for version, (action, snapshot) in enumerate(payloads, 1):
            started = time.perf_counter()
            async with conn.transaction():
                await conn.execute("INSERT INTO raw_a VALUES ($1, $2)", version, action)
                await conn.execute("UPDATE raw_t SET version = $1, snapshot = $2 WHERE id = 1",
                                   version, snapshot)
            timings.append(time.perf_counter() - started)
        return timings
    finally:
        await conn.close()


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
            timings, payloads = await action_latency(Path(name), args.game, args.actions,
                                                     url=actions_url)
            raw = await pg_raw_latency(actions_url, payloads)
            p99, raw99 = percentile(timings, 99), percentile(raw, 99)
            emit("pg_action_commit_p50", percentile(timings, 50) * 1000, "ms")
            emit("pg_action_commit_p99", p99 * 1000, "ms")
            emit("pg_raw_commit_p50", percentile(raw, 50) * 1000, "ms")
            emit("pg_raw_commit_p99", raw99 * 1000, "ms")
            emit("pg_action_commit_p99_ratio", p99 / raw99, "x")
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
    parser.add_argument("--game", default="skybridge")
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--pg-tables", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--pg-worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--stall", action="store_true",
                        help="the event loop's longest stall while four search bots play")
    parser.add_argument("--moves", type=int, default=24)
    parser.add_argument("--inline", action="store_true", help="--stall: only the old path")
    parser.add_argument("--pooled", action="store_true", help="--stall: only the pool")
    args = parser.parse_args()
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
        timings, payloads = await action_latency(tmp, args.game, args.actions)
        raw = raw_latency(tmp, payloads)
        p99, raw99 = percentile(timings, 99), percentile(raw, 99)
        emit("action_commit_p50", percentile(timings, 50) * 1000, "ms")
        emit("action_commit_p99", p99 * 1000, "ms")
        emit("raw_commit_p50", percentile(raw, 50) * 1000, "ms")
        emit("raw_commit_p99", raw99 * 1000, "ms")
        emit("action_commit_p99_ratio", p99 / raw99, "x")
        emit("snapshot_bytes_mean", sum(len(s) for _, s in payloads) / len(payloads), "B")
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
