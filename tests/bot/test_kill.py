"""SIGKILL under load, with bots: no acknowledged action lost, and no table left waiting
for a bot that nothing would ever wake (the full-size run: benchmarks/kill.py)."""

from __future__ import annotations

from pathlib import Path

from killharness import kill_test


async def test_kills_lose_nothing_and_leave_no_bot_waiting(tmp_path: Path) -> None:
    report = await kill_test(tmp_path / "kill.sqlite3", kills=3, tasks=6, acks=(15, 60))
    assert report.kills == 3 and report.acknowledged >= 45
    assert report.lost == 0
    assert report.stuck == 0
    assert report.replay_failures == []
