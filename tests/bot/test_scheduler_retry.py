"""Every timer survives any failure of the job that runs it: a job that raises is tried
again with backoff until it succeeds or the table moves on, and the sweep's ``catch_up``
plans again any timer the database says falls due that no job holds. With a real
AsyncIOScheduler (APScheduler forgets a date job once it has run, raised or not)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.service.scheduler import DeadlineScheduler, job_id, retry_delay
from bot.store.records import ScheduledTimer, TimerRecord


@pytest.fixture
async def aps() -> AsyncIterator[AsyncIOScheduler]:
    scheduler = AsyncIOScheduler(timezone="UTC")
    scheduler.start()
    try:
        yield scheduler
    finally:
        scheduler.shutdown(wait=False)


class Jobs:
    """Job functions that record each run and raise while ``failures`` says so."""

    def __init__(self, failures: int = 0) -> None:
        self.failures = failures
        self.runs: list[tuple[str, int, int]] = []
        self.done = asyncio.Event()
        self.during: list[object] = []

    async def deadline(self, table_id: int, version: int) -> None:
        await self._run("deadline", table_id, version)

    async def reminder(self, table_id: int, version: int) -> None:
        await self._run("reminder", table_id, version)

    async def _run(self, kind: str, table_id: int, version: int) -> None:
        self.runs.append((kind, table_id, version))
        for hook in self.during:
            hook()  # type: ignore[operator]
        if self.failures > 0:
            self.failures -= 1
            raise ConnectionError("the database is restarting")
        self.done.set()


def scheduler_for(aps: AsyncIOScheduler, jobs: Jobs) -> DeadlineScheduler:
    deadlines = DeadlineScheduler(aps, on_deadline=jobs.deadline, on_reminder=jobs.reminder)
    deadlines.retry_base = 0.01
    return deadlines


def timer(seat: int, due_at: float, kind: str = "deadline") -> TimerRecord:
    return TimerRecord(seat=seat, kind=kind, due_at=due_at)  # type: ignore[arg-type]


async def wait_until(condition: object, timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():  # type: ignore[operator]
        assert loop.time() < end, "condition not reached"
        await asyncio.sleep(0.01)


def test_the_backoff_doubles_up_to_five_minutes() -> None:
    assert [retry_delay(n) for n in (1, 2, 3, 4)] == [5.0, 10.0, 20.0, 40.0]
    assert retry_delay(30) == 300.0


async def test_a_job_that_fails_is_tried_again_until_it_succeeds(
        aps: AsyncIOScheduler) -> None:
    jobs = Jobs(failures=3)
    deadlines = scheduler_for(aps, jobs)
    deadlines.plan(7, 4, [timer(0, time.time() - 1)])
    await asyncio.wait_for(jobs.done.wait(), timeout=60)
    assert jobs.runs == [("deadline", 7, 4)] * 4
    # Done: the job is forgotten (whatever the table still owes, the job planned).
    await wait_until(lambda: 7 not in deadlines.planned)
    assert aps.get_job(job_id(7, 4, "deadline")) is None


async def test_a_failed_job_counts_its_failures_and_waits_longer_each_time(
        aps: AsyncIOScheduler) -> None:
    jobs = Jobs(failures=2)
    deadlines = scheduler_for(aps, jobs)
    deadlines.retry_base = 100.0  # the second try is far enough away to look at it
    due = time.time() - 1
    deadlines.plan(7, 4, [timer(0, due)])
    await wait_until(lambda: deadlines.planned[7]["deadline"].failures == 1)
    job = deadlines.planned[7]["deadline"]
    # The database's time is kept; only the next run moves.
    assert (job.due_at, job.version, job.id) == (due, 4, job_id(7, 4, "deadline"))
    assert job.run_at >= due + 100.0
    held = aps.get_job(job.id)
    assert held is not None and held.next_run_time.timestamp() == pytest.approx(job.run_at)
    # The sweep sees the database's due timer held by the retry: it does not hurry it.
    assert deadlines.catch_up([job.timer()]) == 0
    assert deadlines.planned[7]["deadline"] == job


async def test_a_failing_job_is_not_tried_again_once_the_table_moves_on(
        aps: AsyncIOScheduler) -> None:
    jobs = Jobs(failures=1)
    deadlines = scheduler_for(aps, jobs)
    later = time.time() + 3000
    # While the job runs (and fails), a player moves: version 5 is planned.
    jobs.during.append(lambda: deadlines.plan(7, 5, [timer(1, later)]))
    deadlines.plan(7, 4, [timer(0, time.time() - 1)])
    await wait_until(lambda: jobs.runs and jobs.failures == 0)
    await asyncio.sleep(0.2)  # many retry periods: a retry of v4 would have run
    assert jobs.runs == [("deadline", 7, 4)]
    assert {j.version for j in deadlines.planned[7].values()} == {5}
    assert aps.get_job(job_id(7, 5, "deadline")) is not None


async def test_the_sweep_plans_again_a_due_timer_that_no_job_holds(
        aps: AsyncIOScheduler) -> None:
    jobs = Jobs()
    deadlines = scheduler_for(aps, jobs)
    aps.pause()  # nothing runs until the loss below is set up
    due = time.time() - 1
    deadlines.plan(7, 4, [timer(0, due), timer(0, due + 1, "reminder")])
    database = [ScheduledTimer(7, 4, "deadline", due), ScheduledTimer(7, 4, "reminder", due + 1)]
    # Held by APScheduler: nothing to do.
    assert deadlines.catch_up(database) == 0
    # The job is lost behind the scheduler's back (what a raising job used to do).
    aps.remove_job(job_id(7, 4, "deadline"))
    assert deadlines.catch_up(database) == 1
    aps.resume()
    await asyncio.wait_for(jobs.done.wait(), timeout=60)
    await wait_until(lambda: len(jobs.runs) == 2)
    assert sorted(jobs.runs) == [("deadline", 7, 4), ("reminder", 7, 4)]


async def test_a_timer_the_process_never_planned_is_planned_by_the_sweep(
        aps: AsyncIOScheduler) -> None:
    jobs = Jobs()
    deadlines = scheduler_for(aps, jobs)
    deadlines.owns = lambda table_id: table_id != 9
    due = time.time() - 1
    assert deadlines.catch_up([ScheduledTimer(3, 2, "deadline", due),
                               ScheduledTimer(9, 1, "deadline", due)]) == 1
    await asyncio.wait_for(jobs.done.wait(), timeout=60)
    assert jobs.runs == [("deadline", 3, 2)]


async def test_apscheduler_holds_only_the_jobs_due_within_the_horizon(
        aps: AsyncIOScheduler) -> None:
    jobs = Jobs()
    deadlines = scheduler_for(aps, jobs)
    aps.pause()
    now = time.time()
    deadlines.plan(1, 1, [timer(0, now + 600)])
    deadlines.plan(2, 1, [timer(0, now + 86400)])
    assert deadlines.job_count() == 2
    assert [j.id for j in aps.get_jobs()] == [job_id(1, 1, "deadline")]
    # A day later table 2's deadline is near: the sweep brings it in.
    deadlines.now = lambda: now + 86400 - 60
    database = [ScheduledTimer(1, 1, "deadline", now + 600),
                ScheduledTimer(2, 1, "deadline", now + 86400)]
    assert deadlines.catch_up(database) == 1
    assert {j.id for j in aps.get_jobs()} == {job_id(1, 1, "deadline"),
                                              job_id(2, 1, "deadline")}
