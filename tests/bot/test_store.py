"""The store on both backends (SQLite and PostgreSQL): migrations, atomic saves,
append-only log, queries, backup; then what is particular to each."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_backends import integrity_errors, is_postgres, postgres_only, raw_execute

from bot.store import (
    ActionRecord,
    PostgresStore,
    SeatRecord,
    SqliteStore,
    Store,
    TableRecord,
    TimerRecord,
    VersionConflict,
    open_store,
)
from bot.store.health import StorageError
from bot.store.migrations import MIGRATIONS_DIR, migrations
from bot.store.pg_schema import pg_migrations

BACKENDS = ("sqlite", "postgres")


def _table() -> TableRecord:
    return TableRecord(game="fakepicks", options={"rounds": 2}, seed=5, host_id="u0",
                       max_seats=4, reminders=(3600,), created_at=1.0, updated_at=1.0)


async def test_sqlite_pragmas_and_schema_version(store: SqliteStore, db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(migrations()) >= 1
    conn.close()
    # synchronous is per connection: ask the store's own connection.
    rows = await store._conn.execute_fetchall("PRAGMA synchronous")
    assert next(iter(rows))[0] == 2  # FULL


async def test_reopen_does_not_migrate_twice(db_url: str) -> None:
    first = await open_store(db_url)
    try:
        table_id = await first.create_table(_table(), [SeatRecord(0, "Alice", "u0")])
    finally:
        await first.close()
    again = await open_store(db_url)
    try:
        loaded = await again.load_table(table_id)
    finally:
        await again.close()
    assert loaded is not None and loaded.options == {"rounds": 2}
    assert loaded.reminders == (3600,)


async def test_save_is_atomic_and_checks_the_version(store: Store) -> None:
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
    with pytest.raises(integrity_errors()):
        await store.save(table, expected_version=2, action=action,
                         timers=[TimerRecord(99.0, 1, "reminder")])
    assert (await store.load_table(table_id)).version == 2  # type: ignore[union-attr]
    assert await store.load_timers(table_id) == []
    assert [a.version for a in await store.load_actions(table_id)] == [2]


async def test_actions_are_append_only(store: Store, db_url: str) -> None:
    table = _table()
    table_id = await store.create_table(table, [])
    table.version = 2
    await store.save(table, action=ActionRecord(table_id, 2, 0, {"a": 1}, "bot", 1.0))
    statements = ["UPDATE actions SET seat = 1", "DELETE FROM actions"]
    if is_postgres(db_url):
        statements.append("TRUNCATE actions")
    for sql in statements:
        with pytest.raises(integrity_errors(), match="append-only"):
            await raw_execute(db_url, sql)
    assert [a.seat for a in await store.load_actions(table_id)] == [0]


async def test_queries_and_scheduled_timers(store: Store) -> None:
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
    # Only what falls due by a time (what the sweep asks for): the earliest of each kind.
    soon = [(s.kind, s.due_at) for s in await store.scheduled_timers(before=30.0)]
    assert soon == [("reminder", 20.0)]
    assert sorted((s.kind, s.due_at) for s in await store.scheduled_timers(before=45.0)) == [
        ("deadline", 40.0), ("reminder", 20.0)]
    assert await store.scheduled_timers(before=10.0) == []
    assert [t.id for t in await store.find_tables(channel_id="chan")] == [b_id]
    assert [t.id for t in await store.find_tables(user_id="u0")] == [a_id]
    assert [t.id for t in await store.find_tables(statuses=["running"])] == [a_id]
    assert await store.table_ids(["running", "lobby"]) == [a_id, b_id]
    assert await store.table_ids(["finished"]) == []


async def test_integrity_check_and_backup(store: Store, tmp_path: Path) -> None:
    """A backup is an SQLite file on both backends (PostgreSQL's copies every row)."""
    table = _table()
    table_id = await store.create_table(table, [SeatRecord(0, "Alice", "u0")])
    table.version = 2
    await store.save(table, action=ActionRecord(table_id, 2, 0, {"a": "é"}, "bot", 1.5))
    assert await store.integrity_check() == []
    target = tmp_path / "copy.sqlite3"
    await store.backup(target)
    copy = await SqliteStore.open(target)
    try:
        assert await copy.integrity_check() == []
        loaded = await copy.load_seats(table_id)
        assert [s.name for s in loaded] == ["Alice"]
        assert await copy.load_actions(table_id) == await store.load_actions(table_id)
        assert await copy.load_table(table_id) == await store.load_table(table_id)
    finally:
        await copy.close()


async def test_json_that_does_not_decode_is_a_problem(store: Store, db_url: str) -> None:
    table_id = await store.create_table(_table(), [])
    await raw_execute(db_url, "UPDATE tables SET options = '{broken', rev = rev + 1 "
                      "WHERE id = ?", table_id)
    (problem,) = await store.integrity_check()
    assert f"tables {table_id}: options is not JSON" in problem


TRICKY_SNAPSHOT = {"b": [0.1, 1e-7, 2.5e300, -0.0, 12345678901234567890], "a": "é\u2028\n\"",
                   "Z": {"nested": [True, False, None]}, "ß": "\U0001f3d9"}


async def test_snapshots_come_back_byte_for_byte(store: Store) -> None:
    """Snapshots are compared as text by the replay check: what is stored is exactly the
    canonical text given, whatever JSON would do with its keys or numbers."""
    from bot.store import canonical

    table = _table()
    table_id = await store.create_table(table, [])
    table.status, table.version = "running", 1
    table.snapshot = canonical(TRICKY_SNAPSHOT)
    table.outcome = {"scores": [1.5, 2], "z": "ü"}
    await store.save(table)
    loaded = await store.load_table(table_id)
    assert loaded is not None
    assert loaded.snapshot == canonical(TRICKY_SNAPSHOT)
    assert loaded.outcome == table.outcome and loaded.options == table.options


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=json_values)
async def test_any_canonical_text_round_trips(store: Store, value: object) -> None:
    from bot.store import canonical

    table = _table()
    table_id = await store.create_table(table, [])
    table.snapshot = canonical(value)
    await store.save(table)
    loaded = await store.load_table(table_id)
    assert loaded is not None and loaded.snapshot == canonical(value)


async def test_forged_ids_are_unknown(store: Store) -> None:
    await store.create_table(_table(), [])
    for forged in (0, -1, 2, 2**63, 2**64 + 5):
        assert await store.load_table(forged) is None
        assert await store.load_bundle(forged) is None


# -- SQLite only ------------------------------------------------------------------------


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
        assert next(iter(version))[0] == len(migrations()) >= 4
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


# -- PostgreSQL only --------------------------------------------------------------------


@pytest.fixture
def pg_url(db_url: str) -> str:
    assert is_postgres(db_url)
    return db_url


@postgres_only
async def test_postgres_schema_version_and_tables(store: Store, pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        versions = [r[0] for r in await conn.fetch(
            "SELECT version FROM urbanist_schema ORDER BY version")]
        assert versions == [m.number for m in pg_migrations()] == list(range(1, len(versions) + 1))
        assert len(versions) >= 2
        names = {r[0] for r in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
        assert {"tables", "seats", "actions", "timers", "outbox", "menus", "leases"} <= names
    finally:
        await conn.close()


@postgres_only
async def test_postgres_processes_starting_together_migrate_once(pg_url: str) -> None:
    stores = await asyncio.gather(*(PostgresStore.open(pg_url) for _ in range(4)))
    try:
        conn = await asyncpg.connect(pg_url)
        try:
            assert await conn.fetchval("SELECT count(*) FROM urbanist_schema") == len(
                pg_migrations())
        finally:
            await conn.close()
        assert [await s.find_tables() for s in stores] == [[]] * 4
    finally:
        for s in stores:
            await s.close()


@postgres_only
async def test_postgres_newer_schema_is_refused(pg_url: str) -> None:
    await (await PostgresStore.open(pg_url)).close()
    await raw_execute(pg_url, "INSERT INTO urbanist_schema (version) VALUES (99)")
    with pytest.raises(StorageError) as refused:
        await PostgresStore.open(pg_url)
    assert refused.value.code == "newer_schema" and "99" in refused.value.message


@postgres_only
async def test_postgres_no_write_rolls_a_table_back(store: Store, pg_url: str) -> None:
    """Beside the store's own rev check, the database refuses any UPDATE that lowers
    the version or leaves the rev where a stale copy could match it."""
    table = _table()
    table_id = await store.create_table(table, [])
    table.version = 5
    await store.save(table)
    for sql in ("UPDATE tables SET version = 4, rev = rev + 1 WHERE id = ?",
                "UPDATE tables SET status = 'aborted' WHERE id = ?"):
        with pytest.raises(integrity_errors(), match="would go back"):
            await raw_execute(pg_url, sql, table_id)
    loaded = await store.load_table(table_id)
    assert loaded is not None and (loaded.version, loaded.status, loaded.rev) == (5, "lobby", 1)


async def test_postgres_unreachable_server_is_a_storage_error(tmp_path: Path) -> None:
    url = f"postgresql://nobody:secret@/urbanist?host={tmp_path}&port=1"
    with pytest.raises(StorageError) as refused:
        await open_store(url)
    assert refused.value.code == "cannot_open"
    assert "secret" not in refused.value.message and "***" in refused.value.message


@postgres_only
async def test_postgres_missing_database_is_named(pg_url: str) -> None:
    url = pg_url.replace("/urbanist_test_", "/no_such_", 1)
    with pytest.raises(StorageError) as refused:
        await open_store(url)
    assert refused.value.code == "missing"


async def test_the_store_is_chosen_by_url_or_environment(
        db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.store import describe

    monkeypatch.setenv("URBANIST_DB", db_url)
    store = await open_store()
    try:
        kind = PostgresStore if is_postgres(db_url) else SqliteStore
        assert isinstance(store, kind)
    finally:
        await store.close()
    monkeypatch.delenv("URBANIST_DB")
    monkeypatch.chdir(tmp_path)
    store = await open_store()
    try:
        assert isinstance(store, SqliteStore)
        assert Path(store.path) == Path("urbanist.sqlite3")
    finally:
        await store.close()
    assert describe("postgresql://bot:s3cret@db.example/urbanist") == (
        "postgresql://bot:***@db.example/urbanist")
    assert describe("postgres://db/urbanist") == "postgres://db/urbanist"
    assert describe(tmp_path / "x.sqlite3") == str(tmp_path / "x.sqlite3")


def test_canonical_json_has_one_spelling_whatever_the_key_order() -> None:
    from bot.store import canonical

    # Snapshots are compared as text, and exports carry a digest of this text: keys
    # sorted, no spaces, letters as they are (not \u escapes).
    assert canonical({"b": [1, 2], "a": "Zoé"}) == '{"a":"Zoé","b":[1,2]}'
    assert canonical({"a": "Zoé", "b": [1, 2]}) == canonical({"b": [1, 2], "a": "Zoé"})


def test_an_empty_or_path_urbanist_db_names_an_sqlite_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.store.factory import default_target

    monkeypatch.setenv("URBANIST_DB", "")  # set but empty: the default file, not ""
    assert default_target() == Path("urbanist.sqlite3")
    monkeypatch.setenv("URBANIST_DB", str(tmp_path / "x.sqlite3"))
    assert default_target() == tmp_path / "x.sqlite3"
    monkeypatch.setenv("URBANIST_DB", "postgresql://bot@db/urbanist")
    assert default_target() == "postgresql://bot@db/urbanist"


def test_postgres_faults_are_told_apart_from_bugs() -> None:
    from bot.store.pg_faults import explain

    where = "postgresql://bot:***@db/urbanist"
    codes = {type(e).__name__: (f.code if (f := explain(e, where)) else None) for e in (
        asyncpg.DiskFullError("full"), asyncpg.TooManyConnectionsError("many"),
        asyncpg.OutOfMemoryError("oom"), asyncpg.AdminShutdownError("bye"),
        asyncpg.ConnectionDoesNotExistError("gone"), asyncpg.DeadlockDetectedError("dl"),
        asyncpg.InvalidCatalogNameError("nodb"), asyncpg.InvalidPasswordError("pw"),
        asyncpg.UniqueViolationError("dup"), asyncpg.UndefinedColumnError("col"),
        ConnectionRefusedError("refused"), TimeoutError())}
    assert codes == {
        "DiskFullError": "disk_full", "TooManyConnectionsError": "busy",
        "OutOfMemoryError": "io_error", "AdminShutdownError": "io_error",
        "ConnectionDoesNotExistError": "io_error", "DeadlockDetectedError": "busy",
        "InvalidCatalogNameError": "missing", "InvalidPasswordError": "cannot_open",
        # Bugs show as what they are.
        "UniqueViolationError": None, "UndefinedColumnError": None,
        "ConnectionRefusedError": "cannot_open", "TimeoutError": "io_error"}
