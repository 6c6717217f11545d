"""The base every verb module builds on: locks, the table cache, loading, and the one
road every change takes to the database (``_write``: the change and what it owes, in one
transaction) and then to the delivery worker."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from bot.clock import Clock, SystemClock
from bot.history.ratings import rated_game
from bot.service import compose
from bot.service.compose import note, present
from bot.service.delivery import DeliveryWorker
from bot.service.errors import Refused
from bot.service.fill import Filler, RecentStates
from bot.service.levels import kind_for, level_of
from bot.service.live import LiveTable, TableCache
from bot.service.notifications import Notification, Notifier
from bot.service.replay import state_now
from bot.service.scheduler import DeadlineScheduler
from bot.service.settings import Actor
from bot.service.thinking import Thinker
from bot.store import (
    ActionRecord,
    OutboxRow,
    SeatRecord,
    Store,
    TableRecord,
    TimerRecord,
    VersionConflict,
)
from bot.store.health import StorageError
from engine.core import Game
from engine.core import get_game as registry_get_game

log = logging.getLogger(__name__)

Notes = Sequence[Notification | None]
NotesFor = Callable[[LiveTable], Notes]
SWEEP_SECONDS = 30  # how often the sweep job resumes bots and retries owed messages
MAX_ECHO = 200  # of a refused text, at most this much is echoed back

_SEAT_SHUFFLE_SALT = 0x5EA7_0DE5
_AI_SALT = 0xA1_5EED


class StoreCorrupt(RuntimeError):
    pass


class ServiceCore:
    # Built by TableService, which has the job functions and the failure handler.
    deadlines: DeadlineScheduler
    delivery: DeliveryWorker

    def __init__(
        self,
        store: Store,
        notifier: Notifier,
        *,
        clock: Clock | None = None,
        get_game: Callable[[str], Game[Any]] = registry_get_game,
        cache_size: int = 256,
        thinker: Thinker | None = None,
    ) -> None:
        self.store = store
        self.thinker = thinker or Thinker()
        # Per table, the task that plays its bots whose AI thinks in the pool (at most
        # one: it is started and ended under the table's lock).
        self._thinking: dict[int, asyncio.Task[None]] = {}
        self.notifier = notifier
        self.clock: Clock = clock or SystemClock()
        self.get_game = get_game
        # Weak: a table's lock lives while someone holds or waits for it, so forged ids
        # cannot grow the map without bound.
        self._lock_map: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self._cache = TableCache(cache_size)
        # The states the owed messages are made from at send time (``fill``).
        self._recent = RecentStates()
        self._filler = Filler(self._recent, self.get_game, self._state_at, self._table_facts,
                              current=self._current)

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._lock_map.get(table_id)
        if lock is None:
            lock = asyncio.Lock()
            self._lock_map[table_id] = lock
        return lock

    async def _load(self, table_id: int) -> LiveTable:
        live = await self._load_or_none(table_id)
        if live is None:
            raise Refused("no_table", "There is no such table.", table_id=table_id)
        return live

    async def _load_or_none(self, table_id: int) -> LiveTable | None:
        live = await self._cached(table_id, self._cache.get(table_id))
        if live is not None:
            return live
        bundle = await self.store.load_bundle(table_id)
        if bundle is None:
            return None
        record, seats, timers = bundle
        game = self.get_game(record.game)
        state = None
        if record.snapshot is not None:
            state = state_now(game, record, await self._tail(record, record.version))
        live = LiveTable(record, seats, timers, game, state)
        self._cache.put(live)
        return live

    async def _cached(self, table_id: int, live: LiveTable | None) -> LiveTable | None:
        """``live`` when it is still the table (see ``TableCache.checked``), else None."""
        if live is None or not self._cache.checked:
            return live
        if await self.store.table_rev(table_id) == live.record.rev:
            return live
        self._cache.drop(table_id)
        return None

    async def _write(self, live: LiveTable, record: TableRecord, *,
                     seats: list[SeatRecord] | None = None,
                     timers: list[TimerRecord] | None = None,
                     action: ActionRecord | None = None, state: Any = None,
                     expected_version: int | None = None,
                     notes: NotesFor | None = None) -> None:
        """Persist the change and the notifications it owes (``notes``, built from the
        table as it will be) in one transaction; then, only then, update the live table
        and hand the notifications to the delivery worker."""
        record.updated_at = max(record.updated_at, self.clock.now())
        staged = LiveTable(record, live.seats if seats is None else seats,
                           live.timers if timers is None else sorted(timers), live.game,
                           live.state if state is None else state)
        record.bot_turn = self._bot_turn(staged)
        owed = present(notes(staged)) if notes is not None else []
        rows = self._outbox_rows(staged, owed)
        # The save claims the rows it writes for the delivery worker, when it may: one
        # commit an action, not two.
        claim_at = self.delivery.reserve(live.id) if rows else None
        try:
            # Shielded: once the transaction is sent it completes even if the caller is
            # cancelled, so the database never holds half of it.
            claimed = await asyncio.shield(self.store.save(
                record, expected_version=expected_version, seats=seats, timers=timers,
                action=action, outbox=rows,
                ratings=rated_game(live.record, record, staged.seats, action),
                claim_at=claim_at))
        except BaseException as exc:
            if claim_at is not None:
                self.delivery.release(live.id)
            await self._unsaved(live, record, exc)  # raises, unless the write landed
            claimed, claim_at = [], None
        live.record, live.seats, live.timers, live.state = (
            staged.record, staged.seats, staged.timers, staged.state)
        live.moving = False
        if rows:
            # An inline transport sends now, under this lock: what it gave up on for good
            # is handled here, not through a path that would take the lock again.
            for failed, _ in await self.delivery.after_commit(
                    live.id, claimed if claim_at is not None else None, owed):
                if failed.seat is not None and failed.user_id is not None:
                    await self._set_reachable(live, failed.user_id, False)

    async def _unsaved(self, live: LiveTable, record: TableRecord,
                       exc: BaseException) -> None:
        """A save that raised ``exc``: raises the refusal the player reads, or the fault
        as it was; returns when the write landed all the same."""
        self._cache.drop(live.id)
        if isinstance(exc, VersionConflict):
            raise Refused("busy", "The table changed meanwhile; please try again.") from None
        if isinstance(exc, StorageError):
            landed = await self._landed(record, exc)
            if landed is None:
                log.error("table %d: could not save (%s); whether it did is unknown",
                          live.id, exc)
                raise Refused("storage", "The database stopped answering while saving, so "
                              "I cannot tell whether this was saved. Look at the table's log "
                              "before trying again.", fault="unconfirmed") from None
            if not landed:
                # Rolled back whole: the table is as it was, and the player may try again.
                log.error("table %d: could not save (%s)", live.id, exc)
                raise Refused("storage", "I cannot save anything right now (a storage "
                              "problem on the bot's side); nothing was changed. Please try "
                              "again later.", fault=exc.code) from None
            log.warning("table %d: the connection broke at the commit, which landed (%s)",
                        live.id, exc)
            record.rev += 1  # as the store does after a write
            return
        raise exc

    async def _landed(self, record: TableRecord, fault: StorageError) -> bool | None:
        """Did a write that failed land all the same? A connection lost during the
        commit leaves that open (PostgreSQL may have committed); the table's row as it is
        now says: the write bumps ``rev`` by one and writes ``record`` whole, in the same
        transaction as everything else it holds. None when the database cannot be read."""
        if fault.code != "io_error":
            return False  # refused by the database: the transaction was rolled back
        try:
            stored = await self.store.load_table(record.id)
        except StorageError:
            return None
        return (stored is not None and stored.rev == record.rev + 1
                and dataclasses.replace(stored, rev=record.rev) == record)

    def _current(self, table_id: int, version: int) -> LiveTable | None:
        """The cached table when its state in memory is the state of ``version`` (the
        state at a version is the same in every process: no check of ``rev`` needed)."""
        live = self._cache.peek(table_id)
        return live if live is not None and live.state_at(version) is not None else None

    async def _state_at(self, table_id: int, version: int) -> tuple[Game[Any], Any] | None:
        """The table's state at ``version``, read back: its snapshot when the table is
        still there, else its log replayed from the seed (the engine is deterministic)."""
        record = await self.store.load_table(table_id)
        if record is None or record.snapshot is None or version > record.version:
            return None
        game = self.get_game(record.game)
        if record.snapshot_version <= version:
            return game, state_now(game, record, await self._tail(record, version), version)
        seats = await self.store.load_seats(table_id)
        state = game.setup(len(seats), record.options, record.seed)
        for action in await self.store.load_actions(table_id):
            if action.version > version:
                break
            game.apply(state, action.seat, game.action_from_json(action.action))
        return game, state

    async def _tail(self, record: TableRecord, version: int) -> list[ActionRecord]:
        """The log's actions after the table's snapshot, up to ``version``."""
        if record.snapshot_version >= version:
            return []
        return [a for a in await self.store.load_actions(record.id, record.snapshot_version)
                if a.version <= version]

    async def _table_facts(self, table_id: int) -> dict[str, Any] | None:
        """The table's names, status and host as they are now (the cached table, else
        the database), for the messages that go out (``fill.TABLE``)."""
        live = await self._cached(table_id, self._cache.peek(table_id))
        if live is not None:
            return compose.table_facts(live)
        record = await self.store.load_table(table_id)
        if record is None:
            return None
        seats = await self.store.load_seats(table_id)
        return {"names": [s.name for s in seats], "status": record.status,
                "host_id": record.host_id, "game": record.game, "locale": record.locale}

    async def _save(self, live: LiveTable, *, seats: list[SeatRecord] | None = None,
                    timers: list[TimerRecord] | None = None,
                    notes: NotesFor | None = None) -> None:
        await self._write(live, dataclasses.replace(live.record), seats=seats, timers=timers,
                          notes=notes)

    def _outbox_rows(self, live: LiveTable, notes: Sequence[Notification]) -> list[OutboxRow]:
        now = self.clock.now()
        return [OutboxRow(live.id, n.version, n.seat, n.to_json(), due_at=now, created_at=now)
                for n in notes]

    @staticmethod
    def _bot_turn(live: LiveTable) -> bool:
        if live.state is None or live.record.status != "running":
            return False
        waiting = live.game.pending(live.state).waiting
        return any(s < len(live.seats) and live.seats[s].is_bot for s in waiting)

    def _plan(self, live: LiveTable) -> None:
        if live.record.status == "running":
            self.deadlines.plan(live.id, live.record.version, live.timers)
        else:
            self.deadlines.cancel(live.id)

    def _job_current(self, live: LiveTable, version: int) -> bool:
        if live.record.status != "running" or live.record.version != version:
            log.debug("table %d: job for v%d ignored (table at v%d, %s)", live.id, version,
                      live.record.version, live.record.status)
            return False
        return True

    @staticmethod
    def _deadline_seconds(record: TableRecord) -> int | None:
        return record.deadline_seconds if record.timeout_policy == "ai" else None

    def _timeout_ai(self, live: LiveTable) -> str:
        """The AI kind that plays for a late seat (or when the host plays for one): the
        table's level."""
        return kind_for(live.game, live.record.ai_level)

    def _bot_ai(self, live: LiveTable, seat: int) -> str:
        """The AI kind of a bot seat: its own, else the table's level."""
        return live.seats[seat].ai_kind or kind_for(live.game, live.record.ai_level)

    @staticmethod
    def _round(live: LiveTable) -> Any:
        """What a piece of news belongs to: the table's news of one such unit is told in
        one post. A game says it with an optional ``news_key(state)`` (a player's turn
        in Quadropolis and Neotopia); by default it is the public view's ``round`` (the
        simultaneous rounds of Ginkgopolis); None (Skybridge) tells every move."""
        if live.state is None:
            return None
        hook = getattr(live.game, "news_key", None)
        if hook is not None:
            return hook(live.state)
        return live.game.view(live.state, None).get("round")

    def _lobby_context(self, live: LiveTable) -> dict[str, Any]:
        r = live.record
        return {
            "seats": [{"seat": s.seat, "name": s.name, "is_bot": s.is_bot,
                       "level": level_of(s.ai_kind) if s.is_bot else None}
                      for s in live.seats],
            "ai_level": r.ai_level,
            "max_seats": r.max_seats, "min_seats": live.game.min_seats,
            "deadline_seconds": r.deadline_seconds, "timeout_policy": r.timeout_policy,
            "options": r.options, "seat_order": r.seat_order,
        }

    def _options_context(self, live: LiveTable, seat: int) -> dict[str, Any]:
        prompt = compose.prompt_for(live, seat)
        return {
            "current_version": live.record.version,
            "prompt_version": prompt.version,
            "options": [o.to_json() for o in prompt.options],
            "legal": [o.text for o in prompt.options],
        }

    def _require_host(self, live: LiveTable, actor: Actor) -> None:
        if actor.user_id != live.record.host_id and not actor.manages(live.record.guild_id):
            raise Refused("not_host", "Only the host or a server manager may do this.")

    def _require_lobby(self, live: LiveTable) -> None:
        if live.record.status != "lobby":
            raise Refused("not_lobby", "This table has already started.",
                          table_status=live.record.status)

    def _require_running(self, live: LiveTable) -> None:
        if live.record.status == "paused":
            raise Refused("paused", "The table is paused.")
        if live.record.status != "running":
            raise Refused("not_running", "The game is not being played.",
                          table_status=live.record.status)

    def _require_seat(self, live: LiveTable, actor: Actor) -> SeatRecord:
        seat = live.seat_of(actor.user_id)
        if seat is None:
            raise Refused("not_player", "You have no seat at this table.")
        return seat

    def _require_seat_number(self, live: LiveTable, seat: int) -> SeatRecord:
        record = live.seat(seat)
        if record is None:
            raise Refused("no_seat", f"There is no seat {seat}.", seat_number=seat)
        return record

    def _require_turn_seat(self, live: LiveTable, actor: Actor,
                           version: int | None) -> SeatRecord:
        seat = self._require_seat(live, actor)
        self._require_running(live)
        if version is not None and not seat.prompt_version <= version <= live.record.version:
            raise Refused("stale", "The table has moved on since this was shown.",
                          given_version=version, **self._options_context(live, seat.seat))
        return seat

    async def _set_reachable(self, live: LiveTable, user_id: str, reachable: bool) -> None:
        seat = live.seat_of(user_id)
        if seat is None or seat.dm_ok == reachable:
            return
        seats = [dataclasses.replace(s, dm_ok=reachable) if s is seat else s
                 for s in live.seats]
        number = seat.seat
        await self._write(live, dataclasses.replace(live.record), seats=seats,
                          notes=lambda t: [] if reachable else [
                              note(t, None, "dm_unreachable",
                                   {"unreachable_seat": number, "unreachable_user": user_id})])
