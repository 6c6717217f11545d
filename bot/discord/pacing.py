"""Discord's rate limits, respected before Discord enforces them: at most 5 messages in
any 5 seconds in one channel and 50 requests in any second for the whole bot. A bot
with many busy tables then queues its messages instead of collecting 429s.

A sliding window per key (the times of the last requests): a request goes when fewer
than ``limit`` went in the last ``period`` seconds, else ``wait`` sleeps until the
oldest of them leaves the window. (A token bucket would let 5 go at once and then one a
second, which is 9 in the first 5 seconds.)
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

PER_CHANNEL = (5, 5.0)  # requests, seconds
GLOBAL = (50, 1.0)
_MAX_CHANNELS = 10_000  # windows kept; an idle channel's window is dropped first


@dataclass
class Window:
    limit: int
    period: float
    times: deque[float] = field(default_factory=deque)

    def delay(self, now: float) -> float:
        """Seconds until one more request fits (0: it fits now)."""
        while self.times and self.times[0] <= now - self.period:
            self.times.popleft()
        if len(self.times) < self.limit:
            return 0.0
        return self.times[0] + self.period - now

    def take(self, now: float) -> None:
        self.times.append(now)


@dataclass
class Pacer:
    per_channel: tuple[int, float] = PER_CHANNEL
    overall: tuple[int, float] = GLOBAL
    enabled: bool = True
    clock: Callable[[], float] | None = None
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    waited: float = 0.0  # seconds spent waiting, for benchmarks and tests
    _channels: dict[int, Window] = field(default_factory=dict)
    _global: Window | None = None

    def _now(self) -> float:
        return self.clock() if self.clock is not None else asyncio.get_running_loop().time()

    async def wait(self, channel_id: int | None) -> None:
        """Sleep until one more request to ``channel_id`` (None: only the global limit)
        keeps within both limits; then count it."""
        if not self.enabled:
            return
        if self._global is None:
            self._global = Window(*self.overall)
        while True:
            now = self._now()
            window = None
            if channel_id is not None:
                window = self._channels.get(channel_id)
                if window is None:
                    self._forget_idle(now)
                    window = self._channels[channel_id] = Window(*self.per_channel)
            delay = max(self._global.delay(now), window.delay(now) if window else 0.0)
            if delay <= 0:
                self._global.take(now)
                if window is not None:
                    window.take(now)
                return
            self.waited += delay
            await self.sleep(delay)

    def _forget_idle(self, now: float) -> None:
        if len(self._channels) < _MAX_CHANNELS:
            return
        for key in [k for k, w in self._channels.items() if w.delay(now) == 0 and not w.times]:
            del self._channels[key]
