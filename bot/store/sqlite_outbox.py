"""The SQLite store's outbox and menus: plain functions of a sqlite3 connection, run on
the connection's thread (see ``SqliteStore._run``)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from bot.store.records import (
    SPENT_KEYS,
    MenuRecord,
    OutboxResult,
    OutboxRow,
    canonical,
    sent_from_column,
    sent_to_column,
)
from bot.store.sqlite_tx import Transaction

SPENT_SQLITE = ", ".join(f"'$.{key}'" for key in SPENT_KEYS)


def insert_outbox(conn: sqlite3.Connection, table_id: int, rows: list[OutboxRow]) -> None:
    conn.executemany(
        "INSERT INTO outbox (table_id, version, seat, payload, state, due_at, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(table_id, r.version, r.seat, canonical(with_table_id(r.payload, table_id)),
          r.state, r.due_at, r.created_at) for r in rows])


def with_table_id(payload: dict[str, Any], table_id: int) -> dict[str, Any]:
    # A new table's notes are written before its id exists (in the same transaction
    # that creates it): they get the id here.
    if payload.get("table_id") == table_id:
        return payload
    context = {**payload.get("context", {}), "table_id": table_id}
    return {**payload, "table_id": table_id, "context": context}


def outbox_from_row(r: sqlite3.Row) -> OutboxRow:
    return OutboxRow(id=r["id"], table_id=r["table_id"], version=r["version"], seat=r["seat"],
                     payload=json.loads(r["payload"]), state=r["state"], due_at=r["due_at"],
                     attempts=r["attempts"], created_at=r["created_at"], error=r["error"],
                     sent=sent_from_column(r["sent"]))


def claim_outbox(conn: sqlite3.Connection, table_id: int, now: float) -> list[OutboxRow]:
    """The table's rows to hand to the transport: every held row and every row due now
    (those left ``sending`` by a crash included), each marked ``sending`` first, so that
    a crash from here on leaves them in doubt rather than forgotten. Empty when nothing
    is due: held news alone waits for its round."""
    with Transaction(conn):
        claimed = _claim_stored(conn, table_id, now)
    return claimed if any(r.state != "held" for r in claimed) else []


def insert_claimed(conn: sqlite3.Connection, table_id: int, rows: list[OutboxRow],
                   now: float) -> list[OutboxRow]:
    """``insert_outbox`` then ``claim_outbox`` at ``now``, as one (in a save's
    transaction): the rows already there claimed, then this save's written as the claim
    leaves them (a row due ``sending``, one attempt), not written and changed again.
    The answer is the claim's: the rows as they were before it, a new one ``pending``
    with its id."""
    claimed = _claim_stored(conn, table_id, now)
    for row in rows:
        due = row.state in ("pending", "sending") and row.due_at <= now
        payload = with_table_id(row.payload, table_id)
        (row_id,) = conn.execute(
            "INSERT INTO outbox (table_id, version, seat, payload, state, attempts, due_at, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (table_id, row.version, row.seat, canonical(payload),
             "sending" if due else row.state, 1 if due else 0, row.due_at,
             row.created_at)).fetchone()
        if due or row.state == "held":
            claimed.append(OutboxRow(id=row_id, table_id=table_id, version=row.version,
                                     seat=row.seat, payload=payload, state=row.state,
                                     due_at=row.due_at, created_at=row.created_at))
    return claimed if any(r.state != "held" for r in claimed) else []


def _claim_stored(conn: sqlite3.Connection, table_id: int, now: float) -> list[OutboxRow]:
    rows = conn.execute(
        "SELECT * FROM outbox WHERE table_id = ? AND (state = 'held' OR "
        "(state IN ('pending', 'sending') AND due_at <= ?)) ORDER BY id",
        (table_id, now)).fetchall()
    claimed = [outbox_from_row(r) for r in rows]
    conn.executemany(
        "UPDATE outbox SET state = 'sending', attempts = attempts + 1 WHERE id = ?",
        [(r.id,) for r in claimed if r.state != "held"])
    return claimed


def mark_outbox(conn: sqlite3.Connection, results: list[OutboxResult], now: float) -> None:
    # A row done with (sent, or failed for good) keeps what a reader inspecting it needs
    # (who, which template, which version, when, why it failed), not every byte it carried.
    with Transaction(conn):
        conn.executemany(
            "UPDATE outbox SET state = ?1, due_at = ?2, error = ?3, done_at = ?4, payload = "
            f"CASE WHEN ?4 IS NULL THEN payload ELSE json_remove(payload, {SPENT_SQLITE}) END, "
            "sent = ?6 WHERE id = ?5",
            [(r.state, r.due_at, r.error, now if r.state in ("sent", "failed") else None, r.id,
              sent_to_column(r.sent))
             for r in results])


def prune_outbox(conn: sqlite3.Connection, before: float,
                 failed_before: float | None = None) -> int:
    failed = before if failed_before is None else failed_before
    with Transaction(conn):
        return conn.execute("DELETE FROM outbox WHERE (state = 'sent' AND done_at < ?) OR "
                            "(state = 'failed' AND done_at < ?)", (before, failed)).rowcount


def record_menu(conn: sqlite3.Connection, menu: MenuRecord) -> None:
    with Transaction(conn):
        conn.execute("INSERT OR REPLACE INTO menus VALUES (?, ?, ?, ?, ?)",
                     (menu.table_id, menu.seat, menu.prompt_version, menu.channel_id,
                      menu.message_id))


def drop_menu(conn: sqlite3.Connection, table_id: int, message_id: str) -> None:
    with Transaction(conn):
        conn.execute("DELETE FROM menus WHERE table_id = ? AND message_id = ?",
                     (table_id, message_id))


def take_menus(conn: sqlite3.Connection, table_id: int, seat: int | None,
                before_version: int | None) -> list[MenuRecord]:
    where = "table_id = ?"
    params: list[Any] = [table_id]
    if seat is not None:
        where += " AND seat = ?"
        params.append(seat)
    if before_version is not None:
        where += " AND prompt_version < ?"
        params.append(before_version)
    with Transaction(conn):
        rows = conn.execute(f"SELECT * FROM menus WHERE {where}", params).fetchall()
        conn.execute(f"DELETE FROM menus WHERE {where}", params)
    return [MenuRecord(r["table_id"], r["seat"], r["prompt_version"], r["channel_id"],
                       r["message_id"]) for r in rows]
