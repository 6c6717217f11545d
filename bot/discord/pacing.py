"""Discord's rate limits, respected before Discord enforces them: about 5 messages per
5 seconds in one channel and 50 requests per second for the whole bot. A bot with many
busy tables then queues its messages instead of collecting 429s.

Token buckets over the event loop's clock; ``wait`` sleeps until a request may go.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

PER_CHANNEL = (5, 5.0)  # requests, seconds
GLOBAL = (50, 1.0)


@dataclass
class Bucket:
    capacity: int
    period: float
    tokens: float = -1.0
    stamp: float = 0.0

    def delay(self, now: float) -> float:
        """Seconds to wait before one more request; takes the token when none."""
        if self.tokens < 0:
            self.tokens, self.stamp = float(self.capacity), now
        rate = self.capacity / self.period
        self.tokens = min(float(self.capacity), self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / rate


@dataclass
class Pacer:
    per_channel: tuple[int, float] = PER_CHANNEL
    overall: tuple[int, float] = GLOBAL
    enabled: bool = True
    clock: Callable[[], float] | None = None
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    _channels: dict[int, Bucket] = field(default_factory=dict)
    _global: Bucket | None = None
    waited: float = 0.0  # seconds spent waiting, for benchmarks and tests

    def _now(self) -> float:
        return self.clock() if self.clock is not None else asyncio.get_running_loop().time()

    async def wait(self, channel_id: int | None) -> None:
        """Sleep until one more request to ``channel_id`` (None: only the global limit)
        keeps within both limits; then count it."""
        if not self.enabled:
            return
        if self._global is None:
            self._global = Bucket(*self.overall)
        while True:
            now = self._now()
            delay = self._global.delay(now)
            if delay == 0 and channel_id is not None:
                bucket = self._channels.setdefault(channel_id, Bucket(*self.per_channel))
                delay = bucket.delay(now)
                if delay > 0:
                    self._global.tokens += 1  # not spent: give it back
            if delay == 0:
                return
            self.waited += delay
            await self.sleep(delay)
