"""``urbanist migrate``: SQLite -> PostgreSQL -> SQLite keeps every row as it was (ids,
revs, outbox states, menus), every game replays on the target, and a bot started on the
target carries on; a target that is not empty, or the source itself, is refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from conftest import HOST, PLAYERS, RenderingNotifier, new_table
from store_backends import PgServer
from test_outbox import ScriptedNotifier

from bot.cli import main as urbanist
from bot.clock import FakeClock
from bot.service import TableService
from bot.service.notifications import Retry
from bot.store import MenuRecord, Store, TableRecord, open_store
from bot.store.migrate import compare_stores, migrate
from bot.store.row_copy import SCHEMA, MigrationError


async def _fill(db: str, clock: FakeClock) -> dict[str, int]:
    """A database with a bit of everything: a lobby, running tables with timers and a
    bot, a finished game, owed messages in several states, menus."""
    store = await open_store(db)
    try:
        flaky = ScriptedNotifier(answer=lambda n: Retry(60.0, "503") if n.seat == 1
                                 else "sent")
        service = TableService(store, flaky, clock=clock)
        lobby = await new_table(service, humans=2, start=False)
        running = await new_table(service, humans=3, seed=11)
        prompt = await service.prompt(running, HOST)
        await service.act(running, HOST, prompt.options[0].json, version=prompt.version)
        with_bot = await new_table(service, humans=1, bots=2, seed=5)
        finished = await new_table(service, humans=2, rounds=1, seed=3)
        while (info := await service.info(finished)).status == "running":
            seat = min(info.waiting)
            p = await service.prompt(finished, PLAYERS[seat])
            await service.act(finished, PLAYERS[seat], p.options[0].json, version=p.version)
        await service.pause(with_bot, HOST)
        await store.record_menu(MenuRecord(running, 1, 2, "dm1", "m-1"))
        await store.record_menu(MenuRecord(running, 2, 2, "dm2", "m-2"))
        return {"lobby": lobby, "running": running, "with_bot": with_bot,
                "finished": finished}
    finally:
        await store.close()


async def _everything(store: Store) -> list[object]:
    """All that the store gives back, table by table."""
    seen: list[object] = []
    for table in await store.find_tables():
        seen += [table, await store.load_seats(table.id), await store.load_timers(table.id),
                 await store.load_actions(table.id)]
    return [*seen, await store.load_outbox(), sorted(await store.scheduled_timers(),
                                                     key=lambda s: (s.table_id, s.kind))]


async def test_sqlite_to_postgres_and_back_keeps_everything(
        tmp_path: Path, pg_server: PgServer, clock: FakeClock) -> None:
    source = str(tmp_path / "source.sqlite3")
    ids = await _fill(source, clock)
    pg = pg_server.url_of(await pg_server.new_database())
    back = str(tmp_path / "back.sqlite3")
    try:
        there = await migrate(source, pg)
        assert there.ok, there.problems
        assert there.replayed == 3  # running, paused (with_bot) and finished
        assert there.rows["tables"] == 4 and there.rows["actions"] > 3
        assert there.rows["outbox"] > 0 and there.rows["menus"] == 2
        assert there.rows["results"] == 2  # the finished game's two players
        again = await migrate(pg, back)
        assert again.ok and again.rows == there.rows and again.replayed == 3

        stores = [await open_store(x) for x in (source, pg, back)]
        try:
            original, on_pg, returned = [await _everything(s) for s in stores]
            assert on_pg == original and returned == original
            assert await compare_stores(stores[0], stores[2]) == []
            states = {r.state for r in await stores[1].load_outbox()}
            assert {"pending", "sent"} <= states  # seat 1's messages still owed
            taken = await stores[1].take_menus(ids["running"], None, None)
            assert sorted(m.message_id for m in taken) == ["m-1", "m-2"]
        finally:
            for s in stores:
                await s.close()

        # A bot process started on the copy carries on where the source stopped.
        store = await open_store(pg)
        try:
            service = TableService(store, RenderingNotifier(), clock=clock)
            await service.boot()
            info = await service.info(ids["running"])
            seat = min(info.waiting)
            p = await service.prompt(ids["running"], PLAYERS[seat])
            await service.act(ids["running"], PLAYERS[seat], p.options[0].json,
                              version=p.version)
            assert (await service.verify(ids["running"])).ok
            newer = await service.create(HOST, "fakepicks", options={"rounds": 1})
            assert newer.id == max(ids.values()) + 1  # numbered after the copied ids
        finally:
            await store.close()
    finally:
        await pg_server.drop_database(pg.rsplit("/", 1)[1].split("?")[0])


async def test_a_target_with_tables_is_refused_and_left_alone(tmp_path: Path,
                                                              clock: FakeClock) -> None:
    source, target = str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")
    await _fill(source, clock)
    store = await open_store(target)
    try:
        await store.create_table(TableRecord(game="fakepicks", options={}, seed=1,
                                             host_id="u0", max_seats=2), [])
    finally:
        await store.close()
    with pytest.raises(MigrationError, match="empty"):
        await migrate(source, target)
    store = await open_store(target)
    try:
        assert [t.id for t in await store.find_tables()] == [1]
    finally:
        await store.close()
    with pytest.raises(MigrationError, match="same"):
        await migrate(source, source)


async def test_the_comparison_names_each_table_whose_rows_differ(tmp_path: Path,
                                                                 clock: FakeClock) -> None:
    paths = [str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")]
    stores = [await open_store(p) for p in paths]
    try:
        for s in stores:
            await s.create_table(TableRecord(game="fakepicks", options={}, seed=1,
                                             host_id="u0", max_seats=2), [])
        assert await compare_stores(stores[0], stores[1]) == []
        await stores[0].create_table(TableRecord(game="fakepicks", options={}, seed=2,
                                                 host_id="u1", max_seats=2), [])
        assert await compare_stores(stores[0], stores[1]) == [
            "tables: 2 rows in the source, 1 in the target"]
        await stores[1].create_table(TableRecord(game="fakepicks", options={}, seed=3,
                                                 host_id="u1", max_seats=2), [])
        assert await compare_stores(stores[0], stores[1]) == ["tables: the rows differ"]
    finally:
        for s in stores:
            await s.close()


async def test_a_table_that_does_not_replay_is_reported(tmp_path: Path,
                                                        clock: FakeClock) -> None:
    source, target = tmp_path / "a.sqlite3", str(tmp_path / "b.sqlite3")
    ids = await _fill(str(source), clock)
    conn = sqlite3.connect(source)
    conn.execute("UPDATE tables SET snapshot = replace(snapshot, '\"round\":', "
                 "'\"round\": ') WHERE id = ?", (ids["finished"],))
    conn.commit()
    conn.close()
    report = await migrate(str(source), target)
    assert report.problems == [f"table {ids['finished']}: replayed state differs from snapshot"]


def test_the_command_line(tmp_path: Path, pg_server: PgServer, clock: FakeClock,
                          capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    source = str(tmp_path / "source.sqlite3")
    asyncio.run(_fill(source, clock))
    name = asyncio.run(pg_server.new_database())
    pg = pg_server.url_of(name)
    try:
        assert urbanist(["migrate", source, pg]) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[0].startswith(f"copied {source} to postgresql://") and "4 tables" in out[0]
        assert out[1:] == ["replayed 3 tables", "ok"]
        assert urbanist(["check", "--db", pg]) == 0
        assert capsys.readouterr().out.splitlines() == ["replayed 3 tables", "ok"]
        # Into a database that now has tables: refused, in one line.
        assert urbanist(["migrate", source, pg]) == 1
        assert "empty" in capsys.readouterr().err
        backup = tmp_path / "pg-backup.sqlite3"
        assert urbanist(["backup", str(backup), "--db", pg]) == 0
        assert urbanist(["check", "--db", str(backup)]) == 0
    finally:
        asyncio.run(pg_server.drop_database(name))


def test_every_table_of_the_schema_is_copied() -> None:
    """A table added by a migration must be added to SCHEMA (or said to be left out)."""
    conn = sqlite3.connect(":memory:")
    from bot.store.migrations import migrations

    for m in migrations():
        conn.executescript(m.sql)
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert names - {"leases"} == {t.name for t in SCHEMA}
    for table in SCHEMA:
        columns = {r[1] for r in conn.execute(f"PRAGMA table_info({table.name})")}
        assert columns == set(table.columns), table.name


async def test_postgres_has_the_same_columns(pg_server: PgServer) -> None:
    import asyncpg

    name = await pg_server.new_database()
    try:
        await (await open_store(pg_server.url_of(name))).close()
        conn = await asyncpg.connect(pg_server.url_of(name))
        try:
            for table in SCHEMA:
                rows = await conn.fetch("SELECT column_name FROM information_schema.columns "
                                        "WHERE table_schema = current_schema() AND table_name = $1",
                                        table.name)
                assert {r[0] for r in rows} == set(table.columns), table.name
        finally:
            await conn.close()
    finally:
        await pg_server.drop_database(name)


async def test_a_row_the_target_cannot_hold_stops_the_copy_whole(
        tmp_path: Path, pg_server: PgServer, clock: FakeClock) -> None:
    """PostgreSQL's text cannot hold a NUL character, SQLite's can: the copy stops with
    one line naming the table, and the target keeps nothing of it."""
    source = tmp_path / "a.sqlite3"
    ids = await _fill(str(source), clock)
    conn = sqlite3.connect(source)
    conn.execute("UPDATE seats SET name = ? WHERE table_id = ? AND seat = 1",
                 ("Bo\x00b", ids["running"]))
    conn.commit()
    conn.close()
    name = await pg_server.new_database()
    try:
        with pytest.raises(MigrationError, match="refused a row of seats"):
            await migrate(str(source), pg_server.url_of(name))
        target = await open_store(pg_server.url_of(name))
        try:
            assert await target.find_tables() == []
        finally:
            await target.close()
    finally:
        await pg_server.drop_database(name)
