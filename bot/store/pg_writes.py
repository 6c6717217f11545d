"""The PostgreSQL store's writes that go through the group commit (``bot.store.pg_group``):
a table's save, its outbox claimed and marked; and the settling of a finished game's
ratings, which a save may carry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import asyncpg

from bot.history.ratings import RatedGame, Rating, settle
from bot.store import riders
from bot.store.pg_rows import _outbox_from_row
from bot.store.pg_save import Shape, claimed_rows, save_sql
from bot.store.pg_schema import Connection
from bot.store.records import (
    SPENT_KEYS,
    OutboxResult,
    OutboxRow,
    TableRecord,
    VersionConflict,
    canonical,
    sent_to_column,
)
from bot.store.sqlite_outbox import with_table_id


async def insert_outbox(conn: Connection, table_id: int,
                         rows: Sequence[OutboxRow]) -> None:
    if rows:
        await conn.executemany(
            "INSERT INTO outbox (table_id, version, seat, payload, state, due_at, created_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [(table_id, r.version, r.seat, canonical(with_table_id(r.payload, table_id)),
              r.state, float(r.due_at), float(r.created_at)) for r in rows])


async def write_save(conn: Connection, table: TableRecord, shape: Shape, params: list[Any],
                      outbox: Sequence[OutboxRow], payloads: list[str],
                      claim_at: float | None, ratings: RatedGame | None,
                      ride: riders.PostgresWrite | None) -> list[OutboxRow]:
    """A table's save (``bot.store.pg_save``: one statement), then what it carries: a
    finished game's ratings, a front end's rows. The rows its claim took, if any."""
    # Conditional on the rev this copy was read at: a stale copy writes nothing. A
    # concurrent writer of the row waits here for the first one's commit, then finds the
    # rev moved.
    rows = await conn.fetch(save_sql(shape), *params)
    if rows[0]["saved"] != 1:
        raise VersionConflict(f"table {table.id} changed since it was read (rev {table.rev})")
    if ratings is not None:
        await settle_game(conn, ratings, lock=True)
    if ride is not None:
        await ride(conn)  # a front end's rows (bot.store.riders)
    if claim_at is None:
        return []
    return claimed_rows(rows, table.id, outbox, payloads, claim_at)


async def claim_outbox(conn: Connection, table_id: int, now: float) -> list[OutboxRow]:
    # One statement: the rows locked (skipping those another claim holds), the due ones
    # marked, the rows returned as they were before.
    rows = await conn.fetch(
        "WITH held AS MATERIALIZED (SELECT * FROM outbox WHERE table_id = $1 AND "
        "(state = 'held' OR (state IN ('pending', 'sending') AND due_at <= $2)) "
        "ORDER BY id FOR UPDATE SKIP LOCKED), "
        "claimed AS (UPDATE outbox SET state = 'sending', attempts = attempts + 1 "
        "WHERE id IN (SELECT id FROM held WHERE state <> 'held')) "
        "SELECT * FROM held ORDER BY id", table_id, float(now))
    claimed = [_outbox_from_row(r) for r in rows]
    if all(r.state == "held" for r in claimed):
        return []
    return claimed


async def mark_outbox(conn: Connection, results: list[OutboxResult], now: float) -> None:
    # In id order, so that two processes marking overlapping rows cannot deadlock.
    ordered = sorted(results, key=lambda r: r.id)
    # A row done with keeps what inspecting it needs: see ``SPENT_KEYS``.
    await conn.executemany(
        "UPDATE outbox SET state = $1, due_at = $2, error = $3, done_at = $4, "
        "payload = CASE WHEN $4::float8 IS NULL THEN payload "
        "ELSE (payload::jsonb - $6::text[])::text END, sent = $7 WHERE id = $5",
        [(r.state, float(r.due_at), r.error,
          float(now) if r.state in ("sent", "failed") else None, r.id,
          list(SPENT_KEYS), sent_to_column(r.sent))
         for r in ordered])


async def settle_game(conn: Connection, game: RatedGame, *, lock: bool = False) -> None:
    """The history rows and new ratings of one finished table. With ``lock`` (a table
    finishing), the server's ratings of that game are locked for the transaction, so
    that two tables finishing at once in two processes update them one after the other,
    never from the same old value (a newcomer's row included, which FOR UPDATE alone
    could not lock before it exists). A rebuild holds the whole tables instead."""
    if lock:
        await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                           f"urbanist-ratings/{game.guild_id}/{game.game}")
    decisions: dict[int, dict[str, int]] = {}
    for row in await conn.fetch("SELECT seat, source, COUNT(*) AS n FROM actions WHERE "
                                "table_id = $1 GROUP BY seat, source", game.table_id):
        decisions.setdefault(int(row["seat"]), {})[str(row["source"])] = int(row["n"])
    players = sorted({c.player for c in game.competitors})
    rows = await conn.fetch("SELECT * FROM ratings WHERE guild_id = $1 AND game = $2 AND "
                            "player = ANY($3::text[]) ORDER BY player FOR UPDATE",
                            game.guild_id, game.game, players)
    done = settle(game, decisions, {r["player"]: pg_rating(r) for r in rows})
    await conn.executemany(
        "INSERT INTO results VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, "
        "$14, $15, $16, $17)",
        [(r.table_id, r.slot, r.guild_id, r.game, r.player, r.name, r.is_bot, r.rank,
          r.score, r.finished_at, r.started_at, r.versions, r.unrated, r.mu_before,
          r.sigma_before, r.mu, r.sigma) for r in done.results])
    if done.ratings:
        await conn.executemany(
            "INSERT INTO ratings VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT "
            "(guild_id, game, player) DO UPDATE SET name = EXCLUDED.name, is_bot = "
            "EXCLUDED.is_bot, mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, games = "
            "EXCLUDED.games, updated_at = EXCLUDED.updated_at",
            [(game.guild_id, game.game, r.player, r.name, r.is_bot, r.mu, r.sigma, r.games,
              r.updated_at) for r in done.ratings])


def pg_rating(r: asyncpg.Record) -> Rating:
    return Rating(r["player"], r["name"], r["is_bot"], r["mu"], r["sigma"], r["games"],
                  r["updated_at"])
