"""The deadline scheduler's bookkeeping, without APScheduler: at boot every stored timer
becomes a job, and beside other processes the planned jobs are made those of the
database again (a table gone or moved to another process loses its jobs)."""

from __future__ import annotations

from bot.service.scheduler import DeadlineScheduler
from bot.store.records import ScheduledTimer


async def _nothing(table_id: int, version: int) -> None:
    return None


def planned(scheduler: DeadlineScheduler) -> dict[int, set[tuple[str, int, float]]]:
    return {t: {(j.kind, j.version, j.due_at) for j in jobs.values()}
            for t, jobs in scheduler.planned.items()}


def test_boot_plans_every_owned_timer_and_counts_them() -> None:
    scheduler = DeadlineScheduler(None, on_deadline=_nothing, on_reminder=_nothing)
    scheduler.owns = lambda table_id: table_id != 3
    count = scheduler.plan_all([
        ScheduledTimer(1, 4, "deadline", 100.0), ScheduledTimer(2, 7, "deadline", 300.0),
        ScheduledTimer(2, 7, "reminder", 200.0), ScheduledTimer(3, 1, "deadline", 50.0)])
    assert count == 3
    assert planned(scheduler) == {1: {("deadline", 4, 100.0)},
                                  2: {("deadline", 7, 300.0), ("reminder", 7, 200.0)}}
    assert scheduler.job_count() == 3


def test_sync_makes_the_jobs_those_of_the_database() -> None:
    scheduler = DeadlineScheduler(None, on_deadline=_nothing, on_reminder=_nothing)
    table_two = [ScheduledTimer(2, 7, "deadline", 300.0), ScheduledTimer(2, 7, "reminder", 200.0)]
    scheduler.plan_all([ScheduledTimer(1, 4, "deadline", 100.0), *table_two])
    # Table 1 ended elsewhere; table 2 is unchanged: one table's jobs changed.
    assert scheduler.sync(table_two) == 1
    assert planned(scheduler) == {2: {("deadline", 7, 300.0), ("reminder", 7, 200.0)}}
    assert scheduler.sync(table_two) == 0
    # Table 2 moved on (a new version, no reminder left) and table 5 appeared.
    moved = [ScheduledTimer(2, 8, "deadline", 400.0), ScheduledTimer(5, 1, "deadline", 90.0)]
    assert scheduler.sync(moved) == 2
    assert planned(scheduler) == {2: {("deadline", 8, 400.0)}, 5: {("deadline", 1, 90.0)}}
    # This process lost table 5's bucket, and table 2 has nothing due any more.
    scheduler.owns = lambda table_id: table_id != 5
    assert scheduler.sync([ScheduledTimer(5, 1, "deadline", 90.0)]) == 2
    assert planned(scheduler) == {}
