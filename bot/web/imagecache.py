"""What the pages render, kept in bounded caches: a board is drawn once per (table,
version, kind, language, names), and a page written once per (table, change, language),
however many people look at it, and never on the event loop.

Bounded by bytes (the least recently used go first); while one rendering is under way,
every other request for the same thing waits for it instead of rendering it again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass

log = logging.getLogger(__name__)

DEFAULT_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Picture:
    """Rendered bytes (an image, a page) and their content type."""

    data: bytes
    content_type: str

    @property
    def etag(self) -> str:
        return '"' + hashlib.blake2b(self.data, digest_size=12).hexdigest() + '"'


class RenderCache:
    def __init__(self, max_bytes: int = DEFAULT_BYTES) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[Hashable, Picture | None] = OrderedDict()
        self._bytes = 0
        self._drawing: dict[Hashable, asyncio.Future[Picture | None]] = {}
        self.drawn = 0  # how many images were drawn (tests and the benchmark count them)

    @property
    def size(self) -> int:
        return self._bytes

    async def get(self, key: Hashable,
                  draw: Callable[[], Awaitable[Picture | None]]) -> Picture | None:
        """The picture for ``key``: from the cache, from a drawing under way, or drawn by
        ``draw`` now. None (no such image) is cached too."""
        if key in self._items:
            self._items.move_to_end(key)
            return self._items[key]
        pending = self._drawing.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Picture | None] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            picture = await draw()
        except BaseException as exc:
            if isinstance(exc, Exception):
                log.exception("drawing %r failed", key)
                future.set_exception(exc)
                future.exception()  # retrieved: nobody may be waiting
            else:
                future.cancel()  # the drawer was cancelled: its waiters are too
            raise
        finally:
            self._drawing.pop(key, None)
        self.drawn += 1
        future.set_result(picture)
        self._keep(key, picture)
        return picture

    def _keep(self, key: Hashable, picture: Picture | None) -> None:
        size = len(picture.data) if picture else 0
        if size > self.max_bytes:
            return
        self._items[key] = picture
        self._bytes += size
        while self._bytes > self.max_bytes and self._items:
            _, old = self._items.popitem(last=False)
            self._bytes -= len(old.data) if old else 0
