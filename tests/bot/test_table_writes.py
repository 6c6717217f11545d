"""Writes that can never roll a table back, faults that refuse politely, and bots that
never wait forever."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from conftest import HOST, PLAYERS, RenderingNotifier, new_table
from fulldisk import disk, fill

from bot.clock import FakeClock
from bot.service import Refused, TableService, TableSettings
from bot.store import SqliteStore
from bot.store.health import StorageError


async def test_a_stale_copy_never_rolls_a_lobby_back(service: TableService,
                                                     db_path: Path) -> None:
    """Joins, pauses, flags: every write names the rev it read. Before, a second process
    rewrote the whole row from its cached copy and a join vanished."""
    table = await new_table(service, humans=1, start=False)
    other_store = await SqliteStore.open(db_path)
    try:
        other = TableService(other_store, RenderingNotifier())
        await other.info(table)  # the other process caches the lobby as it is now
        await service.join(table, PLAYERS[1])
        with pytest.raises(Refused) as refused:
            await other.join(table, PLAYERS[2])  # from its stale copy
        assert refused.value.code == "busy"
        names = [s.name for s in (await service.store.load_seats(table))]
        assert names == ["Alice", "Bob"]  # Bob's join survived
        await other.join(table, PLAYERS[2])  # a retry reads the table again
        assert [s.name for s in await service.store.load_seats(table)] == [
            "Alice", "Bob", "Chloé"]
    finally:
        await other_store.close()


async def test_a_stale_copy_cannot_unpause_or_reflag(service: TableService,
                                                     db_path: Path) -> None:
    table = await new_table(service, humans=2)
    other_store = await SqliteStore.open(db_path)
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


async def test_a_table_is_read_in_one_consistent_read(store: SqliteStore,
                                                      service: TableService) -> None:
    table = await new_table(service, humans=2)
    bundle = await store.load_bundle(table)
    assert bundle is not None
    record, seats, timers = bundle
    assert record.id == table and [s.seat for s in seats] == [0, 1]
    assert {t.seat for t in timers} == {0, 1}


@pytest.mark.parametrize("forged", [2**63, 2**64 + 5, 10**30, -1, 0])
async def test_table_ids_out_of_range_are_unknown(service: TableService, forged: int) -> None:
    for call in (service.info(forged), service.join(forged, PLAYERS[1]),
                 service.act(forged, HOST, {"kind": "pick"}, version=1)):
        with pytest.raises(Refused) as refused:
            await call
        assert refused.value.code == "no_table"


async def test_forged_ids_do_not_grow_the_lock_map(service: TableService) -> None:
    for forged in range(10_000, 13_000):
        with pytest.raises(Refused):
            await service.info(forged)
    gc.collect()
    assert len(service._lock_map) < 10


_FIXTURES = (disk,)


async def test_a_full_disk_refuses_the_move_and_changes_nothing(
        disk: Path, clock: FakeClock) -> None:
    """A real full disk (a small tmpfs, every free byte taken once the table is dealt):
    the move is refused as such, nothing of it is kept, and once room is made it plays."""
    store = await SqliteStore.open(disk / "urbanist.sqlite3")
    try:
        service = TableService(store, RenderingNotifier(), clock=clock)
        table = await new_table(service, humans=2)
        before = await store.load_table(table)
        assert before is not None
        filler = fill(disk)
        prompt = await service.prompt(table, HOST)
        with pytest.raises(Refused) as refused:
            await service.act(table, HOST, prompt.options[0].json, version=prompt.version)
        assert refused.value.code == "storage"
        assert refused.value.context["fault"] == "disk_full"
        after = await store.load_table(table)
        assert after is not None
        assert (after.version, after.snapshot) == (before.version, before.snapshot)
        assert await store.load_actions(table) == []
        filler.unlink()
        result = await service.act(table, HOST, prompt.options[0].json,
                                   version=prompt.version)
        assert result.version == before.version + 1
    finally:
        await store.close()


async def test_a_bot_that_could_not_reply_is_resumed_by_the_sweep(
        db_path: Path, clock: FakeClock) -> None:
    """The player's move is committed; the bot's reply fails to save (a full disk, a
    crash): the player is not told of an error, the table says a bot owes a move, and
    the sweep (or the next boot) makes it play."""
    store = await SqliteStore.open(db_path)
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
                raise StorageError("disk_full", "the disk is full", path=str(db_path))
            return await real_save(table, **kwargs)

        store.save = failing_for_bots  # type: ignore[method-assign]
        before = len(await store.load_actions(info.id))
        prompt = await service.prompt(info.id, HOST)
        await service.act(info.id, HOST, prompt.options[0].json, version=prompt.version)
        # Acknowledged and stored, whatever the bot's trouble; the bot's reply is not.
        acted = await store.load_actions(info.id)
        assert len(acted) == before + 1 and acted[-1].source == "player"
        stored = await store.load_table(info.id)
        assert stored is not None and stored.bot_turn
        assert await store.bot_turn_tables() == [info.id]
        store.save = real_save  # type: ignore[method-assign]
    finally:
        await store.close()
    # A new process: its boot sweeps, and the bot plays.
    store = await SqliteStore.open(db_path)
    try:
        service = TableService(store, RenderingNotifier(), clock=clock)
        await service.boot()
        actions = await store.load_actions(info.id)
        assert len(actions) > before + 1 and actions[before + 1].source == "bot"
        assert await store.bot_turn_tables() == []
    finally:
        await store.close()


async def test_a_human_pick_then_the_table_waits_for_nobody_but_humans(
        service: TableService, store: SqliteStore) -> None:
    table = await new_table(service, humans=2, bots=1)
    for _ in range(3):
        info = await service.info(table)
        if info.status != "running":
            break
        seat = min(info.waiting)
        assert not info.seats[seat].is_bot
        prompt = await service.prompt(table, PLAYERS[seat])
        await service.act(table, PLAYERS[seat], prompt.options[0].json,
                          version=prompt.version)
        stored = await store.load_table(table)
        assert stored is not None and not stored.bot_turn


async def test_an_action_outside_the_legal_list_is_refused_with_the_engine_s_reason(
        service: TableService, store: SqliteStore) -> None:
    """A button's JSON that is not among the legal moves: the refusal says why, in the
    engine's words and code (a template explains them in French too), not only that it
    is "not possible now"."""
    info = await service.create(HOST, "skybridge", seed=1, channel_id="c1",
                                settings=TableSettings(seat_order="join"))
    await service.join(info.id, PLAYERS[1])
    await service.start(info.id, HOST)
    before = await store.load_table(info.id)
    prompt = await service.prompt(info.id, HOST)
    bridge = {"type": "place", "kind": "bridge", "at": [1, 2], "colour": None,
              "extra": False}
    with pytest.raises(Refused) as refused:
        await service.act(info.id, HOST, bridge, version=prompt.version)
    assert refused.value.code == "illegal"
    assert refused.value.context["reason"] == "bridge_on_empty"
    assert "needs two towers" in refused.value.message
    after = await store.load_table(info.id)
    assert after is not None and before is not None and after.snapshot == before.snapshot
