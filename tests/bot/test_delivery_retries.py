"""The delivery worker's retries (bot/service/delivery.py): the backoff starts at its base
and doubles up to its cap; a transport that breaks in the middle of a batch has its rows
offered again as in doubt (so a front end looks before sending again); a private message
refused for good at a later sweep marks the seat unreachable, as one refused at once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from conftest import PLAYERS, new_table
from test_outbox import ScriptedNotifier, open_service

from bot.clock import FakeClock
from bot.service import MemoryNotifier, Notification
from bot.service.delivery import BACKOFF_BASE, BACKOFF_MAX, backoff
from bot.service.notifications import Delivery, Failed, Retry


def test_the_backoff_starts_at_its_base_and_doubles_up_to_its_cap() -> None:
    assert [backoff(n) for n in (1, 2, 3, 4)] == [BACKOFF_BASE, 2 * BACKOFF_BASE,
                                                   4 * BACKOFF_BASE, 8 * BACKOFF_BASE]
    assert backoff(40) == BACKOFF_MAX
    doubled = [backoff(n) for n in range(1, 30)]
    assert doubled == sorted(doubled) and doubled[-1] == BACKOFF_MAX


async def test_the_first_retry_waits_the_base(db_path: Path, clock: FakeClock) -> None:
    notifier = ScriptedNotifier(answer=lambda n: Retry(0.0, "502 Bad Gateway"))
    store, service = await open_service(db_path, notifier, clock)
    try:
        await new_table(service, humans=2, start=False)
        rows = await store.load_outbox(None, ["pending"])
        assert rows and all(r.attempts == 1 for r in rows)
        assert {r.due_at for r in rows} == {clock.now() + BACKOFF_BASE}
    finally:
        await store.close()


@dataclass
class BreakingNotifier(MemoryNotifier):
    """Raises in the middle of its first batch (a transport bug, a dropped connection),
    then delivers; keeps every batch it was offered."""

    batches: list[list[Notification]] = field(default_factory=list)

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        self.batches.append(list(notes))
        if len(self.batches) == 1:
            raise ConnectionResetError("the transport broke off")
        return await super().deliver(notes)


async def test_rows_of_a_batch_that_broke_are_offered_again_in_doubt(
        db_path: Path, clock: FakeClock) -> None:
    notifier = BreakingNotifier()
    store, service = await open_service(db_path, notifier, clock)
    try:
        await new_table(service, humans=2, start=False)
        first = notifier.batches[0]
        assert first and not any(n.in_doubt for n in first)
        owed = await store.load_outbox(None, ["sending"])
        assert {r.id for r in owed} == {n.outbox_id for n in first}
        clock.advance(3600)
        await service.sweep()
        again = [n for batch in notifier.batches[1:] for n in batch
                 if n.outbox_id in {m.outbox_id for m in first}]
        assert again and all(n.in_doubt for n in again)
        assert await store.load_outbox(None, ["pending", "sending"]) == []
    finally:
        await store.close()


async def test_a_private_message_refused_for_good_at_a_sweep_marks_the_seat(
        db_path: Path, clock: FakeClock) -> None:
    tries: dict[int, int] = {}

    def answer(n: Notification) -> Delivery:
        if n.seat != 1:
            return "sent"
        tries[n.outbox_id] = tries.get(n.outbox_id, 0) + 1
        if tries[n.outbox_id] == 1:
            return Retry(0.0, "503 Service Unavailable")  # down at first
        return Failed("403 Forbidden (code 50007)", expected=True)  # then refused

    notifier = ScriptedNotifier(answer=answer)
    store, service = await open_service(db_path, notifier, clock)
    try:
        table = await new_table(service, humans=2)
        assert all(s.dm_ok for s in (await service.info(table)).seats)
        clock.advance(3600)
        await service.sweep()
        info = await service.info(table)
        assert [s.dm_ok for s in info.seats] == [True, False]
        told = [n for n in notifier.notes if n.template == "dm_unreachable"]
        assert len(told) == 1 and told[0].seat is None
        assert told[0].context["unreachable_user"] == PLAYERS[1].user_id
    finally:
        await store.close()
