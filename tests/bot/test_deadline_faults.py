"""A deadline whose job fails (the database down for a few seconds) is not lost: the job
is tried again until the late seat is played for, and a deadline that no job holds is
found by the sweep. On both backends, with a real AsyncIOScheduler."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from conftest import HOST, RenderingNotifier, new_table
from store_backends import PgRestarter, postgres_only

from bot.clock import FakeClock
from bot.service import TableService, TableSettings, job_id
from bot.store import Store
from bot.store.health import StorageError

BACKENDS = ("sqlite", "postgres")
HOUR = 3600.0


@pytest.fixture
async def running() -> AsyncIterator[AsyncIOScheduler]:
    scheduler = AsyncIOScheduler(timezone="UTC")
    yield scheduler
    if scheduler.running:
        scheduler.shutdown(wait=False)


async def sources(store: Store, table: int) -> list[str]:
    return [a.source for a in await store.load_actions(table)]


async def wait_for_timeout_move(store: Store, table: int) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + 120
    while "timeout" not in await sources(store, table):
        assert loop.time() < end, "the late seat was never played for"
        await asyncio.sleep(0.05)


async def table_with_a_deadline_an_hour_past(service: TableService) -> int:
    # The fake clock starts two hours back and the deadline is an hour long: once the
    # clock is set to now, the deadline fell due an hour ago.
    settings = TableSettings(seat_order="join", deadline_seconds=int(HOUR))
    table = await new_table(service, humans=2, settings=settings)
    await service.act_text(table, HOST, (await service.prompt(table, HOST)).options[0].text)
    return table


async def test_a_deadline_job_that_fails_is_tried_again_until_the_seat_is_played_for(
        store: Store, notifier: RenderingNotifier, running: AsyncIOScheduler,
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock(start=time.time() - 2 * HOUR)
    service = TableService(store, notifier, clock=clock, scheduler=running)
    service.deadlines.retry_base = 0.05
    table = await table_with_a_deadline_an_hour_past(service)
    clock.advance(2 * HOUR)
    # The database refuses the next two saves (the timeout's), as while it restarts.
    failures = 2
    save = store.save

    async def failing_save(*args: Any, **kwargs: Any) -> int:
        nonlocal failures
        if failures > 0:
            failures -= 1
            raise StorageError("busy", "the database is restarting", path="db")
        return await save(*args, **kwargs)

    monkeypatch.setattr(store, "save", failing_save)
    running.start()
    await wait_for_timeout_move(store, table)
    assert failures == 0
    assert await sources(store, table) == ["player", "timeout"]


async def test_the_sweep_plans_a_due_deadline_that_no_job_holds(
        store: Store, notifier: RenderingNotifier, running: AsyncIOScheduler) -> None:
    clock = FakeClock(start=time.time() - 2 * HOUR)
    service = TableService(store, notifier, clock=clock, scheduler=running)
    table = await table_with_a_deadline_an_hour_past(service)
    clock.advance(2 * HOUR)
    version = (await service.info(table)).version
    # The job is lost behind the service's back (a scheduler fault, a skipped run).
    running.remove_job(job_id(table, version, "deadline"))
    running.start()
    await service.sweep()
    await wait_for_timeout_move(store, table)
    assert await sources(store, table) == ["player", "timeout"]


@postgres_only
async def test_a_deadline_that_falls_due_while_postgresql_restarts_is_played_after_it(
        store: Store, notifier: RenderingNotifier, running: AsyncIOScheduler,
        pg_restarter: PgRestarter) -> None:
    """The issue's case with a real server: the job fires while PostgreSQL is down, fails
    (the store's StorageError), and is tried again until the server is back. No sweep
    runs here: the job's own retries are what bring the seat's move."""
    clock = FakeClock(start=time.time() - 2 * HOUR)
    service = TableService(store, notifier, clock=clock, scheduler=running)
    service.deadlines.retry_base = 0.05
    table = await table_with_a_deadline_an_hour_past(service)
    clock.advance(2 * HOUR)
    service._cache.size = 0  # the job reads the table from the database, as a sharer does
    tries: list[str] = []
    on_deadline = service.deadlines._funcs["deadline"]

    async def counted(table_id: int, version: int) -> None:
        try:
            await on_deadline(table_id, version)
        except Exception as exc:
            tries.append(type(exc).__name__)
            raise

    service.deadlines._funcs["deadline"] = counted
    pg_restarter.stop()
    running.start()
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while len(tries) < 3:  # it failed, and was tried again, while the server was down
        assert loop.time() < end, "the deadline job was not tried again"
        await asyncio.sleep(0.02)
    pg_restarter.start()
    await wait_for_timeout_move(store, table)
    assert await sources(store, table) == ["player", "timeout"]
    assert set(tries) <= {"StorageError", "Refused"}, tries
