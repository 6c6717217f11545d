"""What the pages show, read from the store: a table's public state and log, and its
replay. Read-only: nothing here writes a table.

Only public views reach a page: ``game.view(state, None)`` and the log's public texts
and public events (the store keeps no private event). A table is read once per change,
however many people watch it: a read is reused for ``fresh`` seconds, and while one
read is under way every other request for the table waits for it. A replay (every
public state from the seed) is computed once per table version, and extended move by
move as the game goes on.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from bot.service.levels import kind_for, level_of
from bot.service.live import LiveTable
from bot.service.replay import state_now
from bot.service.values import TableInfo
from bot.store import pages
from bot.store.interface import Store
from bot.store.records import ActionRecord, SeatRecord, TableRecord
from engine.core import Game
from engine.core import get_game as registry_get_game

K = TypeVar("K")
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A small least-recently-used map."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def pop(self, key: K) -> None:
        self._items.pop(key, None)

    def __len__(self) -> int:
        return len(self._items)


@dataclass(frozen=True)
class TablePage:
    """One read of a table: everything its page may show, and nothing private."""

    record: TableRecord
    seats: tuple[SeatRecord, ...]
    info: TableInfo
    view: dict[str, Any] | None  # the public view; None in the lobby
    actions: tuple[ActionRecord, ...]
    late_level: str | None  # the level of the AI that plays for a late seat
    bot_levels: dict[int, str | None] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def etag(self) -> str:
        # ``rev`` moves with every write (a seat replaced, a pause), the version only with
        # moves: the page shows both kinds of change.
        return f"{self.record.id}-{self.record.rev}"


@dataclass
class Replay:
    """Every public view of a table, from the setup (version 1) to ``version``; ``state``
    is the engine state at ``version``, to go on from."""

    version: int
    views: list[dict[str, Any]]
    state: Any
    problem: str | None = None


class PageSource:
    def __init__(self, store: Store, *, fresh: float = 0.5, tables: int = 256,
                 replays: int = 8, get_game: Callable[[str], Game[Any]] = registry_get_game,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.fresh = fresh
        self.get_game = get_game
        self._now = monotonic
        self._pages: Lru[int, tuple[float, TablePage]] = Lru(tables)
        self._replays: Lru[int, Replay] = Lru(replays)
        # Weak: a lock lives while someone waits for it, so forged ids cannot grow it.
        self._locks: weakref.WeakValueDictionary[tuple[str, int], asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self.reads = 0  # table reads from the store (the benchmark and tests count them)

    def _lock(self, kind: str, table_id: int) -> asyncio.Lock:
        lock = self._locks.get((kind, table_id))
        if lock is None:
            lock = asyncio.Lock()
            self._locks[(kind, table_id)] = lock
        return lock

    async def page(self, table_id: int, *, fresh: float | None = None) -> TablePage | None:
        """The table as it is (at most ``fresh`` seconds old), or None when there is none."""
        limit = self.fresh if fresh is None else fresh
        cached = self._pages.get(table_id)
        if cached is not None and self._now() - cached[0] < limit:
            return cached[1]
        async with self._lock("page", table_id):
            cached = self._pages.get(table_id)
            if cached is not None and self._now() - cached[0] < limit:
                return cached[1]  # read by the request this one waited for
            return await self._read(table_id, cached[1] if cached else None)

    async def _read(self, table_id: int, old: TablePage | None) -> TablePage | None:
        if old is not None and await pages.table_rev(self.store, table_id) == old.record.rev:
            # Unchanged: one small query, not the table with its snapshot.
            self._pages.put(table_id, (self._now(), old))
            return old
        self.reads += 1
        bundle = await self.store.load_bundle(table_id)
        if bundle is None:
            self._pages.pop(table_id)
            return None
        record, seats, timers = bundle
        if old is not None and old.record.rev == record.rev:
            self._pages.put(table_id, (self._now(), old))
            return old
        added = await self.store.load_actions(table_id, old.version if old else 0)
        actions = (old.actions if old else ()) + tuple(added)
        if actions and actions[-1].version != record.version:
            # A write landed between the two reads (or an old copy's actions do not
            # match): read the whole log again, and keep it to the table as read.
            actions = tuple(a for a in await self.store.load_actions(table_id)
                            if a.version <= record.version)
        page = await asyncio.to_thread(self._build, record, seats, timers, actions)
        self._pages.put(table_id, (self._now(), page))
        return page

    def _build(self, record: TableRecord, seats: list[SeatRecord], timers: Sequence[Any],
               actions: tuple[ActionRecord, ...]) -> TablePage:
        game = self.get_game(record.game)
        state = None
        if record.snapshot is not None:
            state = state_now(game, record, actions)
        live = LiveTable(record, seats, list(timers), game, state)
        view = None if state is None else dict(game.view(state, None))
        late = level_of(kind_for(game, record.ai_level))
        bots = {s.seat: level_of(s.ai_kind) for s in seats if s.is_bot}
        return TablePage(record, tuple(seats), live.info(), view, actions, late, bots)

    async def replay(self, page: TablePage) -> Replay:
        """Every public view of the table up to ``page``'s version."""
        async with self._lock("replay", page.id):
            known = self._replays.get(page.id)
            if known is not None and known.version == page.version:
                return known
            if known is not None and known.version < page.version and known.problem is None:
                self._replays.pop(page.id)  # its state moves on: it is no longer itself
                made = await asyncio.to_thread(self._extend, page, known)
            else:
                made = await asyncio.to_thread(self._replay, page)
            self._replays.put(page.id, made)
            return made

    def _replay(self, page: TablePage) -> Replay:
        if page.record.snapshot is None:
            return Replay(page.version, [], None)
        game = self.get_game(page.record.game)
        state = game.setup(len(page.seats), page.record.options, page.record.seed)
        start = Replay(1, [dict(game.view(state, None))], state)
        return self._extend(page, start)

    def _extend(self, page: TablePage, start: Replay) -> Replay:
        game = self.get_game(page.record.game)
        views, state, version = list(start.views), start.state, start.version
        for record in page.actions:
            if record.version <= version:
                continue
            if record.version != version + 1:
                return Replay(version, views, state, f"gap before version {record.version}")
            try:
                game.apply(state, record.seat, game.action_from_json(record.action))
            except Exception as exc:  # a log that does not replay: show what there is
                return Replay(version, views, state, f"version {record.version}: {exc}")
            version = record.version
            views.append(dict(game.view(state, None)))
        return Replay(version, views, state)

    async def view_at(self, page: TablePage, version: int) -> dict[str, Any] | None:
        """The public view at ``version`` (1: the setup), or None beyond the game."""
        if page.view is None or not 1 <= version <= page.version:
            return None
        if version == page.version:
            return page.view
        replay = await self.replay(page)
        return replay.views[version - 1] if version <= len(replay.views) else None
