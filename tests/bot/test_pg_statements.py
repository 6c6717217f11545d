"""PostgreSQL's save as one statement (``bot.store.pg_save``) and a table loaded in one
(``bot.store.pg_bundle``): the parts of one statement share a snapshot and run in an
order the SQL has to force, so these are the cases where that order or that snapshot
shows: keys deleted and inserted again, users moving between seats, a stale copy or a
duplicate key inside a group of saves, a claim beside another claim's locks."""

from __future__ import annotations

import asyncio
import dataclasses

import asyncpg
import pytest

from bot.store import (
    ActionRecord,
    OutboxRow,
    SeatRecord,
    Store,
    TableRecord,
    TimerRecord,
    VersionConflict,
)

BACKENDS = ("postgres",)


def _table() -> TableRecord:
    return TableRecord(game="fakepicks", options={"rounds": 2}, seed=5, host_id="u0",
                       max_seats=4, created_at=1.0, updated_at=1.0)


def _note(table_id: int, version: int, due: float = 0.0) -> OutboxRow:
    return OutboxRow(table_id=table_id, version=version, seat=None, due_at=due,
                     payload={"template": f"t{version}", "table_id": table_id})


async def _loaded(store: Store, table_id: int) -> TableRecord:
    record = await store.load_table(table_id)
    assert record is not None
    return record


async def test_users_swap_seats_and_a_seat_goes_in_one_save(store: Store) -> None:
    seats = [SeatRecord(0, "Ann", "u0"), SeatRecord(1, "Bob", "u1"), SeatRecord(2, "Cy", "u2")]
    table_id = await store.create_table(_table(), seats)
    record = await _loaded(store, table_id)
    # Same keys (table, seat) and same users (table, user) as rows the save deletes:
    # the new rows go in only after the old ones are gone.
    swapped = [SeatRecord(0, "Bob", "u1", prompt_version=4),
               SeatRecord(1, "Ann", "u0", dm_ok=False),
               SeatRecord(3, "Bot", None, is_bot=True, ai_kind="random")]
    await store.save(record, seats=swapped)
    assert await store.load_seats(table_id) == swapped
    bundle = await store.load_bundle(table_id)
    assert bundle is not None and bundle[1] == swapped
    assert record.rev == (await _loaded(store, table_id)).rev


async def test_timers_replaced_by_the_same_keys_and_a_repeated_one_kept_once(
        store: Store) -> None:
    table_id = await store.create_table(_table(), [SeatRecord(0, "Ann", "u0")])
    record = await _loaded(store, table_id)
    first = [TimerRecord(50.0, 0, "deadline"), TimerRecord(20.0, 1, "reminder")]
    await store.save(record, timers=first)
    again = [TimerRecord(50.0, 0, "deadline"), TimerRecord(50.0, 0, "deadline"),
             TimerRecord(20.0, 0, "reminder")]
    await store.save(record, timers=again)
    expected = [TimerRecord(20.0, 0, "reminder"), TimerRecord(50.0, 0, "deadline")]
    assert await store.load_timers(table_id) == expected
    bundle = await store.load_bundle(table_id)
    assert bundle is not None and bundle[2] == expected
    await store.save(record, timers=[])
    assert await store.load_timers(table_id) == []


async def test_a_table_without_seats_or_timers_loads_with_empty_lists(store: Store) -> None:
    table_id = await store.create_table(_table(), [])
    bundle = await store.load_bundle(table_id)
    assert bundle is not None
    record, seats, timers = bundle
    assert (record.id, record.options, seats, timers) == (table_id, {"rounds": 2}, [], [])
    assert await store.load_bundle(table_id + 1) is None


async def test_outbox_rows_are_numbered_in_the_order_given(store: Store) -> None:
    table_id = await store.create_table(_table(), [])
    record = await _loaded(store, table_id)
    versions = [7, 3, 9, 1, 8, 2, 6, 4, 5, 0] * 3
    claimed = await store.save(record, outbox=[_note(table_id, v) for v in versions],
                               claim_at=1.0)
    stored = await store.load_outbox(table_id)
    assert [r.version for r in stored] == versions
    assert [(r.id, r.version, r.payload) for r in claimed] == [
        (r.id, r.version, r.payload) for r in stored]
    assert {r.state for r in claimed} == {"pending"}
    assert {(r.state, r.attempts) for r in stored} == {("sending", 1)}


async def test_a_stale_version_writes_nothing_of_any_part(store: Store) -> None:
    table_id = await store.create_table(_table(), [SeatRecord(0, "Ann", "u0")],
                                        outbox=[_note(0, 0)])
    record = await _loaded(store, table_id)
    record.version = 1
    await store.save(record, timers=[TimerRecord(5.0, 0, "deadline")])
    before = await store.load_bundle(table_id)
    changed = dataclasses.replace(record, locale="fr", version=2)
    with pytest.raises(VersionConflict):
        await store.save(changed, expected_version=0, seats=[SeatRecord(0, "Zed", "u9")],
                         timers=[], outbox=[_note(table_id, 2)], claim_at=10.0,
                         action=ActionRecord(table_id, 2, 0, {"x": 1}, "player", 2.0, "u0"))
    assert await store.load_bundle(table_id) == before
    assert await store.load_actions(table_id) == []
    assert [(r.version, r.state) for r in await store.load_outbox(table_id)] == [
        (0, "pending")]


async def test_a_duplicate_action_in_a_group_is_refused_alone(store: Store) -> None:
    a_id = await store.create_table(_table(), [SeatRecord(0, "Ann", "u0")])
    b_id = await store.create_table(_table(), [SeatRecord(0, "Ann", "u0")])
    a, b = await _loaded(store, a_id), await _loaded(store, b_id)
    a.version = 1
    await store.save(a, action=ActionRecord(a_id, 1, 0, {"x": 1}, "player", 1.0, "u0"))
    fresh_a = await _loaded(store, a_id)
    # Same version again on a fresh copy: the rev matches, the action's key does not.
    twice = dataclasses.replace(fresh_a, locale="fr")
    results = await asyncio.gather(
        store.save(twice, outbox=[_note(a_id, 1)],
                   action=ActionRecord(a_id, 1, 0, {"x": 2}, "player", 2.0, "u0")),
        store.save(dataclasses.replace(b, locale="fr"), outbox=[_note(b_id, 0)]),
        return_exceptions=True)
    assert isinstance(results[0], asyncpg.UniqueViolationError)
    assert results[1] == []
    assert await _loaded(store, a_id) == fresh_a
    assert [x.action for x in await store.load_actions(a_id)] == [{"x": 1}]
    assert await store.load_outbox(a_id) == []
    assert (await _loaded(store, b_id)).locale == "fr"
    assert [r.version for r in await store.load_outbox(b_id)] == [0]


async def test_a_claiming_save_skips_rows_another_claim_holds(store: Store,
                                                              db_url: str) -> None:
    table_id = await store.create_table(_table(), [], outbox=[_note(0, 1), _note(0, 2)])
    [first, second] = await store.load_outbox(table_id)
    record = await _loaded(store, table_id)
    other = await asyncpg.connect(db_url)
    try:
        async with other.transaction():
            await other.execute("SELECT id FROM outbox WHERE id = $1 FOR UPDATE", first.id)
            claimed = await store.save(record, outbox=[_note(table_id, 3)], claim_at=5.0)
            assert [(r.version, r.state) for r in claimed] == [(2, "pending"), (3, "pending")]
    finally:
        await other.close()
    assert {r.version: r.state for r in await store.load_outbox(table_id)} == {
        1: "pending", 2: "sending", 3: "sending"}
    # What the save's claim skipped is claimed by the next one (with the others, now
    # in doubt), as usual.
    again = await store.claim_outbox(table_id, 5.0)
    assert [(r.id, r.state) for r in again][:2] == [(first.id, "pending"),
                                                    (second.id, "sending")]


async def test_a_claiming_save_with_held_rows_only_claims_nothing_and_holds_them(
        store: Store) -> None:
    held = dataclasses.replace(_note(0, 1), state="held")
    table_id = await store.create_table(_table(), [], outbox=[held])
    record = await _loaded(store, table_id)
    later = _note(table_id, 2, due=100.0)
    assert await store.save(record, outbox=[later], claim_at=5.0) == []
    assert [(r.version, r.state, r.attempts) for r in await store.load_outbox(table_id)] == [
        (1, "held", 0), (2, "pending", 0)]
