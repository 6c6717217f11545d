"""The store-level guarantees of test_table_writes.py and test_outbox.py, on both
backends: writes that can never roll a table back (two processes on one database), one
consistent read, the outbox's claims, retries and in-doubt rows across a restart; and,
on PostgreSQL, real concurrent writers."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest
from conftest import HOST, PLAYERS, RenderingNotifier, new_table
from store_backends import postgres_only, raw_execute
from test_outbox import HoldingNotifier, ScriptedNotifier, play_out

from bot.clock import FakeClock
from bot.service import Refused, TableService, TableSettings
from bot.service.delivery import MAX_ATTEMPTS
from bot.service.notifications import Retry
from bot.store import (
    MenuRecord,
    OutboxResult,
    OutboxRow,
    PostgresStore,
    SeatRecord,
    Store,
    TableRecord,
    VersionConflict,
    open_store,
)
from bot.store.health import StorageError

BACKENDS = ("sqlite", "postgres")


def _table() -> TableRecord:
    return TableRecord(game="fakepicks", options={"rounds": 2}, seed=5, host_id="u0",
                       max_seats=4, created_at=1.0, updated_at=1.0)


# -- writes conditional on what was read ----------------------------------------------


async def test_a_stale_copy_never_rolls_a_lobby_back(service: TableService, db_url: str) -> None:
    table = await new_table(service, humans=1, start=False)
    other_store = await open_store(db_url)
    try:
        other = TableService(other_store, RenderingNotifier())
        await other.info(table)  # the other process caches the lobby as it is now
        await service.join(table, PLAYERS[1])
        with pytest.raises(Refused) as refused:
            await other.join(table, PLAYERS[2])  # from its stale copy
        assert refused.value.code == "busy"
        assert [s.name for s in await service.store.load_seats(table)] == ["Alice", "Bob"]
        await other.join(table, PLAYERS[2])  # a retry reads the table again
        assert [s.name for s in await service.store.load_seats(table)] == [
            "Alice", "Bob", "Chloé"]
    finally:
        await other_store.close()


async def test_a_stale_copy_cannot_unpause_or_reflag(service: TableService, db_url: str) -> None:
    table = await new_table(service, humans=2)
    other_store = await open_store(db_url)
    try:
        other = TableService(other_store, RenderingNotifier())
        await other.info(table)
        await service.pause(table, HOST)
        with pytest.raises(Refused) as refused:
            await other.set_status_message(table, "c1", "42")
        assert refused.value.code == "busy"
        stored = await service.store.load_table(table)
        assert stored is not None and stored.status == "paused"
    finally:
        await other_store.close()


async def test_a_second_process_acting_gets_busy_not_a_fork(service: TableService,
                                                            db_url: str) -> None:
    table = await new_table(service, humans=2)
    other_store = await open_store(db_url)
    try:
        other = TableService(other_store, RenderingNotifier())
        await other.info(table)
        await service.act_text(table, PLAYERS[0],
                               (await service.prompt(table, HOST)).options[0].text)
        bob_pick = (await other.prompt(table, PLAYERS[1])).options[0].text
        with pytest.raises(Refused) as refused:
            await other.act_text(table, PLAYERS[1], bob_pick)
        assert refused.value.code == "busy"
        await other.act_text(table, PLAYERS[1], bob_pick)
        assert [a.seat for a in await service.store.load_actions(table)] == [0, 1]
        assert (await other.verify(table)).ok
    finally:
        await other_store.close()


async def test_of_copies_read_at_one_rev_exactly_one_write_lands(store: Store,
                                                                 db_url: str) -> None:
    """Eight writers (each its own connection) race from the same rev: one wins, the
    others change nothing."""
    table = _table()
    table_id = await store.create_table(table, [SeatRecord(0, "Alice", "u0")])
    writers = [await open_store(db_url) for _ in range(8)]
    try:
        copies = [await w.load_table(table_id) for w in writers]

        async def write(i: int) -> bool:
            copy = copies[i]
            assert copy is not None
            copy.version, copy.locale = copy.version + 1, f"l{i}"
            try:
                await writers[i].save(copy, expected_version=0,
                                      seats=[SeatRecord(0, f"w{i}", "u0")])
            except VersionConflict:
                return False
            return True

        won = await asyncio.gather(*(write(i) for i in range(8)))
        assert won.count(True) == 1
        winner = won.index(True)
        stored = await store.load_bundle(table_id)
        assert stored is not None
        record, seats, _ = stored
        assert (record.version, record.rev, record.locale) == (1, 1, f"l{winner}")
        assert [s.name for s in seats] == [f"w{winner}"]
    finally:
        for w in writers:
            await w.close()


async def test_a_table_is_read_in_one_consistent_read(store: Store,
                                                      service: TableService) -> None:
    table = await new_table(service, humans=2)
    bundle = await store.load_bundle(table)
    assert bundle is not None
    record, seats, timers = bundle
    assert record.id == table and [s.seat for s in seats] == [0, 1]
    assert {t.seat for t in timers} == {0, 1}


@pytest.mark.parametrize("forged", [2**63, 2**64 + 5, -1, 0])
async def test_table_ids_out_of_range_are_unknown(service: TableService, forged: int) -> None:
    for call in (service.info(forged), service.join(forged, PLAYERS[1]),
                 service.act(forged, HOST, {"kind": "pick"}, version=1)):
        with pytest.raises(Refused) as refused:
            await call
        assert refused.value.code == "no_table"


async def test_a_bot_that_could_not_reply_is_resumed_at_the_next_boot(
        db_url: str, clock: FakeClock) -> None:
    store = await open_store(db_url)
    try:
        service = TableService(store, RenderingNotifier(), clock=clock)
        info = await service.create(HOST, "fakepicks", options={"rounds": 3}, seed=3,
                                    settings=TableSettings(seat_order="join"))
        await service.add_bot(info.id, HOST)
        await service.start(info.id, HOST)
        real_save = store.save

        async def failing_for_bots(table, **kwargs):  # type: ignore[no-untyped-def]
            action = kwargs.get("action")
            if action is not None and action.source == "bot":
                raise StorageError("disk_full", "the disk is full", path=db_url)
            return await real_save(table, **kwargs)

        store.save = failing_for_bots  # type: ignore[method-assign]
        before = len(await store.load_actions(info.id))
        prompt = await service.prompt(info.id, HOST)
        await service.act(info.id, HOST, prompt.options[0].json, version=prompt.version)
        assert await store.bot_turn_tables() == [info.id]
        store.save = real_save  # type: ignore[method-assign]
    finally:
        await store.close()
    store = await open_store(db_url)
    try:
        await TableService(store, RenderingNotifier(), clock=clock).boot()
        actions = await store.load_actions(info.id)
        assert len(actions) > before + 1 and actions[before + 1].source == "bot"
        assert await store.bot_turn_tables() == []
    finally:
        await store.close()


# -- the outbox ---------------------------------------------------------------------------


async def test_what_failed_to_send_is_sent_after_a_restart_exactly_once(
        db_url: str, clock: FakeClock) -> None:
    down = ScriptedNotifier(answer=lambda n: Retry(30.0, "503 Service Unavailable"))
    store = await open_store(db_url)
    try:
        service = TableService(store, down, clock=clock)
        table = await new_table(service, humans=2)
        await play_out(service, table)
        assert down.offered and not down.notes
        owed = await store.load_outbox(table, ["pending"])
        assert "game_over" in [r.payload["template"] for r in owed]
    finally:
        await store.close()
    up = ScriptedNotifier()
    store = await open_store(db_url)
    try:
        service = TableService(store, up, clock=clock)
        await service.boot()
        assert up.notes == []  # the backoff holds
        clock.advance(3600)
        await service.sweep()
        sent = [n.template for n in up.notes]
        assert sent.count("game_over") == 1 and "started" in sent
        assert await store.load_outbox(table, ["pending", "sending", "held"]) == []
        await service.sweep()
        assert [n.template for n in up.notes] == sent
    finally:
        await store.close()


async def test_retries_back_off_then_give_up(store: Store, clock: FakeClock) -> None:
    notifier = ScriptedNotifier(answer=lambda n: Retry(0.0, "500"))
    service = TableService(store, notifier, clock=clock)
    await service.create(HOST, "fakepicks", options={"rounds": 1}, channel_id="c1")
    for _ in range(MAX_ATTEMPTS + 2):
        clock.advance(10_000)
        await service.sweep()
        (row,) = await store.load_outbox()
        if row.state == "failed":
            break
    assert row.state == "failed" and row.attempts == MAX_ATTEMPTS
    assert "gave up" in (row.error or "")


async def test_rows_left_sending_by_a_crash_are_offered_as_in_doubt(
        db_url: str, clock: FakeClock) -> None:
    store = await open_store(db_url)
    try:
        # Nothing goes out (Discord is down), then the process "dies" after claiming
        # the rows and before marking them.
        down = ScriptedNotifier(answer=lambda n: Retry(30.0, "503 Service Unavailable"))
        table = await new_table(TableService(store, down, clock=clock), humans=2)
        clock.advance(1)
        await raw_execute(db_url, "UPDATE outbox SET state = 'sending', due_at = 0 "
                          "WHERE table_id = ?", table)
        claimed = await store.load_outbox(table, ["sending"])
        assert claimed
    finally:
        await store.close()
    again = ScriptedNotifier()
    store = await open_store(db_url)
    try:
        await TableService(store, again, clock=clock).boot()
        assert {n.outbox_id for n in again.offered} == {r.id for r in claimed}
        assert all(n.in_doubt for n in again.offered)
        assert await store.load_outbox(table, ["sending", "pending"]) == []
    finally:
        await store.close()


async def test_held_news_waits_for_news_that_is_not_deferred(store: Store,
                                                             clock: FakeClock) -> None:
    holding = HoldingNotifier()
    service = TableService(store, holding, clock=clock)
    table = await new_table(service, humans=2, rounds=2)
    await play_out(service, table)
    deferred = [n for n in holding.offered if n.defer]
    assert deferred
    assert {n.outbox_id for n in deferred} <= {n.outbox_id for n in holding.notes}
    assert await store.load_outbox(table, ["held", "pending"]) == []


def _note(table_id: int, n: int, state: str = "pending", due: float = 0.0) -> OutboxRow:
    return OutboxRow(table_id=table_id, version=n, seat=None, state=state,  # type: ignore[arg-type]
                     payload={"template": f"t{n}", "table_id": table_id}, due_at=due)


async def test_claim_mark_and_prune_the_outbox(store: Store) -> None:
    table_id = await store.create_table(_table(), [], outbox=[
        _note(0, 1), _note(0, 2, due=50.0), _note(0, 3, state="held")])
    rows = await store.load_outbox(table_id)
    assert [r.payload["table_id"] for r in rows] == [table_id] * 3  # the new id given
    assert await store.outbox_tables(10.0) == [table_id]
    assert await store.next_outbox_due() == 0.0  # type: ignore[attr-defined]
    claimed = await store.claim_outbox(table_id, 10.0)
    # The held row comes along with the due one; both as they were read.
    assert [(r.version, r.state, r.attempts) for r in claimed] == [(1, "pending", 0),
                                                                   (3, "held", 0)]
    states = {r.version: (r.state, r.attempts) for r in await store.load_outbox(table_id)}
    assert states == {1: ("sending", 1), 2: ("pending", 0), 3: ("held", 0)}
    # Held news alone is not worth a claim.
    await store.mark_outbox([OutboxResult(rows[0].id, "sent")], 11.0)
    assert await store.claim_outbox(table_id, 11.0) == []
    assert await store.outbox_tables(11.0) == []
    await store.mark_outbox([OutboxResult(rows[1].id, "failed", error="gone")], 12.0)
    assert await store.prune_outbox(11.5) == 1  # only the row done before 11.5
    assert [r.version for r in await store.load_outbox(table_id)] == [2, 3]
    assert [r.error for r in await store.load_outbox(table_id, ["failed"])] == ["gone"]


async def test_a_row_done_with_keeps_its_identity_not_its_bulk(store: Store) -> None:
    """Sent or failed for good, a row keeps who, which template, slot, version and files;
    its context (views, texts: most of the database once delivered) goes. A row still
    owed (retried, held) keeps everything, since it is still to be sent."""
    def note(n: int) -> OutboxRow:
        return OutboxRow(table_id=0, version=n, seat=n % 2, payload={
            "template": f"t{n}", "table_id": 0, "seat": n % 2, "slot": "news",
            "version": n, "files": [["board", None]], "context": {"view": "x" * 5000},
            "fallback": "y" * 100})

    table_id = await store.create_table(_table(), [], outbox=[note(n) for n in range(4)])
    ids = [r.id for r in await store.load_outbox(table_id)]
    await store.mark_outbox([OutboxResult(ids[0], "sent"),
                             OutboxResult(ids[1], "failed", error="403 (code 50007)"),
                             OutboxResult(ids[2], "pending", due_at=30.0),
                             OutboxResult(ids[3], "held")], 20.0)
    rows = {r.id: r for r in await store.load_outbox(table_id)}
    for done in ids[:2]:
        assert rows[done].payload == {"template": f"t{ids.index(done)}", "table_id": table_id,
                                      "seat": ids.index(done) % 2, "slot": "news",
                                      "version": ids.index(done),
                                      "files": [["board", None]]}
    assert rows[ids[1]].error == "403 (code 50007)"
    for owed in ids[2:]:
        assert rows[owed].payload["context"]["view"] == "x" * 5000
        assert rows[owed].payload["fallback"] == "y" * 100


async def test_sent_rows_go_sooner_than_failed_ones(store: Store) -> None:
    """The sweep keeps a sent row an hour and a failed one a week: a row owed is never
    pruned, whatever its age."""
    table_id = await store.create_table(_table(), [], outbox=[_note(0, n) for n in range(4)])
    ids = [r.id for r in await store.load_outbox(table_id)]
    await store.mark_outbox([OutboxResult(ids[0], "sent"),
                             OutboxResult(ids[1], "failed", error="gone"),
                             OutboxResult(ids[2], "pending", due_at=5.0)], 10.0)
    await store.mark_outbox([OutboxResult(ids[3], "sent")], 30.0)
    # Sent before 20 go; failed rows stay until their own, earlier, limit.
    assert await store.prune_outbox(20.0, failed_before=5.0) == 1
    assert [r.id for r in await store.load_outbox(table_id)] == ids[1:]
    assert await store.prune_outbox(20.0, failed_before=15.0) == 1
    assert [r.id for r in await store.load_outbox(table_id)] == ids[2:]
    assert await store.prune_outbox(1e9) == 1  # the pending row stays
    assert [r.id for r in await store.load_outbox(table_id)] == [ids[2]]


async def test_menus_are_taken_once(store: Store) -> None:
    table_id = await store.create_table(_table(), [])
    for seat, version, message in ((0, 1, "m1"), (0, 3, "m2"), (1, 2, "m3")):
        await store.record_menu(MenuRecord(table_id, seat, version, "dm", message))
    await store.record_menu(MenuRecord(table_id, 0, 4, "dm", "m2"))  # edited: replaced
    taken = await store.take_menus(table_id, 0, 4)
    assert [m.message_id for m in taken] == ["m1"]
    rest = await store.take_menus(table_id, None, None)
    assert sorted((m.message_id, m.prompt_version) for m in rest) == [("m2", 4), ("m3", 2)]
    assert await store.take_menus(table_id, None, None) == []


# -- PostgreSQL: what only real concurrency shows ------------------------------------------


@postgres_only
async def test_a_claim_skips_rows_another_process_is_claiming(store: Store,
                                                              db_url: str) -> None:
    table_id = await store.create_table(_table(), [], outbox=[_note(0, 1), _note(0, 2)])
    first_id = min(r.id for r in await store.load_outbox(table_id))
    other = await asyncpg.connect(db_url)
    try:
        async with other.transaction():
            # Another process's claim, holding the first row.
            await other.execute("SELECT * FROM outbox WHERE id = $1 FOR UPDATE", first_id)
            claimed = await asyncio.wait_for(store.claim_outbox(table_id, 5.0), 5.0)
            assert [r.version for r in claimed] == [2]  # not waited for: skipped
    finally:
        await other.close()
    assert [r.version for r in await store.claim_outbox(table_id, 5.0)] == [1, 2]


@postgres_only
async def test_processes_acting_at_once_apply_each_action_once(db_url: str,
                                                               clock: FakeClock) -> None:
    """Three processes submit the same player's pick at the same version at once: it is
    applied once; the others are told the table changed (or that it was theirs)."""
    stores = [await PostgresStore.open(db_url, max_size=2) for _ in range(3)]
    try:
        services = [TableService(s, RenderingNotifier(), clock=clock) for s in stores]
        table = await new_table(services[0], humans=2)
        for s in services[1:]:
            await s.info(table)
        prompt = await services[0].prompt(table, HOST)
        results = await asyncio.gather(
            *(s.act(table, HOST, prompt.options[0].json, version=prompt.version)
              for s in services), return_exceptions=True)
        accepted = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, Refused)]
        assert len(accepted) + len(refused) == 3 and accepted
        assert all(r.code in ("busy", "stale") for r in refused)
        actions = await stores[0].load_actions(table)
        assert [a.seat for a in actions] == [0]
        assert (await services[0].verify(table)).ok
    finally:
        for s in stores:
            await s.close()


@postgres_only
async def test_a_connection_lost_mid_save_is_refused_politely_and_the_pool_recovers(
        service: TableService, store: Store, db_url: str) -> None:
    """The server drops the bot's connection in the middle of a move's transaction (a
    restart, a failover): the move is refused as a storage fault, nothing of it is
    written, and the next try works on a new connection."""
    table = await new_table(service, humans=2)
    prompt = await service.prompt(table, HOST)
    before = await store.load_actions(table)
    admin = await asyncpg.connect(db_url)
    try:
        async with admin.transaction():
            # Hold the table's row: the move's UPDATE waits on it, mid-transaction.
            await admin.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", table)
            move = asyncio.create_task(service.act(table, HOST, prompt.options[0].json,
                                                   version=prompt.version))
            for _ in range(200):
                waiting = await admin.fetchval(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")
                if waiting is not None:
                    break
                await asyncio.sleep(0.02)
            assert waiting is not None
            await admin.execute("SELECT pg_terminate_backend($1)", waiting)
            with pytest.raises(Refused) as refused:
                await move
        assert refused.value.code == "storage"
        assert refused.value.context["fault"] == "io_error"
    finally:
        await admin.close()
    assert await store.load_actions(table) == before
    result = await service.act(table, HOST, prompt.options[0].json, version=prompt.version)
    assert result.version == prompt.version + 1
    assert (await service.verify(table)).ok
