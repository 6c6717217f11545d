"""The durable outbox: what a change owes players is stored with the change and sent by
the delivery worker, whatever the transport does meanwhile (fails for a while, fails for
good, the process dies between sending and marking)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from conftest import HOST, PLAYERS, new_table

from bot.clock import FakeClock
from bot.service import MemoryNotifier, Notification, TableService
from bot.service.delivery import FAILED_KEEP_SECONDS, MAX_ATTEMPTS, SENT_KEEP_SECONDS, backoff
from bot.service.notifications import HELD, Delivery, Failed, Retry
from bot.store import SqliteStore

Answer = Callable[[Notification], Delivery]


@dataclass
class ScriptedNotifier(MemoryNotifier):
    """Answers each notification as ``answer`` says; keeps only what it 'sent'."""

    answer: Answer = field(default=lambda n: "sent")
    offered: list[Notification] = field(default_factory=list)

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        self.offered.extend(notes)
        results = {n.outbox_id: self.answer(n) for n in notes}
        self.notes.extend(n for n in notes if results[n.outbox_id] == "sent")
        return results


async def open_service(db: Path, notifier: MemoryNotifier,
                       clock: FakeClock) -> tuple[SqliteStore, TableService]:
    store = await SqliteStore.open(db)
    return store, TableService(store, notifier, clock=clock)


async def play_out(service: TableService, table: int) -> None:
    while (info := await service.info(table)).status == "running":
        seat = min(info.waiting)
        prompt = await service.prompt(table, PLAYERS[seat])
        await service.act(table, PLAYERS[seat], prompt.options[0].json, version=prompt.version)


async def test_what_failed_to_send_is_sent_after_a_restart_exactly_once(
        db_path: Path, clock: FakeClock) -> None:
    down = ScriptedNotifier(answer=lambda n: Retry(30.0, "503 Service Unavailable"))
    store, service = await open_service(db_path, down, clock)
    try:
        table = await new_table(service, humans=2)
        await play_out(service, table)
        assert down.offered and not down.notes  # Discord was down all game long
        owed = await store.load_outbox(table, ["pending"])
        assert "game_over" in [r.payload["template"] for r in owed]
        assert all(r.due_at >= clock.now() + 30 for r in owed)
    finally:
        await store.close()

    up = ScriptedNotifier()
    store, service = await open_service(db_path, up, clock)
    try:
        await service.boot()
        assert up.notes == []  # nothing is due yet: the backoff holds
        clock.advance(3600)
        await service.sweep()
        sent = [n.template for n in up.notes]
        assert sent.count("game_over") == 1 and "started" in sent
        assert await store.load_outbox(table, ["pending", "sending", "held"]) == []
        await service.sweep()  # a second sweep sends nothing twice
        assert [n.template for n in up.notes] == sent
    finally:
        await store.close()


async def test_retries_back_off_then_give_up(db_path: Path, clock: FakeClock) -> None:
    notifier = ScriptedNotifier(answer=lambda n: Retry(0.0, "500"))
    store, service = await open_service(db_path, notifier, clock)
    try:
        await service.create(HOST, "fakepicks", options={"rounds": 1}, channel_id="c1")
        (row,) = await store.load_outbox()
        assert row.attempts == 1 and row.due_at == clock.now() + backoff(1)
        delays = []
        for _ in range(MAX_ATTEMPTS + 2):
            before = clock.now()
            clock.advance(10_000)
            await service.sweep()
            (row,) = await store.load_outbox()
            delays.append(row.due_at - before - 10_000)
            if row.state == "failed":
                break
        assert row.state == "failed" and row.attempts == MAX_ATTEMPTS
        assert "gave up" in (row.error or "")
        growing = [d for d in delays if d > 0]
        assert growing == sorted(growing) and growing[0] < growing[-1]
    finally:
        await store.close()


async def test_a_private_message_refused_for_good_marks_the_seat_unreachable(
        db_path: Path, clock: FakeClock) -> None:
    notifier = ScriptedNotifier(
        answer=lambda n: Failed("403 Forbidden (code 50278)") if n.seat == 1 else "sent")
    store, service = await open_service(db_path, notifier, clock)
    try:
        table = await new_table(service, humans=3)
        info = await service.info(table)
        assert [s.dm_ok for s in info.seats] == [True, False, True]
        told = [n for n in notifier.notes if n.template == "dm_unreachable"]
        assert len(told) == 1 and told[0].seat is None
        assert told[0].context["unreachable_user"] == PLAYERS[1].user_id
        failed = await store.load_outbox(table, ["failed"])
        assert failed and all(r.seat == 1 for r in failed)
        # The game goes on: seat 1 plays through /hand, and nobody waits on its DMs.
        await play_out(service, table)
        assert (await service.info(table)).status == "finished"
        assert len([n for n in notifier.notes if n.template == "dm_unreachable"]) == 1
    finally:
        await store.close()


@dataclass
class HoldingNotifier(ScriptedNotifier):
    """The Discord transport's rule: the table's news waits while all of it is deferred."""

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        public = [n for n in notes if n.seat is None]
        hold = bool(public) and all(n.defer for n in public)
        self.answer = lambda n: HELD if hold and n.seat is None else "sent"
        return await super().deliver(notes)


async def test_held_news_waits_for_news_that_is_not_deferred(
        db_path: Path, clock: FakeClock) -> None:
    holding = HoldingNotifier()
    store, service = await open_service(db_path, holding, clock)
    try:
        table = await new_table(service, humans=2, rounds=2)
        await play_out(service, table)
        deferred = [n for n in holding.offered if n.defer]
        assert deferred, "fakepicks has rounds: some news waited for its round's end"
        # Each deferred note was offered again until it went out with its round.
        assert {n.outbox_id for n in deferred} <= {n.outbox_id for n in holding.notes}
        assert await store.load_outbox(table, ["held", "pending"]) == []
    finally:
        await store.close()


async def test_the_sweep_prunes_what_was_sent_an_hour_on_and_what_failed_a_week_on(
        db_path: Path, clock: FakeClock) -> None:
    """Issue 23, item 10: the database grows by the actions, not by every message sent."""
    notifier = ScriptedNotifier(answer=lambda n: Failed("403 (code 50007)")
                                if n.seat == 1 else "sent")
    store, service = await open_service(db_path, notifier, clock)
    try:
        table = await new_table(service, humans=2)
        states = {r.state for r in await store.load_outbox(table)}
        assert states == {"sent", "failed"}
        clock.advance(SENT_KEEP_SECONDS - 1)
        await service.delivery.sweep()
        assert {r.state for r in await store.load_outbox(table)} == {"sent", "failed"}
        clock.advance(2)
        await service.delivery.sweep()
        assert {r.state for r in await store.load_outbox(table)} == {"failed"}
        clock.advance(FAILED_KEEP_SECONDS)
        await service.delivery.sweep()
        assert await store.load_outbox(table) == []
    finally:
        await store.close()
