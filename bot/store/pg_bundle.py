"""A table as the service loads it on PostgreSQL (``PostgresStore.load_bundle``): its
row, its seats and its timers in ONE statement, so one snapshot and one round trip. The
seats' and timers' columns come as arrays of plain types (not arrays of the tables' row
types, which asyncpg would have to look up, and look up again after a migration)."""

from __future__ import annotations

from typing import Final

import asyncpg

from bot.store.pg_rows import _table_from_row
from bot.store.records import SeatRecord, TableRecord, TimerRecord

BUNDLE: Final = (
    "SELECT t.*, s.*, m.* FROM tables t "
    "LEFT JOIN LATERAL (SELECT array_agg(seat ORDER BY seat) AS s_seat, "
    "array_agg(user_id ORDER BY seat) AS s_user_id, array_agg(name ORDER BY seat) AS s_name, "
    "array_agg(is_bot ORDER BY seat) AS s_is_bot, array_agg(ai_kind ORDER BY seat) AS s_ai_kind, "
    "array_agg(dm_ok ORDER BY seat) AS s_dm_ok, "
    "array_agg(prompt_version ORDER BY seat) AS s_prompt_version "
    "FROM seats WHERE table_id = t.id) s ON true "
    "LEFT JOIN LATERAL (SELECT array_agg(due_at ORDER BY due_at, seat) AS m_due_at, "
    "array_agg(seat ORDER BY due_at, seat) AS m_seat, "
    "array_agg(kind ORDER BY due_at, seat) AS m_kind "
    "FROM timers WHERE table_id = t.id) m ON true "
    "WHERE t.id = $1")


def bundle_from_row(
        row: asyncpg.Record) -> tuple[TableRecord, list[SeatRecord], list[TimerRecord]]:
    seats = [SeatRecord(seat=seat, name=name, user_id=user_id, is_bot=is_bot, ai_kind=ai_kind,
                        dm_ok=dm_ok, prompt_version=prompt_version)
             for seat, user_id, name, is_bot, ai_kind, dm_ok, prompt_version in zip(
                 row["s_seat"] or (), row["s_user_id"] or (), row["s_name"] or (),
                 row["s_is_bot"] or (), row["s_ai_kind"] or (), row["s_dm_ok"] or (),
                 row["s_prompt_version"] or (), strict=True)]
    timers = [TimerRecord(due_at, seat, kind) for due_at, seat, kind in zip(
        row["m_due_at"] or (), row["m_seat"] or (), row["m_kind"] or (), strict=True)]
    return _table_from_row(row), seats, timers
