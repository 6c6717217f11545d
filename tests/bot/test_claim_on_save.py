"""A save that claims its table's outbox in the same transaction (``Store.save(...,
claim_at=)``, issue 25): the same rows, states and answers as a save followed by
``claim_outbox``, one commit instead of two; on both backends."""

from __future__ import annotations

import pytest

from bot.store import OutboxResult, OutboxRow, Store, TableRecord, VersionConflict

BACKENDS = ("sqlite", "postgres")


def _table() -> TableRecord:
    return TableRecord(game="fakepicks", options={"rounds": 2}, seed=5, host_id="u0",
                       max_seats=4, created_at=1.0, updated_at=1.0)


def _note(table_id: int, n: int, state: str = "pending", due: float = 0.0) -> OutboxRow:
    return OutboxRow(table_id=table_id, version=n, seat=None, state=state,  # type: ignore[arg-type]
                     payload={"template": f"t{n}", "table_id": table_id}, due_at=due)


async def _saved(store: Store, table_id: int) -> TableRecord:
    record = await store.load_table(table_id)
    assert record is not None
    return record


async def test_a_claiming_save_returns_what_a_claim_after_it_would(store: Store) -> None:
    table_id = await store.create_table(_table(), [], outbox=[
        _note(0, 1, due=50.0), _note(0, 2, state="held")])
    record = await _saved(store, table_id)
    record.version = 3
    claimed = await store.save(record, outbox=[_note(table_id, 3, due=10.0),
                                               _note(table_id, 4, due=10.0)],
                               claim_at=10.0)
    # The held row and this save's two due rows, in id order, as they were before the
    # claim; the row due later stays out.
    assert [(r.version, r.state, r.attempts) for r in claimed] == [
        (2, "held", 0), (3, "pending", 0), (4, "pending", 0)]
    stored = {r.version: r for r in await store.load_outbox(table_id)}
    assert [r.id for r in claimed] == [stored[v].id for v in (2, 3, 4)]
    assert {v: (r.state, r.attempts) for v, r in stored.items()} == {
        1: ("pending", 0), 2: ("held", 0), 3: ("sending", 1), 4: ("sending", 1)}
    assert claimed[1].payload["template"] == "t3"
    # The claim is durable like the rest: a later claim (after a crash, say) finds the
    # rows in doubt, not fresh.
    again = await store.claim_outbox(table_id, 10.0)
    assert [(r.version, r.state) for r in again] == [(2, "held"), (3, "sending"),
                                                     (4, "sending")]


async def test_a_claiming_save_with_nothing_due_claims_nothing(store: Store) -> None:
    table_id = await store.create_table(_table(), [], outbox=[_note(0, 1, state="held")])
    record = await _saved(store, table_id)
    # Held news alone is not worth a claim, as with claim_outbox.
    assert await store.save(record, claim_at=10.0) == []
    assert await store.save(record, outbox=[_note(table_id, 2, due=99.0)],
                            claim_at=10.0) == []
    assert {r.version: r.state for r in await store.load_outbox(table_id)} == {
        1: "held", 2: "pending"}
    # Without ``claim_at`` nothing is claimed, whatever is due.
    assert await store.save(record, outbox=[_note(table_id, 3, due=0.0)]) == []
    assert {r.version: r.state for r in await store.load_outbox(table_id)}[3] == "pending"


async def test_a_claiming_save_takes_rows_left_in_doubt(store: Store) -> None:
    table_id = await store.create_table(_table(), [], outbox=[_note(0, 1)])
    [row] = await store.claim_outbox(table_id, 5.0)  # then the process "died"
    record = await _saved(store, table_id)
    claimed = await store.save(record, outbox=[_note(table_id, 2, due=5.0)], claim_at=5.0)
    # The row left ``sending`` comes back as such (in doubt), the new one as pending.
    assert (claimed[0].id, claimed[0].state, claimed[0].attempts) == (row.id, "sending", 1)
    assert [(r.version, r.state) for r in claimed] == [(1, "sending"), (2, "pending")]


async def test_a_refused_save_claims_nothing(store: Store) -> None:
    table_id = await store.create_table(_table(), [], outbox=[_note(0, 1)])
    stale = await _saved(store, table_id)
    fresh = await _saved(store, table_id)
    await store.save(fresh)
    with pytest.raises(VersionConflict):
        await store.save(stale, outbox=[_note(table_id, 2)], claim_at=5.0)
    assert {r.version: r.state for r in await store.load_outbox(table_id)} == {1: "pending"}


async def test_marks_after_a_claiming_save_finish_its_rows(store: Store) -> None:
    table_id = await store.create_table(_table(), [])
    record = await _saved(store, table_id)
    claimed = await store.save(record, outbox=[_note(table_id, 1)], claim_at=1.0)
    await store.mark_outbox([OutboxResult(r.id, "sent") for r in claimed], 2.0)
    assert [r.state for r in await store.load_outbox(table_id)] == ["sent"]
    assert await store.outbox_tables(3.0) == []


async def test_a_claiming_save_leaves_its_rows_due_later(store: Store) -> None:
    table_id = await store.create_table(_table(), [])
    record = await _saved(store, table_id)
    claimed = await store.save(record, outbox=[_note(table_id, 1, due=5.0),
                                               _note(table_id, 2, due=50.0)], claim_at=5.0)
    assert [r.version for r in claimed] == [1]
    assert {r.version: r.state for r in await store.load_outbox(table_id)} == {
        1: "sending", 2: "pending"}
