"""The SQLite store: pragmas, migrations, atomic saves, append-only log, backup."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import (
    ActionRecord,
    SeatRecord,
    SqliteStore,
    TableRecord,
    TimerRecord,
    VersionConflict,
)
from bot.store.migrations import MIGRATIONS_DIR, migrations


def _table() -> TableRecord:
    return TableRecord(game="fakepicks", options={"rounds": 2}, seed=5, host_id="u0",
                       max_seats=4, reminders=(3600,), created_at=1.0, updated_at=1.0)


async def test_pragmas_and_schema_version(store: SqliteStore, db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(migrations()) >= 1
    conn.close()
    # synchronous is per connection: ask the store's own connection.
    rows = await store._conn.execute_fetchall("PRAGMA synchronous")
    assert next(iter(rows))[0] == 2  # FULL


async def test_reopen_does_not_migrate_twice(db_path: Path) -> None:
    first = await SqliteStore.open(db_path)
    table_id = await first.create_table(_table(), [SeatRecord(0, "Alice", "u0")])
    await first.close()
    again = await SqliteStore.open(db_path)
    loaded = await again.load_table(table_id)
    await again.close()
    assert loaded is not None and loaded.options == {"rounds": 2}
    assert loaded.reminders == (3600,)


async def test_save_is_atomic_and_checks_the_version(store: SqliteStore) -> None:
    table = _table()
    table_id = await store.create_table(table, [SeatRecord(0, "Alice", "u0")])
    table.status, table.version, table.snapshot = "running", 1, '{"x":1}'
    await store.save(table, timers=[TimerRecord(10.0, 0, "deadline")])
    table.version = 2
    action = ActionRecord(table_id, 2, 0, {"t": "pick", "card": 3}, "player", 5.0, "u0")
    # Wrong expected version: nothing at all is written, not even the action.
    with pytest.raises(VersionConflict):
        await store.save(table, expected_version=7, action=action, timers=[])
    assert (await store.load_table(table_id)).version == 1  # type: ignore[union-attr]
    assert await store.load_actions(table_id) == []
    assert await store.load_timers(table_id) == [TimerRecord(10.0, 0, "deadline")]
    # A failure inside the transaction (duplicate action version) rolls everything back.
    await store.save(table, expected_version=1, action=action, timers=[])
    table.version = 3
    with pytest.raises(sqlite3.IntegrityError):
        await store.save(table, expected_version=2, action=action,
                         timers=[TimerRecord(99.0, 1, "reminder")])
    assert (await store.load_table(table_id)).version == 2  # type: ignore[union-attr]
    assert await store.load_timers(table_id) == []
    assert [a.version for a in await store.load_actions(table_id)] == [2]


async def test_actions_are_append_only(store: SqliteStore, db_path: Path) -> None:
    table = _table()
    table_id = await store.create_table(table, [])
    table.version = 2
    await store.save(table, action=ActionRecord(table_id, 2, 0, {"a": 1}, "bot", 1.0))
    conn = sqlite3.connect(db_path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE actions SET seat = 1")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM actions")
    conn.close()


async def test_queries_and_scheduled_timers(store: SqliteStore) -> None:
    a, b = _table(), _table()
    b.channel_id = "chan"
    a_id = await store.create_table(a, [SeatRecord(0, "Alice", "u0")])
    b_id = await store.create_table(b, [SeatRecord(0, "Bob", "u1")])
    a.status, a.version = "running", 4
    await store.save(a, timers=[TimerRecord(50.0, 0, "deadline"), TimerRecord(20.0, 0,
                     "reminder"), TimerRecord(40.0, 1, "deadline")])
    await store.save(b, timers=[TimerRecord(5.0, 0, "deadline")])  # lobby: not scheduled
    scheduled = sorted((s.table_id, s.version, s.kind, s.due_at)
                       for s in await store.scheduled_timers())
    assert scheduled == [(a_id, 4, "deadline", 40.0), (a_id, 4, "reminder", 20.0)]
    assert [t.id for t in await store.find_tables(channel_id="chan")] == [b_id]
    assert [t.id for t in await store.find_tables(user_id="u0")] == [a_id]
    assert [t.id for t in await store.find_tables(statuses=["running"])] == [a_id]


async def test_integrity_check_and_backup(store: SqliteStore, tmp_path: Path) -> None:
    table_id = await store.create_table(_table(), [SeatRecord(0, "Alice", "u0")])
    assert await store.integrity_check() == []
    target = tmp_path / "copy.sqlite3"
    await store.backup(target)
    copy = await SqliteStore.open(target)
    try:
        assert await copy.integrity_check() == []
        loaded = await copy.load_seats(table_id)
        assert [s.name for s in loaded] == ["Alice"]
    finally:
        await copy.close()


def _database_at_schema_1(path: Path) -> None:
    """A database as the first release left it: only 0001 applied, one table in it."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript((MIGRATIONS_DIR / "0001_initial.sql").read_text("utf-8"))
    conn.execute("PRAGMA user_version = 1")
    conn.execute(
        "INSERT INTO tables (game, options, seed, status, version, channel_id, locale, "
        "host_id, deadline_seconds, reminders, timeout_policy, seat_order, max_seats, "
        "created_at, updated_at) VALUES ('fakepicks', '{\"rounds\":2}', 5, 'running', 3, "
        "'chan', 'fr', 'u0', 3600, '[600]', 'ai', 'join', 4, 1.0, 2.0)")
    conn.execute("INSERT INTO seats VALUES (1, 0, 'u0', 'Alice', 0, NULL, 1, 3)")
    conn.close()


async def test_an_existing_schema_1_database_is_upgraded(db_path: Path) -> None:
    _database_at_schema_1(db_path)
    store = await SqliteStore.open(db_path)
    try:
        version = await store._conn.execute_fetchall("PRAGMA user_version")
        assert next(iter(version))[0] == 3 == len(migrations())
        # The old row is intact, with no status message yet.
        table = await store.load_table(1)
        assert table is not None
        assert (table.game, table.status, table.version, table.locale, table.reminders) == (
            "fakepicks", "running", 3, "fr", (600,))
        assert (table.status_channel_id, table.status_message_id) == (None, None)
        assert (table.rev, table.bot_turn) == (0, False)
        assert await store.load_outbox() == []
        assert [s.name for s in await store.load_seats(1)] == ["Alice"]
        # The new columns are written and read back like the others.
        table.status_channel_id, table.status_message_id = "chan", "777"
        await store.save(table, expected_version=3)
    finally:
        await store.close()
    again = await SqliteStore.open(db_path)  # reopening migrates nothing more
    try:
        reloaded = await again.load_table(1)
        assert reloaded is not None
        assert (reloaded.status_channel_id, reloaded.status_message_id) == ("chan", "777")
        assert reloaded.version == 3
    finally:
        await again.close()
