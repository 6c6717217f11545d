"""The save that claims its own outbox rows (issue 25): an action is one synced commit
(the save, its rows claimed for the delivery worker) and one unsynced one (the rows
marked sent), and nothing of the outbox's promises is traded for it: every row is offered
once, in order, and a row whose fate is unknown is offered as in doubt."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import HOST, PLAYERS, new_table
from test_outbox import ScriptedNotifier, play_out
from test_unconfirmed_commit import break_saves

from bot.clock import FakeClock
from bot.service import TableService
from bot.store import SqliteStore, TableRecord
from bot.store.sqlite_save import write_many

Batch = tuple[list[str], bool]  # the writes of one transaction, and whether it synced


def spy_on_transactions(store: SqliteStore) -> list[Batch]:
    batches: list[Batch] = []
    run = store._group.run

    async def spied(fn: Callable[..., Any], calls: list[Any], synced: bool = True) -> Any:
        batches.append(([f.__name__ for f, _ in calls], synced))
        return await run(fn, calls, synced)

    store._group.run = spied
    return batches


def task_notifier() -> ScriptedNotifier:
    return ScriptedNotifier(inline=False)  # sent by the delivery task, as Discord's


@contextlib.asynccontextmanager
async def task_world(db: Path, clock: FakeClock
                     ) -> AsyncIterator[tuple[SqliteStore, TableService, ScriptedNotifier]]:
    notifier = task_notifier()
    store = await SqliteStore.open(db)
    try:
        yield store, TableService(store, notifier, clock=clock), notifier
    finally:
        await store.close()


async def test_an_action_is_one_synced_commit_its_marks_unsynced(
        db_path: Path, clock: FakeClock) -> None:
    async with task_world(db_path, clock) as (store, service, notifier):
        table = await new_table(service, humans=2)
        await service.delivery.idle()
        batches = spy_on_transactions(store)
        notifier.offered.clear()
        while (info := await service.info(table)).status == "running":
            seat = min(info.waiting)
            prompt = await service.prompt(table, PLAYERS[seat])
            await service.act(table, PLAYERS[seat], prompt.options[0].json,
                              version=prompt.version)
            await service.delivery.idle()  # each action's messages out before the next
        saves = [b for b in batches if "write_save" in b[0]]
        assert saves and all(synced for _, synced in saves)
        # No claim of its own: each save claimed its rows, and the marks went unsynced.
        assert not any("claim_outbox" in names for names, _ in batches)
        assert [b for b in batches if b not in saves] == [(["mark_outbox"], False)] * len(
            [b for b in batches if b not in saves])
        ids = [n.outbox_id for n in notifier.offered]
        assert ids == sorted(set(ids)) and not any(n.in_doubt for n in notifier.offered)
        assert "game_over" in [n.template for n in notifier.offered]
        assert await store.load_outbox(table, ["pending", "sending", "held"]) == []


async def test_actions_faster_than_their_sending_fall_back_to_the_worker_claim(
        db_path: Path, clock: FakeClock) -> None:
    """A save while the table's task is still sending claims nothing (two senders of one
    table would break the order): the task claims the new rows once it is done."""
    async with task_world(db_path, clock) as (store, service, notifier):
        table = await new_table(service, humans=2)
        batches = spy_on_transactions(store)
        await play_out(service, table)  # no pause between actions
        await service.delivery.idle()
        assert any("claim_outbox" in names for names, _ in batches)
        ids = [n.outbox_id for n in notifier.offered]
        assert ids == sorted(set(ids)) and not any(n.in_doubt for n in notifier.offered)
        assert await store.load_outbox(table, ["pending", "sending", "held"]) == []


async def test_a_kick_during_a_claiming_save_waits_for_it(db_path: Path,
                                                          clock: FakeClock) -> None:
    async with task_world(db_path, clock) as (store, service, notifier):
        table = await new_table(service, humans=2)
        await service.delivery.idle()
        gate, saving = asyncio.Event(), asyncio.Event()
        real = store.save

        async def slow_save(record: Any, **kwargs: Any) -> Any:
            claimed = await real(record, **kwargs)  # committed, its rows claimed
            saving.set()
            await gate.wait()  # and its answer not yet back
            return claimed

        store.save = slow_save  # type: ignore[method-assign, assignment]
        prompt = await service.prompt(table, HOST)
        act = asyncio.create_task(
            service.act(table, HOST, prompt.options[0].json, version=prompt.version))
        await saving.wait()
        service.delivery.kick(table)  # a sweep, say, while the save is under way
        await asyncio.sleep(0)
        assert table not in service.delivery._tasks  # it waits for the save's rows
        gate.set()
        await act
        store.save = real  # type: ignore[method-assign]
        await service.delivery.idle()
        ids = [n.outbox_id for n in notifier.offered]
        # Offered once each, none taken back as in doubt by the kick's claim.
        assert ids == sorted(set(ids)) and not any(n.in_doubt for n in notifier.offered)
        assert await store.load_outbox(table, ["pending", "sending"]) == []


async def test_a_claiming_save_whose_answer_was_lost_offers_its_rows_in_doubt(
        db_path: Path, clock: FakeClock) -> None:
    """The commit landed (and claimed its rows) but the answer never came: the rows are
    ``sending`` in the database, so they are offered as in doubt (the transport looks for
    them before sending them again), never dropped and never sent blind twice."""
    async with task_world(db_path, clock) as (store, service, notifier):
        table = await new_table(service, humans=2)
        await service.delivery.idle()
        notifier.offered.clear()
        prompt = await service.prompt(table, HOST)
        break_saves(store, commit_first=True)
        await service.act(table, HOST, prompt.options[0].json, version=prompt.version)
        await service.delivery.idle()
        offered = [n for n in notifier.offered if n.version == prompt.version + 1]
        assert offered and all(n.in_doubt for n in offered)
        assert len({n.outbox_id for n in offered}) == len(offered)
        assert await store.load_outbox(table, ["pending", "sending"]) == []


def test_an_unsynced_transaction_restores_full_sync_whatever_happens(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "t.sqlite3", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE t (x INTEGER)")
    seen: list[int] = []

    def write(c: sqlite3.Connection) -> None:
        seen.append(c.execute("PRAGMA synchronous").fetchone()[0])
        c.execute("INSERT INTO t VALUES (1)")

    def broken(c: sqlite3.Connection) -> None:
        write(c)
        raise OSError("the disk went away")

    assert write_many(conn, [(write, ())], False) == [None]
    with pytest.raises(OSError):
        write_many(conn, [(broken, ())], False)
    write_many(conn, [(write, ())])
    assert seen == [1, 1, 2]  # NORMAL, NORMAL, then FULL again for a synced one
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    assert conn.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 2  # the broken one undone
    conn.close()


async def test_a_transaction_with_any_synced_write_syncs(db_path: Path) -> None:
    store = await SqliteStore.open(db_path)
    try:
        batches = spy_on_transactions(store)
        table = await store.create_table(_table(), [])
        record = await store.load_table(table)
        assert record is not None
        # A mark and a save arriving together share a transaction, which syncs.
        await asyncio.gather(store.mark_outbox([], 1.0), store.save(record))
        await store.mark_outbox([], 2.0)
        assert batches == [(["mark_outbox", "write_save"], True), (["mark_outbox"], False)]
    finally:
        await store.close()


def _table() -> TableRecord:
    return TableRecord(game="fakepicks", options={"rounds": 2}, seed=5, host_id="u0",
                       max_seats=4, created_at=1.0, updated_at=1.0)


async def _offered_in_a_game(db: Path, clock: FakeClock) -> list[Any]:
    async with task_world(db, clock) as (_, service, notifier):
        table = await new_table(service, humans=3)
        while (info := await service.info(table)).status == "running":
            seat = min(info.waiting)
            prompt = await service.prompt(table, PLAYERS[seat])
            await service.act(table, PLAYERS[seat], prompt.options[-1].json,
                              version=prompt.version)
            await service.delivery.idle()
    return list(notifier.offered)


async def test_a_saves_own_notes_go_out_as_they_would_read_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The delivery hands the transport the notes a save wrote as it made them, not read
    back from their rows: the transport must receive the very same notifications."""
    from bot.service import delivery

    real, matched = delivery._as_written, []

    def spied(claimed: Any, owed: Any) -> Any:
        matched.append(len(found := real(claimed, owed)))
        return found

    monkeypatch.setattr(delivery, "_as_written", spied)
    kept = await _offered_in_a_game(tmp_path / "kept.sqlite3", FakeClock())
    assert sum(matched) > 20  # most notes went out as made
    monkeypatch.setattr(delivery, "_as_written", lambda claimed, owed: {})
    read_back = await _offered_in_a_game(tmp_path / "read.sqlite3", FakeClock())
    assert len(kept) > 20
    assert kept == read_back
