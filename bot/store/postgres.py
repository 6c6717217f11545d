"""The PostgreSQL store, through an asyncpg pool: the same contract as the SQLite store,
for several bot processes over one database.

Concurrency is the database's: every table write is ``UPDATE ... WHERE id = $ AND rev =
$`` (a concurrent writer of the same row waits for the first to commit, then finds the
rev moved and writes nothing: VersionConflict), and a save is that one statement with
the rest hanging on it (``bot.store.pg_save``); a table with its seats and timers is
read in one statement, so from one snapshot; outbox rows are claimed with ``FOR UPDATE
SKIP LOCKED``; the action log is append-only by trigger, and a trigger refuses any
UPDATE that would take a table back.
``synchronous_commit`` is the server's (on by default): a commit is durable when the
server says so; the tests turn fsync off on their own throwaway server only.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import asyncpg

from bot.history.ratings import RatedGame, Rating, Result
from bot.store import leases, riders
from bot.store.health import MAX_PROBLEMS
from bot.store.leases import Lease
from bot.store.pg_bundle import BUNDLE, bundle_from_row
from bot.store.pg_faults import explain, pooled, quiet_pool_outages, redact
from bot.store.pg_group import PgGroupCommit
from bot.store.pg_rows import (
    _SEAT_INSERT,
    _TABLE_COLUMNS,
    _TABLE_PLACEHOLDERS,
    _action_from_row,
    _outbox_from_row,
    _seat_from_row,
    _seat_values,
    _table_from_row,
    _table_values,
)
from bot.store.pg_save import Shape, outbox_payloads, save_params
from bot.store.pg_schema import Connection, migrate
from bot.store.pg_writes import (
    claim_outbox,
    insert_outbox,
    mark_outbox,
    pg_rating,
    settle_game,
    write_save,
)
from bot.store.records import (
    ActionRecord,
    MenuRecord,
    OutboxResult,
    OutboxRow,
    ScheduledTimer,
    SeatRecord,
    Status,
    TableRecord,
    TimerRecord,
)
from bot.store.sqlite import _first_tables

MAX_ID: Final = 2**63  # BIGINT
POOL_MAX: Final = 10
# A statement that has not answered in this many seconds is given up (a StorageError the
# service refuses politely) rather than holding a player's click and the table's lock
# forever behind a hung server or a lock that is never released.
COMMAND_TIMEOUT: Final = 60.0

# asyncpg logs nothing with parameters, but keep it from ever doing so at DEBUG.
logging.getLogger("asyncpg").setLevel(logging.INFO)

async def _keep_session(conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """A connection given back to the pool keeps its session as it is: the store never
    changes one (no SET, LISTEN, session advisory lock or cursor outside a transaction),
    so asyncpg's reset (``RESET ALL``, ``UNLISTEN *``...) would be one more round trip
    to the server each time a connection is lent, for nothing. asyncpg still rolls back
    a transaction left open before it calls this."""


def _in_range(table_id: int) -> bool:
    return 0 < table_id < MAX_ID


class PostgresStore:
    """Open with ``await PostgresStore.open("postgresql://user:pw@host/db")``."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        # Writes arriving together commit together (see ``bot.store.pg_group``).
        self._group = PgGroupCommit(self._connection)
        self.url = url
        self.where = redact(url)
        self.problems: list[str] = []  # the server checks its own pages

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = POOL_MAX
                   ) -> PostgresStore:
        """Connect and migrate; a storage fault (no server, no such database, a schema
        from a newer Urbanist) is a ``StorageError`` naming the server, pool closed."""
        where = redact(url)
        quiet_pool_outages()
        pool: asyncpg.Pool | None = None
        try:
            pool = await asyncpg.create_pool(
                url, min_size=min_size, max_size=max_size, command_timeout=COMMAND_TIMEOUT,
                server_settings={"application_name": "urbanist"}, reset=_keep_session)
            async with pool.acquire() as conn:
                await migrate(conn)
        except BaseException as exc:
            if pool is not None:
                pool.terminate()
            fault = explain(exc, where)
            if fault is None:
                raise
            raise fault from exc
        return cls(pool, url)

    def _connection(self) -> contextlib.AbstractAsyncContextManager[Connection]:
        """A pooled connection; PostgreSQL's storage faults become StorageError, bugs
        show as what they are (see ``pg_faults.pooled``)."""
        return pooled(self._pool, self.where)

    async def close(self) -> None:
        try:
            await self._pool.close()
        except Exception:
            # The server went away: saying goodbye to it fails, and nothing is owed.
            self._pool.terminate()

    async def integrity_check(self) -> list[str]:
        """Rows whose JSON does not decode (the server checks its own pages); [] when
        healthy. A read that fails is one more problem, never an end."""
        problems: list[str] = []
        checks = (("tables", "id::text", ("options", "reminders", "outcome", "snapshot")),
                  ("actions", "table_id || '/' || version", ("action", "events")))
        async with self._connection() as conn:
            for table, key, columns in checks:
                sql = f"SELECT {key}, {', '.join(columns)} FROM {table}"  # names: constants
                try:
                    async with conn.transaction(isolation="repeatable_read", readonly=True):
                        async for row in conn.cursor(sql):
                            for column, value in zip(columns, list(row)[1:], strict=True):
                                if value is None:
                                    continue
                                try:
                                    json.loads(value)
                                except ValueError as exc:
                                    problems.append(f"{table} {row[0]}: {column} is not JSON "
                                                    f"({exc})")
                except asyncpg.PostgresError as exc:
                    problems.append(f"{table}: reading failed: {exc}")
        if len(problems) > MAX_PROBLEMS:
            problems = [*problems[:MAX_PROBLEMS],
                        f"... and {len(problems) - MAX_PROBLEMS} more problems"]
        return problems

    # -- tables ---------------------------------------------------------------------

    async def create_table(self, table: TableRecord, seats: Sequence[SeatRecord],
                           outbox: Sequence[OutboxRow] = ()) -> int:
        rider = riders.for_create()  # a front end's rows, in the same transaction
        try:
            async with self._connection() as conn, conn.transaction():
                table_id: int = await conn.fetchval(
                    f"INSERT INTO tables ({_TABLE_COLUMNS}) VALUES ({_TABLE_PLACEHOLDERS}) "
                    "RETURNING id", *_table_values(table))
                if seats:
                    await conn.executemany(_SEAT_INSERT,
                                           [_seat_values(table_id, s) for s in seats])
                await insert_outbox(conn, table_id, outbox)
                if rider is not None:
                    riders.born(rider, table_id)
                    await rider.postgres(conn)
        except BaseException:
            riders.stillborn(rider)
            raise
        riders.landed(rider)
        table.id = table_id
        return table_id

    async def load_bundle(
        self, table_id: int
    ) -> tuple[TableRecord, list[SeatRecord], list[TimerRecord]] | None:
        if not _in_range(table_id):
            return None  # a forged id beyond BIGINT is simply unknown
        # One statement: the three reads see one snapshot, never a row from one write
        # and seats from the next, in one round trip.
        async with self._connection() as conn:
            row = await conn.fetchrow(BUNDLE, table_id)
        return None if row is None else bundle_from_row(row)

    async def load_table(self, table_id: int) -> TableRecord | None:
        if not _in_range(table_id):
            return None
        async with self._connection() as conn:
            row = await conn.fetchrow("SELECT * FROM tables WHERE id = $1", table_id)
        return None if row is None else _table_from_row(row)

    async def table_rev(self, table_id: int) -> int | None:
        if not _in_range(table_id):
            return None
        async with self._connection() as conn:
            rev = await conn.fetchval("SELECT rev FROM tables WHERE id = $1", table_id)
        return None if rev is None else int(rev)

    async def load_seats(self, table_id: int) -> list[SeatRecord]:
        if not _in_range(table_id):
            return []
        async with self._connection() as conn:
            rows = await conn.fetch("SELECT * FROM seats WHERE table_id = $1 ORDER BY seat",
                                    table_id)
        return [_seat_from_row(r) for r in rows]

    async def load_timers(self, table_id: int) -> list[TimerRecord]:
        if not _in_range(table_id):
            return []
        async with self._connection() as conn:
            rows = await conn.fetch("SELECT due_at, seat, kind FROM timers WHERE table_id = $1 "
                                    "ORDER BY due_at, seat", table_id)
        return [TimerRecord(r["due_at"], r["seat"], r["kind"]) for r in rows]

    async def load_actions(self, table_id: int, after_version: int = 0) -> list[ActionRecord]:
        if not _in_range(table_id):
            return []
        async with self._connection() as conn:
            rows = await conn.fetch("SELECT * FROM actions WHERE table_id = $1 AND version > $2 "
                                    "ORDER BY version", table_id, after_version)
        return [_action_from_row(r) for r in rows]

    async def save(
        self,
        table: TableRecord,
        *,
        expected_version: int | None = None,
        seats: Sequence[SeatRecord] | None = None,
        timers: Sequence[TimerRecord] | None = None,
        action: ActionRecord | None = None,
        outbox: Sequence[OutboxRow] = (),
        ratings: RatedGame | None = None,
        claim_at: float | None = None,
    ) -> list[OutboxRow]:
        shape = Shape(version=expected_version is not None, seats=seats is not None,
                      timers=timers is not None, action=action is not None,
                      outbox=bool(outbox), claim=claim_at is not None)
        payloads = outbox_payloads(table.id, outbox)
        params = save_params(shape, _table_values(table), table, expected_version, seats,
                             timers, action, outbox, payloads, claim_at)
        rider = riders.for_save(table.id, None if action is None else action.actor_id)
        # The save's statement writes all or nothing; only what runs after it (ratings,
        # a rider's rows, which a duplicate key may refuse) needs a savepoint.
        claimed: list[OutboxRow] = await self._group.write(
            write_save, table, shape, params, outbox, payloads, claim_at, ratings,
            None if rider is None else rider.postgres,
            refusable=ratings is not None or rider is not None)
        riders.landed(rider)
        table.rev += 1
        return claimed

    # -- the outbox and the menus ---------------------------------------------------

    async def outbox_tables(self, now: float) -> list[int]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                "SELECT DISTINCT table_id FROM outbox WHERE state IN ('pending', 'sending') "
                "AND due_at <= $1 ORDER BY table_id", float(now))
        return [int(r[0]) for r in rows]

    async def next_outbox_due(self) -> float | None:
        async with self._connection() as conn:
            value = await conn.fetchval("SELECT min(due_at) FROM outbox WHERE state = 'pending'")
        return None if value is None else float(value)

    async def claim_outbox(self, table_id: int, now: float) -> list[OutboxRow]:
        """As SQLite's (held rows and rows due now, the due ones marked ``sending``), and
        rows another process is claiming at this instant are skipped, not waited for."""
        claimed: list[OutboxRow] = await self._group.write(claim_outbox, table_id, now,
                                                            refusable=False)
        return claimed

    async def mark_outbox(self, results: Sequence[OutboxResult], now: float) -> None:
        await self._group.write(mark_outbox, list(results), now, refusable=False)

    async def load_outbox(self, table_id: int | None = None,
                          states: Sequence[str] | None = None) -> list[OutboxRow]:
        where: list[str] = []
        params: list[Any] = []
        if table_id is not None:
            params.append(table_id)
            where.append(f"table_id = ${len(params)}")
        if states is not None:
            params.append(list(states))
            where.append(f"state = ANY(${len(params)}::text[])")
        sql = "SELECT * FROM outbox" + (" WHERE " + " AND ".join(where) if where else "")
        async with self._connection() as conn:
            rows = await conn.fetch(sql + " ORDER BY id", *params)
        return [_outbox_from_row(r) for r in rows]

    async def prune_outbox(self, before: float, *, failed_before: float | None = None) -> int:
        failed = before if failed_before is None else failed_before
        async with self._connection() as conn:
            status = await conn.execute(
                "DELETE FROM outbox WHERE (state = 'sent' AND done_at < $1) OR "
                "(state = 'failed' AND done_at < $2)", float(before), float(failed))
        return int(status.split()[-1])

    async def record_menu(self, menu: MenuRecord) -> None:
        async with self._connection() as conn:
            await conn.execute(
                "INSERT INTO menus VALUES ($1, $2, $3, $4, $5) ON CONFLICT (table_id, message_id) "
                "DO UPDATE SET seat = excluded.seat, prompt_version = excluded.prompt_version, "
                "channel_id = excluded.channel_id",
                menu.table_id, menu.seat, menu.prompt_version, menu.channel_id, menu.message_id)

    async def drop_menu(self, table_id: int, message_id: str) -> None:
        async with self._connection() as conn:
            await conn.execute("DELETE FROM menus WHERE table_id = $1 AND message_id = $2",
                               table_id, message_id)

    async def take_menus(self, table_id: int, seat: int | None,
                         before_version: int | None) -> list[MenuRecord]:
        """Remove and return the menus of ``seat`` (None: every seat) opened before
        ``before_version`` (None: all): the ones to disable."""
        where = "table_id = $1"
        params: list[Any] = [table_id]
        if seat is not None:
            params.append(seat)
            where += f" AND seat = ${len(params)}"
        if before_version is not None:
            params.append(before_version)
            where += f" AND prompt_version < ${len(params)}"
        async with self._connection() as conn:
            rows = await conn.fetch(f"DELETE FROM menus WHERE {where} RETURNING *", *params)
        return [MenuRecord(r["table_id"], r["seat"], r["prompt_version"], r["channel_id"],
                           r["message_id"]) for r in rows]

    # -- queries ----------------------------------------------------------------------

    async def bot_turn_tables(self) -> list[int]:
        async with self._connection() as conn:
            rows = await conn.fetch("SELECT id FROM tables WHERE bot_turn AND status = 'running' "
                                    "ORDER BY id")
        return [int(r[0]) for r in rows]

    async def find_tables(
        self,
        *,
        channel_id: str | None = None,
        user_id: str | None = None,
        statuses: Sequence[Status] | None = None,
    ) -> list[TableRecord]:
        where: list[str] = []
        params: list[Any] = []
        if channel_id is not None:
            params.append(channel_id)
            where.append(f"(channel_id = ${len(params)} OR thread_id = ${len(params)})")
        if user_id is not None:
            params.append(user_id)
            where.append(f"id IN (SELECT table_id FROM seats WHERE user_id = ${len(params)})")
        if statuses is not None:
            params.append(list(statuses))
            where.append(f"status = ANY(${len(params)}::text[])")
        sql = "SELECT * FROM tables" + (" WHERE " + " AND ".join(where) if where else "")
        async with self._connection() as conn:
            rows = await conn.fetch(sql + " ORDER BY id", *params)
        return [_table_from_row(r) for r in rows]

    async def scheduled_timers(self, before: float | None = None) -> list[ScheduledTimer]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                "SELECT t.id, t.version, m.kind, min(m.due_at) AS due "
                "FROM timers m JOIN tables t ON t.id = m.table_id "
                "WHERE t.status = 'running' AND m.due_at <= $1 GROUP BY t.id, m.kind",
                float("inf") if before is None else float(before))
        return [ScheduledTimer(r[0], r[1], r[2], r[3]) for r in rows]

    async def table_ids(self, statuses: Sequence[Status]) -> list[int]:
        """The ids of the tables in ``statuses``, without decoding their rows."""
        async with self._connection() as conn:
            rows = await conn.fetch("SELECT id FROM tables WHERE status = ANY($1::text[]) "
                                    "ORDER BY id", list(statuses))
        return [int(r[0]) for r in rows]

    # -- leases (see bot.store.leases) ------------------------------------------------

    async def acquire_lease(self, name: str, owner: str, now: float,
                            ttl: float) -> Lease | None:
        async with self._connection() as conn:
            row = await conn.fetchrow(_pg(leases.ACQUIRE), name, owner, float(now),
                                      float(now + ttl))
        return None if row is None else leases.lease_from_row(row)

    async def renew_leases(self, owner: str, now: float, ttl: float) -> list[str]:
        async with self._connection() as conn:
            rows = await conn.fetch(_pg(leases.RENEW), owner, float(now), float(now + ttl))
        return sorted(str(r[0]) for r in rows)

    async def steal_expired_leases(self, owner: str, now: float, ttl: float,
                                   limit: int | None = None) -> list[Lease]:
        # SKIP LOCKED: two processes stealing at once share the expired leases out
        # between them instead of queueing on the same rows.
        sql = _pg(leases.STEAL).replace("LIMIT $4)", "LIMIT $4 FOR UPDATE SKIP LOCKED)")
        async with self._connection() as conn:
            rows = await conn.fetch(sql, owner, float(now), float(now + ttl), limit)
        return sorted((leases.lease_from_row(r) for r in rows), key=lambda lease: lease.name)

    async def release_leases(self, owner: str, now: float,
                             names: Sequence[str] | None = None) -> int:
        sql = "UPDATE leases SET expires_at = $1 WHERE owner = $2 AND expires_at > $1"
        params: list[Any] = [float(now), owner]
        if names is not None:
            sql += " AND name = ANY($3::text[])"
            params.append(list(names))
        async with self._connection() as conn:
            status = await conn.execute(sql, *params)
        return int(status.split()[-1])

    async def load_leases(self) -> list[Lease]:
        async with self._connection() as conn:
            rows = await conn.fetch("SELECT name, owner, expires_at, generation FROM leases "
                                    "ORDER BY name")
        return [leases.lease_from_row(r) for r in rows]

    # -- backup -----------------------------------------------------------------------

    async def backup(self, path: Path) -> None:
        """Copy every row into a new SQLite file at ``path`` (written beside it, renamed
        when complete): a portable backup that ``urbanist migrate`` restores."""
        from bot.store.row_copy import copy_rows, postgres_reading, require_empty, sqlite_writing
        from bot.store.sqlite import SqliteStore

        target = Path(path)
        fd, temp_name = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp",
                                         dir=target.absolute().parent)
        os.close(fd)
        os.unlink(temp_name)  # SQLite creates it: an empty file is not a database yet
        try:
            copy = await SqliteStore.open(temp_name)
            try:
                await require_empty(copy)
                async with self._connection() as conn, postgres_reading(conn) as reader, \
                        sqlite_writing(copy) as writer:
                    await copy_rows(reader, writer)
            finally:
                await copy.close()
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temp_name + suffix)
            os.replace(temp_name, target)
        except BaseException:
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temp_name + suffix)
            raise

    # -- history: results and ratings (bot/history; rows written by save and rebuild) --

    async def rebuild_history(self, games: Sequence[RatedGame]) -> None:
        async with self._connection() as conn, conn.transaction():
            # One rebuild at a time, and no table finishing meanwhile with a stale view.
            await conn.execute("LOCK TABLE results, ratings IN EXCLUSIVE MODE")
            await conn.execute("DELETE FROM results")
            await conn.execute("DELETE FROM ratings")
            for game in sorted(games, key=lambda g: (g.finished_at, g.table_id)):
                await settle_game(conn, game)

    async def load_results(self, guild_id: str, *, game: str | None = None,
                           player: str | None = None, table_ids: Sequence[int] | None = None,
                           limit: int | None = None) -> list[Result]:
        where: list[str] = ["guild_id = $1"]
        params: list[Any] = [guild_id]
        if game is not None:
            params.append(game)
            where.append(f"game = ${len(params)}")
        if player is not None:
            params.append(player)
            where.append(f"table_id IN (SELECT table_id FROM results WHERE guild_id = $1 "
                         f"AND player = ${len(params)})")
        if table_ids is not None:
            params.append([t for t in table_ids if _in_range(t)])
            where.append(f"table_id = ANY(${len(params)}::bigint[])")
        sql = ("SELECT * FROM results WHERE " + " AND ".join(where)
               + " ORDER BY finished_at DESC, table_id DESC, slot")
        async with self._connection() as conn:
            rows = await conn.fetch(sql, *params)
        return _first_tables([_pg_result(r) for r in rows], limit)

    async def load_ratings(self, guild_id: str, game: str) -> list[Rating]:
        async with self._connection() as conn:
            rows = await conn.fetch("SELECT * FROM ratings WHERE guild_id = $1 AND game = $2 "
                                    "ORDER BY player", guild_id, game)
        return [pg_rating(r) for r in rows]


def _pg_result(r: asyncpg.Record) -> Result:
    return Result(r["table_id"], r["slot"], r["guild_id"], r["game"], r["player"], r["name"],
                  r["is_bot"], r["rank"], r["score"], r["finished_at"], r["started_at"],
                  r["versions"], r["unrated"], r["mu_before"], r["sigma_before"], r["mu"],
                  r["sigma"])


# SQLite's named parameters in leases.py, in the order PostgreSQL's $n take them.
_PG_PARAMS: Final = {":name": "$1", ":owner": "$2", ":now": "$3", ":until": "$4"}
_PG_PARAMS_BY_OWNER: Final = {":owner": "$1", ":now": "$2", ":until": "$3", ":limit": "$4"}


def _pg(sql: str) -> str:
    """leases.py's statements with PostgreSQL's numbered parameters."""
    mapping = _PG_PARAMS if ":name" in sql else _PG_PARAMS_BY_OWNER
    for named, numbered in mapping.items():
        sql = sql.replace(named, numbered)
    return sql


