"""Rows of the PostgreSQL store: the table columns, and records to and from asyncpg rows."""

from __future__ import annotations

import json
from typing import Any

import asyncpg

from bot.store.records import (
    ActionRecord,
    OutboxRow,
    SeatRecord,
    TableRecord,
    canonical,
    sent_from_column,
)

_TABLE_COLUMNS = (
    "game, options, seed, status, version, snapshot, outcome, guild_id, channel_id, thread_id, "
    "locale, host_id, deadline_seconds, reminders, timeout_policy, seat_order, max_seats, "
    "paused_at, status_channel_id, status_message_id, created_at, updated_at, bot_turn, ai_level, "
    "snapshot_version"
)
_COUNT = len(_TABLE_COLUMNS.split(","))
_TABLE_PLACEHOLDERS = ", ".join(f"${i}" for i in range(1, _COUNT + 1))
_SEAT_INSERT = "INSERT INTO seats VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"


def _table_values(t: TableRecord) -> tuple[Any, ...]:
    return (
        t.game, canonical(t.options), t.seed, t.status, t.version, t.snapshot,
        None if t.outcome is None else canonical(t.outcome), t.guild_id, t.channel_id,
        t.thread_id, t.locale, t.host_id, t.deadline_seconds, canonical(list(t.reminders)),
        t.timeout_policy, t.seat_order, t.max_seats,
        None if t.paused_at is None else float(t.paused_at),
        t.status_channel_id, t.status_message_id, float(t.created_at), float(t.updated_at),
        bool(t.bot_turn), t.ai_level, t.snapshot_version,
    )


def _table_from_row(row: asyncpg.Record) -> TableRecord:
    return TableRecord(
        id=row["id"], game=row["game"], options=json.loads(row["options"]), seed=row["seed"],
        status=row["status"], version=row["version"], snapshot=row["snapshot"],
        outcome=None if row["outcome"] is None else json.loads(row["outcome"]),
        guild_id=row["guild_id"], channel_id=row["channel_id"], thread_id=row["thread_id"],
        locale=row["locale"], host_id=row["host_id"], deadline_seconds=row["deadline_seconds"],
        reminders=tuple(json.loads(row["reminders"])), timeout_policy=row["timeout_policy"],
        seat_order=row["seat_order"], max_seats=row["max_seats"], paused_at=row["paused_at"],
        status_channel_id=row["status_channel_id"], status_message_id=row["status_message_id"],
        created_at=row["created_at"], updated_at=row["updated_at"], rev=row["rev"],
        bot_turn=row["bot_turn"], ai_level=row["ai_level"],
        snapshot_version=row["snapshot_version"],
    )


def _seat_values(table_id: int, s: SeatRecord) -> tuple[Any, ...]:
    return (table_id, s.seat, s.user_id, s.name, bool(s.is_bot), s.ai_kind, bool(s.dm_ok),
            s.prompt_version)


def _seat_from_row(r: asyncpg.Record) -> SeatRecord:
    return SeatRecord(seat=r["seat"], name=r["name"], user_id=r["user_id"], is_bot=r["is_bot"],
                      ai_kind=r["ai_kind"], dm_ok=r["dm_ok"], prompt_version=r["prompt_version"])


def _action_from_row(r: asyncpg.Record) -> ActionRecord:
    return ActionRecord(table_id=r["table_id"], version=r["version"], seat=r["seat"],
                        action=json.loads(r["action"]), source=r["source"], at=r["at"],
                        actor_id=r["actor_id"], public_text=r["public_text"],
                        events=json.loads(r["events"]))


def _outbox_from_row(r: asyncpg.Record) -> OutboxRow:
    return OutboxRow(id=r["id"], table_id=r["table_id"], version=r["version"], seat=r["seat"],
                     payload=json.loads(r["payload"]), state=r["state"], due_at=r["due_at"],
                     attempts=r["attempts"], created_at=r["created_at"], error=r["error"],
                     sent=sent_from_column(r["sent"]))
