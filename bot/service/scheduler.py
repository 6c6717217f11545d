"""APScheduler 3.x jobs derived from the timers stored in the database.

The database is the source of truth: at most one deadline job and one reminder job per
running table, at the earliest stored time of each kind, rebuilt at every start. A job
id names the table, the version and the kind; a job that fires for a version the table
has left does nothing (the service checks), so a job that escaped cancellation is harmless.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger

from bot.store.records import ScheduledTimer, TimerKind, TimerRecord

log = logging.getLogger(__name__)

JobFunc = Callable[[int, int], Awaitable[None]]


def _everything(table_id: int) -> bool:
    return True


def job_id(table_id: int, version: int, kind: str) -> str:
    return f"table:{table_id}:v{version}:{kind}"


@dataclass(frozen=True)
class PlannedJob:
    id: str
    table_id: int
    version: int
    kind: TimerKind
    due_at: float


def _job_function(func: JobFunc) -> JobFunc:
    """A plain coroutine function with a precomputed signature: APScheduler inspects the
    callable of every job it adds, which was most of the start-up time for 20,000 jobs."""

    async def run(table_id: int, version: int) -> None:
        await func(table_id, version)

    run.__signature__ = inspect.signature(run)  # type: ignore[attr-defined]
    run.__qualname__ = run.__name__ = getattr(func, "__name__", "job")
    return run


class DeadlineScheduler:
    """Keeps the planned jobs (inspectable by tests and the console) and, when given an
    APScheduler, mirrors them there. ``on_deadline``/``on_reminder`` are the job functions:
    coroutine functions taking ``(table_id, version)``."""

    def __init__(self, scheduler: AsyncIOScheduler | None, *, on_deadline: JobFunc,
                 on_reminder: JobFunc) -> None:
        self.scheduler = scheduler
        self._funcs: dict[str, JobFunc] = {"deadline": _job_function(on_deadline),
                                           "reminder": _job_function(on_reminder)}
        self.planned: dict[int, dict[str, PlannedJob]] = {}
        # Whether this process owns a table's jobs (``bot.service.leasing``): alone on the
        # database it owns them all; beside other processes only its leased tables'.
        self.owns: Callable[[int], bool] = _everything

    def plan(self, table_id: int, version: int, timers: Iterable[TimerRecord]) -> None:
        """Replace the table's jobs with the earliest timer of each kind."""
        earliest: dict[str, float] = {}
        for t in timers:
            earliest[t.kind] = min(t.due_at, earliest.get(t.kind, t.due_at))
        self.cancel(table_id)
        if not self.owns(table_id):
            return
        for kind, due in earliest.items():
            self._add(ScheduledTimer(table_id, version, kind, due))  # type: ignore[arg-type]

    def plan_all(self, scheduled: Iterable[ScheduledTimer]) -> int:
        count = 0
        for item in scheduled:
            if self.owns(item.table_id):
                self._add(item)
                count += 1
        return count

    def sync(self, scheduled: Iterable[ScheduledTimer]) -> int:
        """Make the planned jobs those of ``scheduled`` (the database's timers) for the
        tables this process owns: what another process changed, a bucket gained or lost.
        Returns how many tables' jobs changed."""
        wanted: dict[int, dict[str, ScheduledTimer]] = {}
        for item in scheduled:
            if self.owns(item.table_id):
                wanted.setdefault(item.table_id, {})[item.kind] = item
        changed = 0
        for table_id in [t for t in self.planned if t not in wanted]:
            self.cancel(table_id)
            changed += 1
        for table_id, items in wanted.items():
            have = self.planned.get(table_id, {})
            if {k: (j.version, j.due_at) for k, j in have.items()} == {
                    k: (i.version, i.due_at) for k, i in items.items()}:
                continue
            self.cancel(table_id)
            for item in items.values():
                self._add(item)
            changed += 1
        return changed

    def cancel(self, table_id: int) -> None:
        jobs = self.planned.pop(table_id, {})
        if self.scheduler is None:
            return
        for job in jobs.values():
            with contextlib.suppress(JobLookupError):  # it may have run already
                self.scheduler.remove_job(job.id)

    def _add(self, item: ScheduledTimer) -> None:
        job = PlannedJob(job_id(item.table_id, item.version, item.kind), item.table_id,
                         item.version, item.kind, item.due_at)
        self.planned.setdefault(item.table_id, {})[item.kind] = job
        if self.scheduler is None:
            return
        # A time already past (the bot was down) still runs: no misfire grace limit.
        self.scheduler.add_job(
            self._funcs[item.kind],
            trigger=DateTrigger(run_date=datetime.fromtimestamp(item.due_at, tz=UTC)),
            args=(item.table_id, item.version),
            id=job.id,
            replace_existing=True,
            misfire_grace_time=None,
            coalesce=True,
        )

    def job_count(self) -> int:
        return sum(len(jobs) for jobs in self.planned.values())
