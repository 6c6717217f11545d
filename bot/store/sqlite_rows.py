"""How the SQLite store's rows read and write a table, its seats and a rating."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from bot.history.ratings import Rating
from bot.store.records import SeatRecord, TableRecord, canonical

TABLE_COLUMNS = (
    "game, options, seed, status, version, snapshot, outcome, guild_id, channel_id, thread_id, "
    "locale, host_id, deadline_seconds, reminders, timeout_policy, seat_order, max_seats, "
    "paused_at, status_channel_id, status_message_id, created_at, updated_at, bot_turn, ai_level, "
    "snapshot_version"
)
TABLE_PLACEHOLDERS = ", ".join("?" * len(TABLE_COLUMNS.split(",")))


def table_values(t: TableRecord) -> tuple[Any, ...]:
    return (
        t.game,
        canonical(t.options),
        t.seed,
        t.status,
        t.version,
        t.snapshot,
        None if t.outcome is None else canonical(t.outcome),
        t.guild_id,
        t.channel_id,
        t.thread_id,
        t.locale,
        t.host_id,
        t.deadline_seconds,
        canonical(list(t.reminders)),
        t.timeout_policy,
        t.seat_order,
        t.max_seats,
        t.paused_at,
        t.status_channel_id,
        t.status_message_id,
        t.created_at,
        t.updated_at,
        int(t.bot_turn),
        t.ai_level,
        t.snapshot_version,
    )


def table_from_row(row: sqlite3.Row) -> TableRecord:
    return TableRecord(
        id=row["id"],
        game=row["game"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        status=row["status"],
        version=row["version"],
        snapshot=row["snapshot"],
        outcome=None if row["outcome"] is None else json.loads(row["outcome"]),
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        locale=row["locale"],
        host_id=row["host_id"],
        deadline_seconds=row["deadline_seconds"],
        reminders=tuple(json.loads(row["reminders"])),
        timeout_policy=row["timeout_policy"],
        seat_order=row["seat_order"],
        max_seats=row["max_seats"],
        paused_at=row["paused_at"],
        status_channel_id=row["status_channel_id"],
        status_message_id=row["status_message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        rev=row["rev"],
        bot_turn=bool(row["bot_turn"]),
        ai_level=row["ai_level"],
        snapshot_version=row["snapshot_version"],
    )


def seat_values(table_id: int, s: SeatRecord) -> tuple[Any, ...]:
    return (table_id, s.seat, s.user_id, s.name, int(s.is_bot), s.ai_kind, int(s.dm_ok),
            s.prompt_version)


def rating_from_row(r: sqlite3.Row) -> Rating:
    return Rating(r["player"], r["name"], bool(r["is_bot"]), r["mu"], r["sigma"], r["games"],
                  r["updated_at"])
