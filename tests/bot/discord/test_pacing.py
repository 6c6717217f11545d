"""The pacer keeps requests under Discord's limits before Discord enforces them: about
5 per 5 s in one channel, 50 per s for the whole bot. Time is a fake clock here."""

from __future__ import annotations

from bot.discord.pacing import Pacer


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def pacer(time: FakeTime) -> Pacer:
    return Pacer(clock=time.clock, sleep=time.sleep)


async def test_a_busy_channel_waits_past_five_posts_in_five_seconds() -> None:
    time = FakeTime()
    pace = pacer(time)
    stamps = []
    for _ in range(12):
        await pace.wait(1)
        stamps.append(time.now)
    assert stamps[:5] == [0.0] * 5  # a burst of 5 goes at once
    # Never more than 5 requests in any 5-second window, and no more waiting than that.
    for i in range(len(stamps)):
        window = [t for t in stamps if stamps[i] <= t < stamps[i] + 5.0]
        assert len(window) <= 5
    assert stamps[5] == 5.0 and stamps[-1] == 10.0


async def test_other_channels_do_not_wait_for_a_busy_one() -> None:
    time = FakeTime()
    pace = pacer(time)
    for _ in range(5):
        await pace.wait(1)
    await pace.wait(2)
    assert time.now == 0.0 and time.slept == []


async def test_the_whole_bot_stays_under_fifty_a_second() -> None:
    time = FakeTime()
    pace = pacer(time)
    for channel in range(120):  # every post in its own channel: only the global limit
        await pace.wait(channel)
    assert time.now == 2.0  # 50 at 0 s, 50 at 1 s, 20 at 2 s


async def test_a_disabled_pacer_never_waits() -> None:
    time = FakeTime()
    pace = Pacer(enabled=False, clock=time.clock, sleep=time.sleep)
    for _ in range(100):
        await pace.wait(1)
    assert time.slept == []
