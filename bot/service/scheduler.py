"""APScheduler 3.x jobs derived from the timers stored in the database.

The database is the source of truth: at most one deadline job and one reminder job per
running table, at the earliest stored time of each kind, rebuilt at every start. A job
id names the table, the version and the kind; a job that fires for a version the table
has left does nothing (the service checks), so a job that escaped cancellation is harmless.

Every timer survives any failure of the job that runs it. APScheduler forgets a date job
once it has run, whether it raised or not, so the job function here never lets it raise:
a job that fails (the database is down for a few seconds, say) is planned again with
backoff until it succeeds or the table moves on. And the periodic sweep hands
``catch_up`` the database's timers that fall due soon: any of them that no job holds
(a job lost to a scheduler fault, to a skipped run, or to a bug) is planned again.

APScheduler holds only the jobs that fall due within ``horizon`` seconds: each job it
holds costs memory and start-up time, and the sweep brings the later ones in as they come
near. ``planned`` lists them all, held by APScheduler or not.
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger

from bot.service.errors import Refused
from bot.store.health import StorageError
from bot.store.records import ScheduledTimer, TimerKind, TimerRecord

log = logging.getLogger(__name__)

JobFunc = Callable[[int, int], Awaitable[None]]

# A failed job runs again after 5 s, 10 s, 20 s... at most 5 minutes apart.
RETRY_BASE = 5.0
RETRY_MAX = 300.0
# APScheduler holds the jobs due within this time; the sweep (every 30 s at most) brings
# the later ones in long before they fall due.
HORIZON = 3600.0


def _everything(table_id: int) -> bool:
    return True


def job_id(table_id: int, version: int, kind: str) -> str:
    return f"table:{table_id}:v{version}:{kind}"


def retry_delay(failures: int, base: float = RETRY_BASE) -> float:
    """Seconds before the next try of a job that failed ``failures`` times in a row."""
    return float(min(RETRY_MAX, base * 2 ** max(0, failures - 1)))


@dataclass(frozen=True)
class PlannedJob:
    id: str
    table_id: int
    version: int
    kind: TimerKind
    due_at: float  # the database's time
    # When it runs: ``due_at``, or later while failed runs are tried again.
    run_at: float = 0.0
    failures: int = 0
    serial: int = 0  # which plan this is, so a finished run forgets only its own

    def timer(self) -> ScheduledTimer:
        return ScheduledTimer(self.table_id, self.version, self.kind, self.due_at)


class DeadlineScheduler:
    """Keeps the planned jobs (inspectable by tests and the console) and, when given an
    APScheduler, mirrors there the ones due within ``horizon``. ``on_deadline``/
    ``on_reminder`` are the job functions: coroutine functions taking ``(table_id,
    version)``. ``now`` is the clock the database's times are read on."""

    def __init__(self, scheduler: AsyncIOScheduler | None, *, on_deadline: JobFunc,
                 on_reminder: JobFunc, now: Callable[[], float] = time.time,
                 horizon: float = HORIZON) -> None:
        self.scheduler = scheduler
        self._funcs: dict[str, JobFunc] = {"deadline": on_deadline, "reminder": on_reminder}
        self.now = now
        self.horizon = horizon
        self.retry_base = RETRY_BASE
        self.planned: dict[int, dict[str, PlannedJob]] = {}
        # Whether this process owns a table's jobs (``bot.service.leasing``): alone on the
        # database it owns them all; beside other processes only its leased tables'.
        self.owns: Callable[[int], bool] = _everything
        self._serials = itertools.count(1)
        self._running: set[int] = set()  # serials of the runs under way
        self._scheduled: set[int] = set()  # serials APScheduler holds
        self._runner = self._make_runner()

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
        tables this process owns: what another process changed, a bucket gained or lost,
        a job lost. Returns how many tables' jobs changed."""
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
            if {k: j.timer() for k, j in have.items()} == items:
                changed += self.catch_up(items.values()) > 0
                continue
            self.cancel(table_id)
            for item in items.values():
                self._add(item)
            changed += 1
        return changed

    def catch_up(self, scheduled: Iterable[ScheduledTimer]) -> int:
        """The sweep's check against the database: every timer of ``scheduled`` that falls
        due within the horizon and that no job holds is planned again (a job that raised
        is already planned again by its runner; this catches every other way to lose
        one), and APScheduler takes in the jobs that have come within the horizon.
        Returns how many jobs were planned."""
        soon = self.now() + self.horizon
        count = 0
        for item in scheduled:
            if item.due_at > soon or not self.owns(item.table_id):
                continue
            job = self.planned.get(item.table_id, {}).get(item.kind)
            if job is not None and job.timer() == item and self._held(job):
                continue
            if job is not None and job.serial in self._scheduled:
                log.warning("table %d: the %s job for v%d was lost; planned again",
                            item.table_id, item.kind, item.version)
            self._add(item)
            count += 1
        return count

    def cancel(self, table_id: int) -> None:
        jobs = self.planned.pop(table_id, {})
        for job in jobs.values():
            self._unschedule(job)

    def job_count(self) -> int:
        return sum(len(jobs) for jobs in self.planned.values())

    def _held(self, job: PlannedJob) -> bool:
        """Whether a job will still run: APScheduler holds it, or it runs now."""
        if self.scheduler is None or job.serial in self._running:
            return True
        if job.serial in self._scheduled and self.scheduler.get_job(job.id) is not None:
            return True
        # Not in APScheduler: fine while it is beyond the horizon (the sweep brings it in).
        return job.serial not in self._scheduled and job.run_at > self.now() + self.horizon

    def _add(self, item: ScheduledTimer, *, run_at: float | None = None,
             failures: int = 0) -> None:
        old = self.planned.get(item.table_id, {}).get(item.kind)
        if old is not None:
            self._unschedule(old)
        job = PlannedJob(job_id(item.table_id, item.version, item.kind), item.table_id,
                         item.version, item.kind, item.due_at,
                         run_at=item.due_at if run_at is None else run_at,
                         failures=failures, serial=next(self._serials))
        self.planned.setdefault(item.table_id, {})[item.kind] = job
        if self.scheduler is None or job.run_at > self.now() + self.horizon:
            return
        self._scheduled.add(job.serial)
        # A time already past (the bot was down) still runs: no misfire grace limit.
        self.scheduler.add_job(
            self._runner,
            trigger=DateTrigger(run_date=datetime.fromtimestamp(job.run_at, tz=UTC)),
            args=(job.kind, job.table_id, job.version, job.serial),
            id=job.id,
            replace_existing=True,
            misfire_grace_time=None,
            coalesce=True,
            # A plan made while this id's previous run is still under way must not be
            # skipped as a second instance: the table's lock keeps the two apart.
            max_instances=2,
        )

    def _unschedule(self, job: PlannedJob) -> None:
        if job.serial not in self._scheduled:
            return
        self._scheduled.discard(job.serial)
        if self.scheduler is not None and job.serial not in self._running:
            with contextlib.suppress(JobLookupError):  # it may have run already
                self.scheduler.remove_job(job.id)

    def _current(self, table_id: int, kind: str, serial: int) -> PlannedJob | None:
        job = self.planned.get(table_id, {}).get(kind)
        return job if job is not None and job.serial == serial else None

    def _make_runner(self) -> Callable[[str, int, int, int], Awaitable[None]]:
        """The one job function APScheduler holds, with its signature computed once:
        APScheduler inspects the callable of every job it adds, which was most of the
        start-up time for 20,000 jobs."""

        async def run_job(kind: str, table_id: int, version: int, serial: int) -> None:
            await self._run(kind, table_id, version, serial)

        run_job.__signature__ = inspect.signature(run_job)  # type: ignore[attr-defined]
        return run_job

    async def _run(self, kind: str, table_id: int, version: int, serial: int) -> None:
        self._scheduled.discard(serial)
        self._running.add(serial)
        failure: Exception | None = None
        try:
            await self._funcs[kind](table_id, version)
        except Exception as exc:
            failure = exc
        finally:
            self._running.discard(serial)
        if failure is not None:
            self._retry(kind, table_id, version, serial, failure)
            return
        # Done: whatever the table still owes was planned by the job itself (a new
        # version), and a timer still due is the sweep's to find.
        if self._current(table_id, kind, serial) is not None:
            self.planned[table_id].pop(kind)
            if not self.planned[table_id]:
                del self.planned[table_id]

    def _retry(self, kind: str, table_id: int, version: int, serial: int,
               exc: Exception) -> None:
        job = self._current(table_id, kind, serial)
        if job is None:
            # The table moved on while the job ran: its new timers are planned already.
            log.info("table %d: %s job for v%d failed (%s); the table has moved on",
                     table_id, kind, version, exc)
            return
        failures = job.failures + 1
        delay = retry_delay(failures, self.retry_base)
        # A storage fault is an expected condition (its message says it all); anything
        # else is a bug, whose traceback is shown once.
        trace = exc if failures == 1 and not isinstance(exc, StorageError | Refused) else None
        log.warning("table %d: %s job for v%d failed (%s: %s); trying again in %.0f s "
                    "(failure %d)", table_id, kind, version, type(exc).__name__, exc,
                    delay, failures, exc_info=trace)
        self._add(job.timer(), run_at=self.now() + delay, failures=failures)

