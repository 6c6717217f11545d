"""Three bot processes on one PostgreSQL, one SIGKILLed at random moments: no
acknowledged move lost, every deadline fired exactly once (by whichever process held
the table's lease), every table replays (the full-size run: benchmarks/multiprocess.py)."""

from __future__ import annotations

from pathlib import Path

from multiharness import DatabaseRestart, MultiReport, multi_test
from store_backends import PgRestarter, postgres_only


def assert_nothing_lost(report: MultiReport, kills: int) -> None:
    assert report.errors == []
    assert report.kills == kills
    assert report.acknowledged > 0 and report.tables > 0
    assert report.lost == 0
    # Never: every table finished on deadlines alone once its owner was gone.
    assert report.unfinished == 0
    # Seat 1 never plays: each of its decisions is one fired deadline, none twice.
    assert report.seat1_not_timeout == 0
    assert report.timeouts_logged >= report.tables * 3  # at least its 3 picks each
    assert report.reported_twice == 0 and report.reported_not_logged == 0
    assert report.early == 0
    assert report.check_exit == 0, report.check_output


@postgres_only
async def test_three_processes_killed_at_random_lose_nothing_and_fire_each_deadline_once(
        db_url: str, tmp_path: Path) -> None:
    report = await multi_test(db_url, tmp_path, processes=3, kills=3, tasks=3, ttl=2.0)
    assert_nothing_lost(report, 3)


@postgres_only
async def test_a_database_restart_amid_the_kills_loses_nothing_and_stalls_no_table(
        db_url: str, tmp_path: Path, pg_restarter: PgRestarter) -> None:
    """Issue 23, item 1: after a PostgreSQL restart in the middle of play, every table
    still ends on its deadlines (some used to wait, their deadline jobs lost)."""
    restart = DatabaseRestart(pg_restarter.stop, pg_restarter.start, down=3.0)
    report = await multi_test(db_url, tmp_path, processes=3, kills=2, tasks=3, ttl=2.0,
                              restart=restart)
    assert report.restarts == 1
    assert_nothing_lost(report, 2)
