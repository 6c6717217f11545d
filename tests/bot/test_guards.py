"""The store's and the service's guards, each tested so that removing it fails a test:
a corrupt database stops the boot, a gap in the log fails the replay, a database newer
than the code is refused, SQLite waits for a lock and enforces foreign keys, the public
log holds no event meant for one seat, and a bad AI choice falls back to a legal move."""

from __future__ import annotations

import dataclasses
import sqlite3
import threading
from pathlib import Path
from typing import Any

import fakegame
import pytest
from conftest import HOST, PLAYERS, new_table

from bot.clock import FakeClock
from bot.service import StoreCorrupt, TableService
from bot.service.replay import verify_replay
from bot.store import SqliteStore
from bot.store.health import StorageError
from bot.store.migrations import migrations
from bot.store.records import MenuRecord
from engine.core import get_game

DAY = 24 * 3600.0


async def test_a_row_that_does_not_decode_is_found_by_the_audit_not_the_start(
        service: TableService, store: SqliteStore, db_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A start reads the live tables' timers only (issue 25): one table whose snapshot no
    longer decodes does not keep the others' deadlines from being planned. The audit that
    runs once the bot is up finds it, and says to run ``urbanist check``."""
    broken, sound = await new_table(service, humans=2), await new_table(service, humans=2)
    assert await service.audit() == []
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE tables SET snapshot = '{not json' WHERE id = ?", (broken,))
    conn.close()
    report = await service.boot()
    assert report.running_tables == 2
    assert set(service.deadlines.planned) == {broken, sound}
    (problem,) = await service.audit()
    assert f"tables {broken}: snapshot is not JSON" in problem
    assert "run `urbanist check`" in caplog.text


async def test_boot_refuses_a_file_that_failed_its_quick_check(
        service: TableService, store: SqliteStore) -> None:
    store.problems = ["*** in database main *** Page 7: btreeInitPage() returns error code 11"]
    with pytest.raises(StoreCorrupt, match="btreeInitPage"):
        await service.boot()


async def test_replay_detects_a_gap_in_the_action_log(service: TableService,
                                                      store: SqliteStore) -> None:
    table = await new_table(service, humans=2)
    for actor in PLAYERS[:2]:
        await service.act_text(table, actor, (await service.prompt(table, actor))
                               .options[0].text)
    record = await store.load_table(table)
    actions = await store.load_actions(table)
    assert record is not None and [a.version for a in actions] == [2, 3]
    game = get_game("fakepicks")
    assert verify_replay(game, record, 2, actions).ok
    # Versions 2 and 4: each action still applies, and the count still matches the table's
    # version 3, so only the gap check can see that version 3 is missing.
    gapped = [actions[0], dataclasses.replace(actions[1], version=4)]
    report = verify_replay(game, record, 2, gapped)
    assert not report.ok and report.problem == "gap in the log before version 4"


async def test_a_database_one_schema_newer_is_refused(db_path: Path) -> None:
    store = await SqliteStore.open(db_path)
    await store.close()
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version = {len(migrations()) + 1}")
    conn.close()
    with pytest.raises(StorageError) as refused:
        await SqliteStore.open(db_path)
    assert refused.value.code == "newer_schema"


async def test_a_write_waits_for_a_briefly_held_lock(service: TableService, store: SqliteStore,
                                                     db_path: Path) -> None:
    """Another connection holds the write lock for 0.3 s: the store waits for it
    (busy_timeout) instead of failing with "database is locked"."""
    table = await new_table(service, humans=2)
    other = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    release.start()
    try:
        await service.act_text(table, HOST, (await service.prompt(table, HOST))
                               .options[0].text)
    finally:
        release.join()
        other.close()
    assert [a.seat for a in await store.load_actions(table)] == [0]
    timeout = await store._run(lambda c: c.execute("PRAGMA busy_timeout").fetchone()[0])
    assert timeout >= 1000


async def test_foreign_keys_are_enforced(store: SqliteStore) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        await store.record_menu(MenuRecord(table_id=424242, seat=0, prompt_version=1,
                                           channel_id="c", message_id="m"))


async def test_the_public_log_holds_no_event_meant_for_one_seat(service: TableService,
                                                              store: SqliteStore) -> None:
    table = await new_table(service, humans=2)
    game = get_game("fakepicks")
    live_events: list[Any] = []
    original = type(game).apply

    def spying(self: Any, state: Any, seat: int, action: Any) -> Any:
        events = original(self, state, seat, action)
        live_events.extend(events)
        return events

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(type(game), "apply", spying)
        for actor in PLAYERS[:2]:
            await service.act_text(table, actor, (await service.prompt(table, actor))
                                   .options[0].text)
    private = [e.to_json() for e in live_events if e.to is not None]
    assert private, "the game must emit private events for this test to mean anything"
    logged = [e for a in await store.load_actions(table) for e in a.events]
    assert logged and all(e.get("to") is None for e in logged)
    assert not any(e in logged for e in private)


class IllegalAI:
    def choose(self, state: Any, seat: int, rng: Any) -> Any:
        return fakegame.Pick(999)  # no such card


class BrokenAI:
    def choose(self, state: Any, seat: int, rng: Any) -> Any:
        raise RuntimeError("the AI crashed")


@pytest.mark.parametrize("ai", [IllegalAI(), BrokenAI()], ids=["illegal", "raises"])
async def test_a_bad_ai_choice_falls_back_to_a_legal_move(service: TableService,
                                                          store: SqliteStore, clock: FakeClock,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          ai: Any) -> None:
    table = await new_table(service, humans=2)
    await service.act_text(table, HOST, (await service.prompt(table, HOST)).options[0].text)
    legal = [o.json for o in (await service.prompt(table, PLAYERS[1])).options]
    monkeypatch.setattr(fakegame.FakeGame, "ai", lambda self, kind: ai)
    version = (await service.info(table)).version
    clock.advance(DAY)
    await service.on_deadline(table, version)
    actions = await store.load_actions(table)
    assert [(a.seat, a.source) for a in actions] == [(0, "player"), (1, "timeout")]
    # The first legal move, as a player's menu lists it: the same fallback every time.
    assert len(legal) > 1 and actions[1].action == legal[0]
