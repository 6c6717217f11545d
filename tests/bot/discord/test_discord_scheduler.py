"""The bot with its own APScheduler (``create_bot(..., scheduler=True)``) on simcord's
virtual clock: a missed deadline is played by the AI because virtual time passed, not
because a test called the job. APScheduler reads the wall clock, so the test points its
``datetime.now`` at simcord's clock, the one the service reads too."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import UTC, datetime, tzinfo
from pathlib import Path

import apscheduler.executors.base
import apscheduler.schedulers.base
import apscheduler.triggers.date
import apscheduler.triggers.interval
import pytest
import simcord
from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import NO_PRIVILEGED, World, open_table

from bot.clock import FakeClock
from bot.discord import UrbanistBot, create_bot
from bot.service import job_id
from bot.store import SqliteStore

# simcord waits for the bot's timers that fall due within its settle bound; the bound
# must stay under the sweep's 30 s period, or the sweep, always due again, never lets a
# settle end (simtable's 120 s bound suits the tests without a scheduler).
pytestmark = pytest.mark.simcord(approved_intents=NO_PRIVILEGED, settle_timeout=20.0)

SIMCORD_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)  # simcord's clock at elapsed 0
HOUR = 3600


class VirtualClock(FakeClock):
    """simcord's virtual time in seconds since the epoch (its start until the env is
    known: the bot boots before the fixture hands the env over)."""

    def __init__(self) -> None:
        super().__init__(SIMCORD_EPOCH.timestamp())
        self.env: simcord.Env | None = None

    def now(self) -> float:
        return self.env.now().timestamp() if self.env is not None else self.current


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
async def simcord_bot(tmp_path: Path, clock: VirtualClock) -> UrbanistBot:
    store = await SqliteStore.open(tmp_path / "urbanist.sqlite3")
    return create_bot(tmp_path / "urbanist.sqlite3", clock=clock, scheduler=True, store=store,
                      pacing=False, seeds=itertools.count(1000))


@pytest.fixture(autouse=True)
def apscheduler_on_the_clock(clock: VirtualClock) -> Iterator[None]:
    class VirtualDatetime(datetime):
        @classmethod
        def now(cls, tz: tzinfo | None = None) -> VirtualDatetime:
            moment = datetime.fromtimestamp(clock.now(), UTC).astimezone(tz)
            return cls.fromtimestamp(moment.timestamp(), moment.tzinfo)

    modules = (apscheduler.schedulers.base, apscheduler.triggers.interval,
               apscheduler.triggers.date, apscheduler.executors.base)
    with pytest.MonkeyPatch.context() as mp:
        for module in modules:
            mp.setattr(module, "datetime", VirtualDatetime)
        yield


async def test_a_missed_deadline_is_played_by_the_bots_own_scheduler(
        world: World, clock: VirtualClock) -> None:
    clock.env = world.env
    scheduler = world.bot.scheduler
    assert scheduler is not None and scheduler.running
    info = await open_table(world, "skybridge", humans=2, deadline_hours=1)
    await world.people[0].click(world.status_message(info.id),
                                custom_id=f"urb:l:start:{info.id}")
    await world.flush()
    info = await world.service.info(info.id)
    late = min(info.waiting)
    assert job_id(info.id, info.version, "deadline") in {j.id for j in scheduler.get_jobs()}
    await world.env.advance_time(HOUR - 120)
    await world.flush()
    assert (await world.service.info(info.id)).version == info.version  # not yet due
    await world.env.advance_time(240)
    await world.flush()
    actions = await world.service.store.load_actions(info.id)
    assert [(a.seat, a.source) for a in actions][:1] == [(late, "timeout")]
    late_member = world.member_of(info.seats[late].user_id)
    assert any("played" in m.content.lower() for m in world.dms(late_member))
