"""A message that goes out in several parts: the outbox keeps the marks of the parts
already sent, on both backends, so that a retry (in this process or after a restart)
sends only the parts still missing. The Discord side is in
tests/bot/discord/test_discord_parts_resume.py."""

from __future__ import annotations

from bot.store import OutboxResult, OutboxRow, Store, TableRecord

BACKENDS = ("sqlite", "postgres")


def _table() -> TableRecord:
    return TableRecord(game="fakepicks", options={"rounds": 2}, seed=5, host_id="u0",
                       max_seats=4, created_at=1.0, updated_at=1.0)


async def test_the_parts_sent_are_kept_while_the_row_is_owed(store: Store) -> None:
    payload = {"template": "game_over", "table_id": 0, "seat": None, "context": {}}
    table_id = await store.create_table(_table(), [], outbox=[
        OutboxRow(table_id=0, version=1, seat=None, payload=payload)])
    (row,) = await store.claim_outbox(table_id, 5.0)
    assert row.sent == ()
    # A part went out: recorded at once, the row still being sent.
    await store.mark_outbox([OutboxResult(row.id, "sending", 5.0, sent=("0:ab:11",))], 5.0)
    (after,) = await store.load_outbox(table_id, ["sending"])
    assert after.sent == ("0:ab:11",)
    # The next part failed (a 503): retried later, the marks kept.
    await store.mark_outbox([OutboxResult(row.id, "pending", 9.0, "503",
                                          sent=("0:ab:11", "1:cd:12"))], 6.0)
    (again,) = await store.claim_outbox(table_id, 10.0)
    assert again.sent == ("0:ab:11", "1:cd:12") and again.error == "503"
    await store.mark_outbox([OutboxResult(row.id, "sent", 10.0)], 10.0)
    (done,) = await store.load_outbox(table_id, ["sent"])
    assert done.sent == ()
