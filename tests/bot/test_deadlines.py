"""Deadlines and reminders: stored timers, job functions, stale jobs, restarts, APScheduler."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from conftest import HOST, PLAYERS, RenderingNotifier, new_table

from bot.clock import FakeClock
from bot.service import Refused, TableService, TableSettings, job_id
from bot.store import SqliteStore

HOUR = 3600.0
DAY = 24 * HOUR


async def test_timers_follow_decisions(service: TableService, store: SqliteStore,
                                       clock: FakeClock) -> None:
    start = clock.now()
    table = await new_table(service, humans=3)
    timers = await store.load_timers(table)
    assert {(t.seat, t.kind, t.due_at - start) for t in timers} == {
        (s, kind, offset) for s in range(3)
        for kind, offset in (("deadline", DAY), ("reminder", DAY / 2), ("reminder", DAY - HOUR))
    }
    version = (await service.info(table)).version
    planned = service.deadlines.planned[table]
    assert {j.id for j in planned.values()} == {job_id(table, version, "deadline"),
                                                job_id(table, version, "reminder")}
    # Bob picks an hour later: his timers go, the others keep their deadline.
    clock.advance(HOUR)
    await service.act_text(table, PLAYERS[1], (await service.prompt(table, PLAYERS[1]))
                           .options[0].text)
    timers = await store.load_timers(table)
    assert {t.seat for t in timers} == {0, 2}
    assert {t.due_at for t in timers if t.kind == "deadline"} == {start + DAY}
    new_version = (await service.info(table)).version
    assert service.deadlines.planned[table]["deadline"].id == job_id(table, new_version,
                                                                       "deadline")


async def test_a_prompt_shows_its_own_seat_deadline(service: TableService,
                                                   clock: FakeClock) -> None:
    start = clock.now()
    table = await new_table(service, humans=3)
    clock.advance(HOUR)
    bob = await service.prompt(table, PLAYERS[1])
    assert bob.deadline == start + DAY
    await service.act_text(table, PLAYERS[1], bob.options[0].text)
    # Bob has picked: nothing of his is due any more, while the others' deadlines stand.
    assert (await service.prompt(table, PLAYERS[1])).deadline is None
    assert (await service.prompt(table, HOST)).deadline == start + DAY


async def test_reminders_go_only_to_late_seats(service: TableService, store: SqliteStore,
                                               clock: FakeClock,
                                               notifier: RenderingNotifier) -> None:
    table = await new_table(service, humans=3)
    await service.act_text(table, PLAYERS[0], (await service.prompt(table, HOST)).options[0].text)
    notifier.clear()
    version = (await service.info(table)).version
    clock.advance(DAY / 2)
    await service.on_reminder(table, version)
    reminded = [(n.seat, n.user_id) for n in notifier.notes if n.template == "reminder"]
    assert reminded == [(1, "u1"), (2, "u2")]
    assert all(n.seat is not None for n in notifier.notes)
    assert "Reminder" in notifier.texts[0]
    # The half-time reminders are consumed; the one-hour-before ones remain.
    left = [t for t in await store.load_timers(table) if t.kind == "reminder"]
    assert {t.due_at for t in left} == {clock.now() + DAY / 2 - HOUR}
    notifier.clear()
    await service.on_reminder(table, version)  # nothing new is due: nobody is nagged twice
    assert notifier.notes == []
    assert (await service.info(table)).version == version  # reminders are not moves


async def test_deadline_lets_the_ai_play_for_late_seats(service: TableService,
                                                        store: SqliteStore, clock: FakeClock,
                                                        notifier: RenderingNotifier) -> None:
    table = await new_table(service, humans=3)
    await service.act_text(table, HOST, (await service.prompt(table, HOST)).options[0].text)
    version = (await service.info(table)).version
    clock.advance(DAY - 1)
    await service.on_deadline(table, version)  # early: nothing happens
    assert (await service.info(table)).version == version
    notifier.clear()
    clock.advance(1)
    await service.on_deadline(table, version)
    actions = await store.load_actions(table)
    # Bob and Chloé timed out; the round resolved at once; the bonus winner now decides.
    assert [(a.seat, a.source) for a in actions] == [(0, "player"), (1, "timeout"),
                                                    (2, "timeout")]
    assert [n.seat for n in notifier.notes if n.template == "timeout_played"] == [1, 2]
    acted = [n for n in notifier.to_table() if n.template == "acted"]
    assert [n.context["source"] for n in acted] == ["timeout", "timeout"]
    assert any("Time ran out for Bob" in t for t in notifier.texts)
    assert any(n.template == "event_revealed" for n in notifier.notes)
    info = await service.info(table)
    assert list(info.waiting.values()) == ["bonus"]
    (winner,) = info.waiting
    assert info.deadlines[winner] == clock.now() + DAY  # a fresh decision, a fresh deadline
    assert (await service.verify(table)).ok


async def test_a_job_for_an_old_version_does_nothing(service: TableService,
                                                     store: SqliteStore, clock: FakeClock,
                                                     notifier: RenderingNotifier) -> None:
    table = await new_table(service, humans=2)
    old_version = (await service.info(table)).version
    await service.act_text(table, HOST, (await service.prompt(table, HOST)).options[0].text)
    clock.advance(2 * DAY)
    notifier.clear()
    await service.on_deadline(table, old_version)
    await service.on_reminder(table, old_version)
    assert notifier.notes == []
    assert [a.source for a in await store.load_actions(table)] == ["player"]
    await service.on_deadline(table, old_version + 1)  # the current job does its work
    assert [a.source for a in await store.load_actions(table)] == ["player", "timeout"]


async def test_pause_freezes_and_resume_shifts_deadlines(service: TableService,
                                                         store: SqliteStore,
                                                         clock: FakeClock) -> None:
    table = await new_table(service, humans=2)
    deadline = (await service.info(table)).deadlines[0]
    with pytest.raises(Refused) as refused:
        await service.pause(table, PLAYERS[1])
    assert refused.value.code == "not_host"
    await service.pause(table, HOST)
    assert table not in service.deadlines.planned
    with pytest.raises(Refused) as refused:
        await service.act_text(table, PLAYERS[1], "p1")
    assert refused.value.code == "paused"
    clock.advance(2 * DAY)
    version = (await service.info(table)).version
    await service.on_deadline(table, version)  # a job that escaped: paused, so nothing
    assert await store.load_actions(table) == []
    await service.resume(table, HOST)
    info = await service.info(table)
    assert info.deadlines[0] == deadline + 2 * DAY
    assert service.deadlines.planned[table]["deadline"].due_at == deadline + 2 * DAY


async def test_extend_pushes_one_or_all_deadlines(service: TableService,
                                                  clock: FakeClock) -> None:
    table = await new_table(service, humans=2)
    before = (await service.info(table)).deadlines
    await service.extend(table, HOST, 7200, seat=1)
    after = (await service.info(table)).deadlines
    assert after == {0: before[0], 1: before[1] + 7200}
    await service.extend(table, HOST, 60)
    assert (await service.info(table)).deadlines == {0: before[0] + 60, 1: before[1] + 7260}
    clock.advance(DAY)
    await service.on_deadline(table, (await service.info(table)).version)
    assert (await service.info(table)).waiting.keys() == {0, 1}  # extended: nobody timed out
    version = (await service.info(table)).version
    for nothing in (0, -60):  # no time, or time taken back: refused, nothing written
        with pytest.raises(Refused) as refused:
            await service.extend(table, HOST, nothing)
        assert (refused.value.code, refused.value.context["field"]) == ("options", "seconds")
    assert (await service.info(table)).version == version


async def test_no_deadlines_policy(service: TableService, store: SqliteStore) -> None:
    table = await new_table(service, humans=2,
                            settings=TableSettings(seat_order="join", timeout_policy="none"))
    assert await store.load_timers(table) == []
    assert table not in service.deadlines.planned


async def test_restart_rebuilds_jobs_and_loses_nothing(db_path: Path, clock: FakeClock) -> None:
    store = await SqliteStore.open(db_path)
    try:
        first = TableService(store, RenderingNotifier(), clock=clock)
        table = await new_table(first, humans=3)
        await first.act_text(table, HOST, (await first.prompt(table, HOST)).options[0].text)
        info = await first.info(table)
        planned = {k: (j.id, j.due_at) for k, j in first.deadlines.planned[table].items()}
        first_view = await first.view(table, HOST)
    finally:
        await store.close()

    store = await SqliteStore.open(db_path)
    try:
        notifier = RenderingNotifier()
        second = TableService(store, notifier, clock=clock)
        report = await second.boot(verify=True)
        assert report.jobs == 2 and report.running_tables == 1
        assert {k: (j.id, j.due_at)
                for k, j in second.deadlines.planned[table].items()} == planned
        again = await second.info(table)
        assert (again.version, again.waiting, again.deadlines) == (info.version, info.waiting,
                                                                   info.deadlines)
        assert (await second.view(table, HOST)) == first_view
        # Play on after the restart; the old version's job is now harmless.
        await second.act_text(table, PLAYERS[1], (await second.prompt(table, PLAYERS[1]))
                              .options[0].text)
        clock.advance(DAY)
        await second.on_deadline(table, info.version)
        assert [a.source for a in await store.load_actions(table)] == ["player", "player"]
        await second.on_deadline(table, info.version + 1)
        assert [a.source for a in await store.load_actions(table)] == ["player", "player",
                                                                       "timeout"]
        assert (await second.verify(table)).ok
    finally:
        await store.close()


async def test_apscheduler_jobs_run_the_service(store: SqliteStore,
                                                notifier: RenderingNotifier) -> None:
    """With a real AsyncIOScheduler: job ids name table and version, and a due job runs
    the service. The fake clock starts three hours back, so the deadline fell due two
    hours ago, as when the bot was down: a job missed by far more than APScheduler's
    default one-second grace time still runs."""
    scheduler = AsyncIOScheduler(timezone="UTC")
    clock = FakeClock(start=time.time() - 3 * 3600)
    service = TableService(store, notifier, clock=clock, scheduler=scheduler)
    done = asyncio.Event()
    original = service.on_deadline

    async def watched(table_id: int, v: int) -> None:
        await original(table_id, v)
        done.set()

    service.deadlines._funcs["deadline"] = watched
    settings = TableSettings(seat_order="join", deadline_seconds=3600)
    table = await new_table(service, humans=2, settings=settings)
    version = (await service.info(table)).version
    ids = sorted(job.id for job in scheduler.get_jobs())
    assert ids == [job_id(table, version, "deadline"), job_id(table, version, "reminder")]
    await service.act_text(table, HOST, (await service.prompt(table, HOST)).options[0].text)
    ids = sorted(job.id for job in scheduler.get_jobs())
    assert ids == [job_id(table, version + 1, "deadline"), job_id(table, version + 1, "reminder")]
    clock.advance(3 * 3600)
    scheduler.start()
    try:
        await asyncio.wait_for(done.wait(), timeout=60)
    finally:
        scheduler.shutdown(wait=False)
    assert [a.source for a in await store.load_actions(table)] == ["player", "timeout"]


async def test_a_deadline_that_loses_a_race_to_another_process_writes_nothing_and_replans(
        db_path: Path, clock: FakeClock) -> None:
    mine, theirs = await SqliteStore.open(db_path), await SqliteStore.open(db_path)
    try:
        here = TableService(mine, RenderingNotifier(), clock=clock)
        there = TableService(theirs, RenderingNotifier(), clock=clock)
        table = await new_table(here, humans=2)
        stale = (await here.info(table)).version  # "here" keeps the table in memory
        # Another process plays for the host meanwhile: "here" does not know yet.
        await there.act_text(table, HOST, (await there.prompt(table, HOST)).options[0].text)
        clock.advance(2 * DAY)
        await here.on_deadline(table, stale)  # its save finds a newer table: no error
        assert [(a.seat, a.source) for a in await mine.load_actions(table)] == [(0, "player")]
        fresh = await there.info(table)
        assert here.deadlines.planned[table]["deadline"].version == fresh.version
    finally:
        await mine.close()
        await theirs.close()
