"""Live updates: who watches which table, and one poll per watched table.

The database is the only place that knows of every move (several bot processes on one
PostgreSQL each apply moves), so a watched table is read again every ``poll`` seconds
by one task, however many pages follow it; each page's event stream hears of a change
and the page fetches itself again. A table nobody watches costs nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field

from bot.web.source import PageSource

log = logging.getLogger(__name__)


@dataclass
class Watch:
    table_id: int
    etag: str | None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    followers: int = 0
    task: asyncio.Task[None] | None = None


class Watchers:
    def __init__(self, source: PageSource, poll: float = 1.0) -> None:
        self.source = source
        self.poll = poll
        self._watches: dict[int, Watch] = {}
        self.closing = asyncio.Event()

    def watching(self) -> int:
        return sum(w.followers for w in self._watches.values())

    def follow(self, table_id: int, etag: str | None) -> Watch:
        watch = self._watches.get(table_id)
        if watch is None:
            watch = Watch(table_id, etag)
            self._watches[table_id] = watch
            watch.task = asyncio.get_running_loop().create_task(self._poll(watch))
        watch.followers += 1
        return watch

    def leave(self, watch: Watch) -> None:
        watch.followers -= 1
        if watch.followers <= 0 and self._watches.get(watch.table_id) is watch:
            del self._watches[watch.table_id]
            if watch.task is not None:
                watch.task.cancel()

    async def next_change(self, watch: Watch, known: str | None,
                          timeout: float) -> str | None:
        """The table's etag when it differs from ``known``, at once or after waiting at
        most ``timeout`` for a change; None when nothing changed, or the server closes."""
        if watch.etag is not None and watch.etag != known:
            return watch.etag
        if self.closing.is_set():
            return None
        waits = {asyncio.ensure_future(self.closing.wait()),
                 asyncio.ensure_future(watch.changed.wait())}
        try:
            await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()
        if self.closing.is_set() or watch.etag is None or watch.etag == known:
            return None
        return watch.etag

    async def _poll(self, watch: Watch) -> None:
        while not self.closing.is_set():
            await asyncio.sleep(self.poll)
            try:
                page = await self.source.page(watch.table_id, fresh=self.poll / 2)
            except asyncio.CancelledError:
                raise
            except Exception:  # a database hiccup: try again at the next poll
                log.warning("table %d: live read failed", watch.table_id, exc_info=True)
                continue
            etag = None if page is None else page.etag
            if etag != watch.etag:
                watch.etag = etag
                watch.changed.set()
                watch.changed = asyncio.Event()

    async def close(self) -> None:
        self.closing.set()
        tasks = [w.task for w in self._watches.values() if w.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._watches.clear()
