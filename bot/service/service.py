"""The table service: lobby, start, actions, bots, deadlines, admin, end of game.

Rules of the house:
- one asyncio.Lock per table; every change happens under it;
- the engine decides what is legal; the service only checks who may ask;
- one accepted action = one store transaction (action + snapshot + version), and the
  notifications are delivered only after that commit;
- a refusal (``Refused``) leaves the table exactly as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.clock import Clock, SystemClock
from bot.service import compose
from bot.service.compose import note, present
from bot.service.decisions import (
    CHANGEABLE,
    decision_keys,
    next_prompt_versions,
    next_timers,
)
from bot.service.delivery import DeliveryWorker
from bot.service.errors import Refused
from bot.service.live import LiveTable, TableCache
from bot.service.notifications import Notification, Notifier
from bot.service.replay import ReplayReport, verify_replay
from bot.service.scheduler import DeadlineScheduler
from bot.service.settings import Actor, TableSettings
from bot.service.values import ActResult, BootReport, LogEntry, Prompt, TableInfo
from bot.store import (
    ActionRecord,
    MenuRecord,
    OutboxRow,
    SeatRecord,
    Store,
    TableRecord,
    TimerRecord,
    VersionConflict,
    canonical,
)
from bot.store.health import StorageError
from bot.store.records import Source, Status
from engine.core import Action, BadOptions, Game, IllegalAction, NotYourTurn, ParseError, Rng
from engine.core import get_game as registry_get_game

log = logging.getLogger(__name__)

Notes = Sequence[Notification | None]
NotesFor = Callable[[LiveTable], Notes]
SWEEP_SECONDS = 30  # how often the sweep job resumes bots and retries owed messages
MAX_ECHO = 200  # of a refused text, at most this much is echoed back

TIMEOUT_AI = "greedy"
BOT_AI = "greedy"
_SEAT_SHUFFLE_SALT = 0x5EA7_0DE5
_AI_SALT = 0xA1_5EED


class StoreCorrupt(RuntimeError):
    pass


class TableService:
    def __init__(
        self,
        store: Store,
        notifier: Notifier,
        *,
        clock: Clock | None = None,
        scheduler: AsyncIOScheduler | None = None,
        get_game: Callable[[str], Game[Any]] = registry_get_game,
        cache_size: int = 256,
    ) -> None:
        self.store = store
        self.notifier = notifier
        self.clock: Clock = clock or SystemClock()
        self.get_game = get_game
        self.deadlines = DeadlineScheduler(
            scheduler, on_deadline=self.on_deadline, on_reminder=self.on_reminder
        )
        # Weak: a table's lock lives while someone holds or waits for it, so forged ids
        # cannot grow the map without bound.
        self._lock_map: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self._cache = TableCache(cache_size)
        self.delivery = DeliveryWorker(store, notifier, self.clock,
                                       on_failed=self._private_failed)

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._lock_map.get(table_id)
        if lock is None:
            lock = asyncio.Lock()
            self._lock_map[table_id] = lock
        return lock

    # ------------------------------------------------------------------ start-up

    async def boot(self, *, verify: bool = False) -> BootReport:
        """Check the database, then rebuild every deadline and reminder job from it.
        With ``verify``, also replay every running table's log (slow; see ``verify``)."""
        problems = await self.store.integrity_check()
        if problems:
            raise StoreCorrupt("; ".join(problems[:5]))
        scheduled = await self.store.scheduled_timers()
        jobs = self.deadlines.plan_all(scheduled)
        running = await self.store.find_tables(statuses=["running"])
        if verify:
            for table in running:
                report = await self.verify(table.id)
                if not report.ok:
                    raise StoreCorrupt(f"table {table.id}: {report.problem}")
        log.info("boot: %d running tables, %d jobs", len(running), jobs)
        await self.sweep()
        return BootReport(tuple(problems), jobs, len(running))

    async def sweep(self) -> None:
        """The periodic job (and the end of the boot): bots that owe a move play it (a
        crash or a failed write may have stopped them), and owed messages that are due
        are sent. Nothing here depends on memory: it all comes from the database."""
        for table_id in await self.store.bot_turn_tables():
            try:
                async with self._lock(table_id):
                    live = await self._load_or_none(table_id)
                    if live is not None:
                        await self._after_change(live)
            except Exception:
                log.exception("table %d: resuming its bots failed", table_id)
        await self.delivery.sweep()

    def start_sweeping(self, scheduler: AsyncIOScheduler) -> None:
        """Run ``sweep`` every ``SWEEP_SECONDS`` and wake retries in real time."""
        self.delivery.timers = True
        scheduler.add_job(self.sweep, "interval", seconds=SWEEP_SECONDS, id="urbanist-sweep",
                          replace_existing=True, coalesce=True, max_instances=1)

    # ------------------------------------------------------------------ lobby

    async def create(
        self,
        actor: Actor,
        game: str,
        *,
        options: Mapping[str, Any] | None = None,
        settings: TableSettings | None = None,
        max_seats: int | None = None,
        guild_id: str | None = None,
        channel_id: str | None = None,
        thread_id: str | None = None,
        seed: int | None = None,
        join: bool = True,
    ) -> TableInfo:
        settings = settings or TableSettings()
        settings.validate()
        try:
            engine = self.get_game(game)
        except KeyError as exc:
            raise Refused("unknown_game", str(exc).strip("'\""), game=game) from None
        merged = {**engine.default_options(), **(options or {})}
        seats_max = engine.max_seats if max_seats is None else max_seats
        if not engine.min_seats <= seats_max <= engine.max_seats:
            raise Refused("options", f"{game} is for {engine.min_seats} to {engine.max_seats} "
                          "players.", field="max_seats")
        try:
            engine.setup(engine.min_seats, merged, 0)  # reject bad options now, not at start
        except BadOptions as exc:
            raise Refused("options", exc.message, field="options") from None
        now = self.clock.now()
        record = TableRecord(
            game=game, options=merged, seed=secrets.randbits(62) if seed is None else seed,
            host_id=actor.user_id, max_seats=seats_max, guild_id=guild_id,
            channel_id=channel_id, thread_id=thread_id, locale=settings.locale,
            deadline_seconds=settings.deadline_seconds, reminders=settings.reminder_offsets(),
            timeout_policy=settings.timeout_policy, seat_order=settings.seat_order,
            created_at=now, updated_at=now,
        )
        seats = [SeatRecord(0, actor.display, actor.user_id)] if join else []
        live = LiveTable(record, seats, [], engine)
        # The lobby message goes into the outbox with the row itself; the store gives
        # the notes the table's new id.
        try:
            await self.store.create_table(record, seats, self._outbox_rows(live, [
                note(live, None, "lobby", self._lobby_context(live), slot="status")]))
        except StorageError as exc:
            raise Refused("storage", "I cannot save anything right now; nothing was "
                          "created. Please try again later.", fault=exc.code) from None
        async with self._lock(record.id):
            self._cache.put(live)
            await self.delivery.after_commit(record.id)
        return live.info()

    async def join(self, table_id: int, actor: Actor) -> TableInfo:
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_lobby(live)
            if live.seat_of(actor.user_id) is not None:
                raise Refused("already_seated", "You already have a seat at this table.")
            if len(live.seats) >= live.record.max_seats:
                raise Refused("table_full", "This table is full.", max_seats=live.record.max_seats)
            seats = [*live.seats, SeatRecord(len(live.seats), actor.display, actor.user_id)]
            seat = len(seats) - 1
            await self._save(live, seats=seats, notes=lambda t: [
                note(t, None, "joined", {"joined": seat, "joined_name": actor.display}),
                note(t, None, "lobby", self._lobby_context(t), slot="status"),
            ])
            return live.info()

    async def add_bot(self, table_id: int, actor: Actor, *, ai_kind: str = BOT_AI,
                      name: str | None = None) -> TableInfo:
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host(live, actor)
            self._require_lobby(live)
            if len(live.seats) >= live.record.max_seats:
                raise Refused("table_full", "This table is full.", max_seats=live.record.max_seats)
            try:
                live.game.ai(ai_kind)
            except Exception:
                raise Refused("options", f"Unknown AI {ai_kind!r}.", field="ai") from None
            bots = sum(1 for s in live.seats if s.is_bot)
            bot_name = name or f"Bot {bots + 1}"
            seats = [*live.seats,
                     SeatRecord(len(live.seats), bot_name, None, is_bot=True, ai_kind=ai_kind)]
            await self._save(live, seats=seats, notes=lambda t: [
                note(t, None, "bot_added", {"joined": len(seats) - 1, "joined_name": bot_name}),
                note(t, None, "lobby", self._lobby_context(t), slot="status"),
            ])
            return live.info()

    async def configure(self, table_id: int, actor: Actor, *,
                        settings: TableSettings | None = None,
                        options: Mapping[str, Any] | None = None,
                        max_seats: int | None = None, locale: str | None = None) -> TableInfo:
        """Host or manager, in the lobby: change how the table will be run. ``settings``
        replaces the run settings (build it from ``TableInfo.settings``); ``options`` are
        game options changed over the current ones; ``locale`` changes only the language
        (over ``settings``). The engine validates the options. When nothing actually
        changes: no write, no notification."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host(live, actor)
            self._require_lobby(live)
            record = live.record
            wanted = settings or TableSettings.stored(
                deadline_seconds=record.deadline_seconds, reminders=record.reminders,
                timeout_policy=record.timeout_policy, locale=record.locale,
                seat_order=record.seat_order)
            if locale is not None:
                wanted = dataclasses.replace(wanted, locale=locale)
            wanted.validate()
            seats_max = record.max_seats if max_seats is None else max_seats
            self._check_max_seats(live, seats_max)
            merged = {**record.options, **(options or {})}
            if options:
                self._check_options(live, merged, seats_max)
            new = dataclasses.replace(
                record, options=merged, max_seats=seats_max, locale=wanted.locale,
                deadline_seconds=wanted.deadline_seconds, reminders=wanted.reminder_offsets(),
                timeout_policy=wanted.timeout_policy, seat_order=wanted.seat_order)
            changes = compose.settings_changes(record, new)
            if not changes:
                return live.info()
            await self._write(live, new, notes=lambda t: [
                note(t, None, "configured", {"by": actor.display, "changes": changes,
                                             **self._lobby_context(t)}),
                note(t, None, "lobby", self._lobby_context(t), slot="status"),
            ])
            return live.info()

    def _check_max_seats(self, live: LiveTable, seats_max: int) -> None:
        game = live.game
        if not game.min_seats <= seats_max <= game.max_seats:
            raise Refused("options", f"{live.record.game} is for {game.min_seats} to "
                          f"{game.max_seats} players.", field="max_seats")
        if seats_max < len(live.seats):
            raise Refused("options", f"{len(live.seats)} seats are taken already.",
                          field="max_seats")

    def _check_options(self, live: LiveTable, options: Mapping[str, Any],
                       seats_max: int) -> None:
        """A dry ``setup`` for the seats taken (at least the game's minimum, so that the
        engine judges the options, not an unfinished lobby). ``start`` asks again for
        the seats there are then."""
        game = live.game
        seats = min(max(len(live.seats), game.min_seats), seats_max)
        try:
            game.setup(seats, options, live.record.seed)
        except BadOptions as exc:
            raise Refused("options", exc.message, field="options") from None

    async def leave(self, table_id: int, actor: Actor) -> TableInfo:
        """In the lobby the seat goes away; during a game a bot takes it over, so the
        others can finish. The host role passes to the first human left."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            seat = self._require_seat(live, actor)
            if live.record.status == "lobby":
                await self._remove_seat(live, seat.seat, template="left")
            elif live.record.status in ("running", "paused"):
                await self._botify(live, seat.seat, template="left")
            else:
                raise Refused("not_running", "This game is over.")
            return live.info()

    async def kick(self, table_id: int, actor: Actor, seat: int) -> TableInfo:
        """Host or manager: in the lobby the seat is removed; in a game a bot takes it."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host(live, actor)
            self._require_seat_number(live, seat)
            if live.record.status == "lobby":
                await self._remove_seat(live, seat, template="kicked")
            elif live.record.status in ("running", "paused"):
                await self._botify(live, seat, template="kicked")
            else:
                raise Refused("not_running", "This game is over.")
            return live.info()

    async def replace(self, table_id: int, actor: Actor, seat: int,
                      by: Actor | None = None) -> TableInfo:
        """Host or manager: give ``seat`` to another member (``by``) or, with None, to a bot."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host(live, actor)
            self._require_seat_number(live, seat)
            if live.record.status in ("finished", "aborted"):
                raise Refused("not_running", "This game is over.")
            if by is None:
                await self._botify(live, seat, template="replaced")
                return live.info()
            if live.seat_of(by.user_id) is not None:
                raise Refused("already_seated", f"{by.display} already has a seat here.")
            old = live.seats[seat]
            seats = [
                dataclasses.replace(s, user_id=by.user_id, name=by.display, is_bot=False,
                                    ai_kind=None, dm_ok=True)
                if s.seat == seat else s
                for s in live.seats
            ]
            timers = live.timers
            if old.is_bot and live.state is not None and live.record.status == "running":
                timers = self._timers_for_new_human(live, seat)
            def notes(t: LiveTable) -> Notes:
                made = [note(t, None, "replaced", {"left": seat, "left_name": old.name,
                                                    "new_name": by.display,
                                                    "bot_took_over": False})]
                if (t.state is not None and t.record.status == "running"
                        and seat in t.game.pending(t.state).waiting):
                    made.append(compose.your_turn(t, seat))
                return made

            await self._save(live, seats=seats, timers=timers, notes=notes)
            self._plan(live)
            return live.info()

    async def start(self, table_id: int, actor: Actor) -> TableInfo:
        """Seats are shuffled with the table's seed (or kept in join order when the table
        says ``seat_order="join"``); the engine then decides who plays first."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host(live, actor)
            self._require_lobby(live)
            n = len(live.seats)
            if n < live.game.min_seats:
                raise Refused("too_few", f"{live.record.game} needs at least "
                              f"{live.game.min_seats} players.", min_seats=live.game.min_seats,
                              seats=n)
            order = list(live.seats)
            if live.record.seat_order == "shuffle":
                Rng.from_seed(live.record.seed ^ _SEAT_SHUFFLE_SALT).shuffle(order)
            seats = [dataclasses.replace(s, seat=i, prompt_version=1) for i, s in enumerate(order)]
            try:
                state = live.game.setup(n, live.record.options, live.record.seed)
            except BadOptions as exc:
                raise Refused("options", exc.message, field="options") from None
            now = self.clock.now()
            keys = decision_keys(live.game, state)
            timers = next_timers(old=[], before={}, after=keys, actor=None, seats=seats, now=now,
                                 deadline_seconds=self._deadline_seconds(live.record),
                                 reminder_offsets=live.record.reminders)
            record = dataclasses.replace(
                live.record, status="running", version=1, updated_at=now,
                snapshot=canonical(live.game.state_to_json(state)),
            )
            await self._write(
                live, record, seats=seats, timers=timers, state=state,
                expected_version=live.record.version,
                notes=lambda t: [note(t, None, "started", {"order": t.names}),
                                 *self._prompts(t, keys, fresh=set(keys))])
            await self._after_change(live)
            return live.info()

    # ------------------------------------------------------------------ play

    async def act(self, table_id: int, actor: Actor, action: Mapping[str, Any], *,
                  version: int | None) -> ActResult:
        """Apply an action given in its JSON form (a button, a select). ``version`` is the
        table version the button was built for (``Prompt.version``); None skips the check
        (only for front ends that read the action against the current state)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            seat = self._require_turn_seat(live, actor, version)
            try:
                parsed = live.game.action_from_json(action)
            except Exception:
                raise Refused("forged", "That is not an action of this game.",
                              **self._options_context(live, seat.seat)) from None
            return await self._act(live, seat, parsed, actor)

    async def act_text(self, table_id: int, actor: Actor, text: str, *,
                       version: int | None = None) -> ActResult:
        """Apply an action typed in the engine's text form."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            seat = self._require_turn_seat(live, actor, version)
            if not live.game.legal_actions(live.state, seat.seat):
                raise Refused("not_your_turn", "You have nothing to decide right now.")
            try:
                parsed = live.game.parse_action(live.state, seat.seat, text)
            except (ParseError, IllegalAction) as exc:
                code = "parse" if isinstance(exc, ParseError) else "illegal"
                # The engine's own code and values, so a template can say why in any
                # language (a message too long, a card not in hand...).
                raise Refused(code, exc.message, typed=text[:MAX_ECHO], reason=exc.code,
                              reason_params=dict(exc.params),
                              **self._options_context(live, seat.seat)) from None
            return await self._act(live, seat, parsed, actor)

    async def play_for(self, table_id: int, actor: Actor, seat: int) -> ActResult:
        """Host or manager: let the AI make the seat's current decision now (source=admin)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host(live, actor)
            self._require_running(live)
            target = self._require_seat_number(live, seat)
            if not live.game.legal_actions(live.state, seat):
                raise Refused("not_your_turn", f"{target.name} has nothing to decide now.")
            action = self._ai_choice(live, seat, TIMEOUT_AI)
            await self._commit(live, seat, action, "admin", actor.user_id,
                               extra=lambda t: [note(t, seat, "timeout_played",
                                                     {"played": action.text(),
                                                      "by_admin": True})])
            await self._after_change(live)
            return ActResult(live.id, seat, live.record.version, action.text(),
                             live.record.status == "finished")

    # ------------------------------------------------------------------ admin

    async def pause(self, table_id: int, actor: Actor) -> TableInfo:
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host(live, actor)
            self._require_running(live)
            record = dataclasses.replace(live.record, status="paused",
                                         paused_at=self.clock.now())
            await self._write(live, record, notes=lambda t: [
                note(t, None, "paused", {"by": actor.display})])
            self.deadlines.cancel(live.id)
            return live.info()

    async def resume(self, table_id: int, actor: Actor) -> TableInfo:
        """Deadlines move on by the time spent paused: nobody loses time to a pause."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host(live, actor)
            if live.record.status != "paused":
                raise Refused("not_running", "This table is not paused.")
            now = self.clock.now()
            shift = now - (live.record.paused_at or now)
            timers = [dataclasses.replace(t, due_at=t.due_at + shift) for t in live.timers]
            record = dataclasses.replace(live.record, status="running", paused_at=None,
                                         updated_at=now)
            await self._write(live, record, timers=timers, notes=lambda t: [
                note(t, None, "resumed", {"by": actor.display}), compose.waiting_status(t)])
            await self._after_change(live)
            return live.info()

    async def extend(self, table_id: int, actor: Actor, seconds: int,
                     seat: int | None = None) -> TableInfo:
        """Host or manager: push the deadline (and the reminders still due) of every seat
        that has to act, or of one seat, by ``seconds``."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host(live, actor)
            if live.record.status not in ("running", "paused"):
                raise Refused("not_running", "This game is not being played.")
            if seconds <= 0:
                raise Refused("options", "Extend by a positive time.", field="seconds")
            if seat is not None:
                self._require_seat_number(live, seat)
            timers = [
                dataclasses.replace(t, due_at=t.due_at + seconds)
                if seat is None or t.seat == seat else t
                for t in live.timers
            ]
            await self._write(live, dataclasses.replace(live.record), timers=timers,
                              notes=lambda t: [
                                  note(t, None, "extended", {"by": actor.display,
                                                             "seconds": seconds,
                                                             "extended_seat": seat}),
                                  compose.waiting_status(t)])
            self._plan(live)
            return live.info()

    async def abort(self, table_id: int, actor: Actor) -> TableInfo:
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host(live, actor)
            if live.record.status in ("finished", "aborted"):
                raise Refused("not_running", "This table has already ended.")
            record = dataclasses.replace(live.record, status="aborted")
            await self._write(live, record, timers=[], notes=lambda t: [
                note(t, None, "aborted", {"by": actor.display}, slot="status")])
            self.deadlines.cancel(live.id)
            return live.info()

    async def set_dm_reachable(self, table_id: int, user_id: str, reachable: bool) -> None:
        """A front end reports that a user's private messages fail (or work again). When
        they fail, the player is told in the table's channel to use ``/hand``; the
        game never waits on a private message."""
        async with self._lock(table_id):
            await self._set_reachable(await self._load(table_id), user_id, reachable)

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

    async def _private_failed(self, failed: Notification, error: str) -> None:
        """The delivery worker gave up on a private message: whatever the reason, the
        seat is marked unreachable and told in the channel (once) to use ``/hand``."""
        if failed.seat is None or failed.user_id is None:
            return
        with contextlib.suppress(Refused):  # the table is gone: nobody to tell
            await self.set_dm_reachable(failed.table_id, failed.user_id, False)

    async def set_status_message(self, table_id: int, channel_id: str | None,
                                 message_id: str | None) -> None:
        """A front end records where it shows the table's status (any table status), so
        that after a restart it edits the same message. Not part of the game: the
        version does not move and nobody is told."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            record = live.record
            if (record.status_channel_id, record.status_message_id) == (channel_id, message_id):
                return
            await self._write(live, dataclasses.replace(
                record, status_channel_id=channel_id, status_message_id=message_id))

    # ------------------------------------------------------------------ menus

    async def record_menu(self, table_id: int, seat: int, prompt_version: int,
                          channel_id: str, message_id: str) -> None:
        """A front end shows a seat's menu for the decision opened at ``prompt_version``
        in a message it can edit later: kept, so the menu is disabled when it closes."""
        await self.store.record_menu(MenuRecord(table_id, seat, prompt_version, channel_id,
                                                message_id))

    async def closed_menus(self, table_id: int) -> list[MenuRecord]:
        """The recorded menus whose decision has closed (all of them once the game is
        over), forgotten as they are returned: the front end disables them."""
        info = await self.info(table_id)
        closed: list[MenuRecord] = []
        for seat in info.seats:
            current = info.prompt_versions.get(seat.seat) if info.status == "running" else None
            closed += await self.store.take_menus(table_id, seat.seat, current)
        return closed

    # ------------------------------------------------------------------ queries

    async def info(self, table_id: int) -> TableInfo:
        async with self._lock(table_id):
            return (await self._load(table_id)).info()

    async def table_in_channel(self, channel_id: str, *, ended: bool = False) -> TableInfo | None:
        """The newest table of a channel or thread that has not ended; with ``ended``, when
        there is none, the newest that has (to read a finished table's log or board)."""
        tables = await self.store.find_tables(channel_id=channel_id,
                                              statuses=["lobby", "running", "paused"])
        if not tables and ended:
            tables = await self.store.find_tables(channel_id=channel_id)
        return await self.info(tables[-1].id) if tables else None

    async def tables_of(self, user_id: str, *, active: bool = True) -> list[TableInfo]:
        statuses: list[Status] | None = ["lobby", "running", "paused"] if active else None
        tables = await self.store.find_tables(user_id=user_id, statuses=statuses)
        return [await self.info(t.id) for t in tables]

    async def view(self, table_id: int, actor: Actor | None = None) -> dict[str, Any]:
        """The public view, or the actor's own view when the actor holds a seat."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            if live.state is None:
                raise Refused("not_running", "The game has not started.")
            seat = live.seat_of(actor.user_id) if actor else None
            return live.game.view(live.state, None if seat is None else seat.seat)

    async def prompt(self, table_id: int, actor: Actor) -> Prompt:
        async with self._lock(table_id):
            live = await self._load(table_id)
            seat = self._require_seat(live, actor)
            return compose.prompt_for(live, seat.seat)

    async def hand(self, table_id: int, actor: Actor) -> Notification:
        """The actor's private situation (view, options, deadline) as a notification to
        show however the front end can (an ephemeral reply when DMs are closed)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            seat = self._require_seat(live, actor)
            if live.state is None:
                raise Refused("not_running", "The game has not started.")
            made = compose.your_turn(live, seat.seat, template="hand")
            assert made is not None
            return made

    async def log(self, table_id: int) -> list[LogEntry]:
        """The public log: secret choices appear without their content."""
        async with self._lock(table_id):
            live = await self._load(table_id)
        actions = await self.store.load_actions(table_id)
        return [
            LogEntry(a.version, a.seat, live.names[a.seat] if a.seat < len(live.names) else "?",
                     a.source, a.public_text, a.at, tuple(a.events))
            for a in actions
        ]

    async def verify(self, table_id: int) -> ReplayReport:
        """Replay the table's log from its seed and compare with the stored snapshot."""
        async with self._lock(table_id):
            record = await self.store.load_table(table_id)
            if record is None:
                raise Refused("no_table", "There is no such table.", table_id=table_id)
            seats = await self.store.load_seats(table_id)
            actions = await self.store.load_actions(table_id)
        return verify_replay(self.get_game(record.game), record, len(seats), actions)

    # ------------------------------------------------------------------ jobs

    async def on_deadline(self, table_id: int, version: int) -> None:
        """Job function: the AI plays for every seat whose deadline has passed (source
        timeout), as long as the table is still at ``version``."""
        async with self._lock(table_id):
            live = await self._load_or_none(table_id)
            if live is None or not self._job_current(live, version):
                return
            now = self.clock.now()
            while live.record.status == "running":
                waiting = live.game.pending(live.state).waiting
                late = sorted(t.seat for t in live.timers
                              if t.kind == "deadline" and t.due_at <= now and t.seat in waiting)
                if not late:
                    break
                await self._play_late(live, late[0])
            await self._after_change(live)

    async def _play_late(self, live: LiveTable, seat: int) -> None:
        action = self._ai_choice(live, seat, TIMEOUT_AI)
        await self._commit(live, seat, action, "timeout", None, extra=lambda t: [
            note(t, seat, "timeout_played", {"played": action.text(), "by_admin": False})])

    async def on_reminder(self, table_id: int, version: int) -> None:
        """Job function: remind the seats that still have to act and whose reminder is due."""
        async with self._lock(table_id):
            live = await self._load_or_none(table_id)
            if live is None or not self._job_current(live, version):
                return
            now = self.clock.now()
            due = [t for t in live.timers if t.kind == "reminder" and t.due_at <= now]
            if not due:
                self._plan(live)
                return
            waiting = live.game.pending(live.state).waiting
            seats = sorted({t.seat for t in due if t.seat in waiting})
            timers = [t for t in live.timers if t not in due]
            await self._write(live, dataclasses.replace(live.record), timers=timers,
                              expected_version=live.record.version,
                              notes=lambda t: [compose.your_turn(t, s, template="reminder")
                                               for s in seats])
            self._plan(live)

    # ------------------------------------------------------------------ internals

    async def _act(self, live: LiveTable, seat: SeatRecord, action: Action,
                   actor: Actor) -> ActResult:
        try:
            legal = live.game.legal_actions(live.state, seat.seat)
            if not legal:
                raise NotYourTurn("You have nothing to decide right now.")
            if action not in legal:
                raise self._why_illegal(live, seat.seat, action)
            await self._commit(live, seat.seat, action, "player", actor.user_id)
        except VersionConflict:
            # Another process wrote this table meanwhile (the lock is per process); the
            # cache is dropped, so a retry sees the new state.
            raise Refused("busy", "The table changed meanwhile; please try again.") from None
        except NotYourTurn as exc:
            raise Refused("not_your_turn", exc.message) from None
        except IllegalAction as exc:
            # The engine's code and values let a template explain in any language.
            raise Refused("illegal", exc.message, typed=action.text(), reason=exc.code,
                          reason_params=dict(exc.params),
                          **self._options_context(live, seat.seat)) from None
        text = action.text()
        await self._after_change(live)
        return ActResult(live.id, seat.seat, live.record.version, text,
                         live.record.status == "finished")

    @staticmethod
    def _why_illegal(live: LiveTable, seat: int, action: Action) -> IllegalAction:
        """The engine's own reason for refusing ``action`` (its code and values, which a
        template explains in any language), asked of a copy of the state: the legal list
        has the last word, even where the engine would have let the action through."""
        copy = live.game.state_from_json(live.game.state_to_json(live.state))
        try:
            live.game.apply(copy, seat, action)
        except IllegalAction as exc:
            return exc
        except NotYourTurn as exc:
            return IllegalAction(exc.message, code="not_your_turn")
        return IllegalAction(f"{action.text()} is not possible now.")

    async def _commit(self, live: LiveTable, seat: int, action: Action, source: Source,
                      actor_id: str | None, *, extra: NotesFor | None = None) -> None:
        """Apply one action and make it durable, with the notifications it owes (and
        ``extra`` ones) in the same transaction. Raises IllegalAction/NotYourTurn with
        the state untouched (the engine's promise)."""
        game, state, old = live.game, live.state, live.record
        before_pending = game.pending(state)
        before = decision_keys(game, state)
        round_before = self._round(live)
        events = game.apply(state, seat, action)
        try:
            now = self.clock.now()
            version = old.version + 1
            after = decision_keys(game, state)
            outcome = game.outcome(state)
            finished = outcome is not None
            seats = next_prompt_versions(live.seats, before, after, seat, version)
            timers = [] if finished else next_timers(
                old=live.timers, before=before, after=after, actor=seat, seats=seats, now=now,
                deadline_seconds=self._deadline_seconds(old),
                reminder_offsets=old.reminders)
            # A simultaneous choice stays secret in the public log; a sequential one is public.
            public_text = None if before_pending.simultaneous else action.text()
            public_events = [e.to_json() for e in events if e.to is None]
            record = dataclasses.replace(
                old, version=version, updated_at=now,
                snapshot=canonical(game.state_to_json(state)),
                status="finished" if finished else old.status,
                outcome=outcome.to_json() if outcome is not None else None,
            )
            entry = ActionRecord(old.id, version, seat, dict(action.to_json()), source, now,
                                 actor_id, public_text, public_events)

            def notes(t: LiveTable) -> Notes:
                made = self._notes_after(t, seat, source, public_text, events, before, after,
                                         round_before)
                return [*made, *(extra(t) if extra is not None else [])]

            await self._write(live, record, seats=seats, timers=timers, action=entry,
                              expected_version=old.version, state=state, notes=notes)
        except BaseException:
            # The engine state in memory has moved but the database may not have: forget
            # it, the next request reloads what was committed.
            self._cache.drop(live.id)
            raise
        log.info("table %d v%d: seat %d acted (%s)", live.id, version, seat, source)

    def _notes_after(self, live: LiveTable, seat: int, source: Source, public_text: str | None,
                     events: Sequence[Any], before: Mapping[int, str],
                     after: Mapping[int, str], round_before: Any) -> list[Notification]:
        news: list[Notification | None] = []
        # A secret step is never announced one by one (it would tell how many steps a
        # player took); the round's news and the status message say what may be said.
        # A late player is the exception: the table must read that the AI played.
        if public_text is not None or source in ("timeout", "admin"):
            news.append(note(live, None, "acted", {
                "actor": seat, "actor_name": live.names[seat], "source": source,
                "text": public_text, "secret": public_text is None}))
        secret_step = public_text is None and source == "player"
        for event_note in compose.event_notes(live, events):
            if secret_step and event_note.seat == seat:
                # What a player's own secret step did, told back to them: a front end
                # that answered the click already may skip it (``quiet``).
                event_note = dataclasses.replace(
                    event_note, context={**event_note.context, "quiet": True})
            news.append(event_note)
        if live.record.status == "finished":
            return present([*news, compose.game_over(live)])
        notes = list(news)
        if after.get(seat) == CHANGEABLE and source == "player":
            prompt = compose.prompt_for(live, seat)
            # Kept for front ends that cannot answer the click itself (the console):
            # ``quiet`` lets one that did (Discord) skip the private message.
            notes.append(note(live, seat, "submitted", {**compose.prompt_context(prompt),
                                                         "quiet": True}))
        fresh = {s for s in after if live.seats[s].prompt_version == live.record.version}
        notes += self._prompts(live, after, fresh=fresh)
        # What a round still going on tells (the table's news, who is awaited, a seat's
        # private news) may wait for the round's end or for the seat's next decision,
        # so that a round costs one post, one status edit and one DM per decision. A
        # decision itself never waits.
        # A late seat played by the AI is told at once: the table should know.
        if (round_before is not None and self._round(live) == round_before
                and source not in ("timeout", "admin")):
            notes = [dataclasses.replace(n, defer=True)
                     if n is not None and (n.seat is None or n.template.startswith("event_"))
                     else n for n in notes]
        return present(notes)

    @staticmethod
    def _round(live: LiveTable) -> Any:
        """The public view's round (None for a game without rounds)."""
        if live.state is None:
            return None
        return live.game.view(live.state, None).get("round")

    def _prompts(self, live: LiveTable, keys: Mapping[int, str],
                 fresh: set[int]) -> list[Notification]:
        notes: list[Notification | None] = []
        opened = [s for s in sorted(fresh) if keys.get(s) not in (None, CHANGEABLE)]
        for s in opened:
            notes.append(compose.your_turn(live, s))
        if opened:
            notes.append(compose.waiting_status(live))
        return present(notes)

    async def _after_change(self, live: LiveTable) -> None:
        """Let bot seats play whatever they have to, then plan the table's jobs.

        The change that called this is committed already: a bot move that fails (a
        full disk, another process) must not turn it into an error for the player.
        The table keeps ``bot_turn`` set in the database, so the sweep (every
        ``SWEEP_SECONDS``, and at boot) makes the bot play later."""
        try:
            while live.record.status == "running":
                waiting = live.game.pending(live.state).waiting
                bots = [s for s in sorted(waiting) if live.seats[s].is_bot]
                if not bots:
                    break
                seat = bots[0]
                action = self._ai_choice(live, seat, live.seats[seat].ai_kind or BOT_AI)
                await self._commit(live, seat, action, "bot", None)
                await asyncio.sleep(0)  # a game of bots must not starve the other tables
        except Refused as exc:
            log.warning("table %d: a bot could not play now (%s); the sweep resumes it",
                        live.id, exc)
            self._cache.drop(live.id)
            return
        self._plan(live)

    def _ai_choice(self, live: LiveTable, seat: int, kind: str) -> Action:
        # Seeded from the table and version: reruns give the same choice, tables differ.
        rng = Rng.from_seed(live.record.seed ^ _AI_SALT ^ (live.record.version << 20) ^ seat)
        legal = live.game.legal_actions(live.state, seat)
        try:
            action = live.game.ai(kind).choose(live.state, seat, rng)
        except Exception:
            log.exception("table %d: AI %s failed for seat %d", live.id, kind, seat)
            return legal[0]
        if action not in legal:
            log.error("table %d: AI %s chose an illegal action for seat %d", live.id, kind, seat)
            return legal[0]
        return action

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

    def _outbox_rows(self, live: LiveTable, notes: Notes) -> list[OutboxRow]:
        now = self.clock.now()
        return [OutboxRow(live.id, n.version, n.seat, n.to_json(), due_at=now, created_at=now)
                for n in present(notes)]

    async def _load(self, table_id: int) -> LiveTable:
        live = await self._load_or_none(table_id)
        if live is None:
            raise Refused("no_table", "There is no such table.", table_id=table_id)
        return live

    async def _load_or_none(self, table_id: int) -> LiveTable | None:
        live = self._cache.get(table_id)
        if live is not None:
            return live
        bundle = await self.store.load_bundle(table_id)
        if bundle is None:
            return None
        record, seats, timers = bundle
        game = self.get_game(record.game)
        state = None
        if record.snapshot is not None:
            state = game.state_from_json(json.loads(record.snapshot))
        live = LiveTable(record, seats, timers, game, state)
        self._cache.put(live)
        return live

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
        rows = self._outbox_rows(staged, notes(staged)) if notes is not None else []
        try:
            # Shielded: once the transaction is sent it completes even if the caller is
            # cancelled, so the database never holds half of it.
            await asyncio.shield(self.store.save(
                record, expected_version=expected_version, seats=seats, timers=timers,
                action=action, outbox=rows))
        except VersionConflict:
            self._cache.drop(live.id)
            raise Refused("busy", "The table changed meanwhile; please try again.") from None
        except StorageError as exc:
            # Rolled back whole: the table is as it was, and the player may try again.
            self._cache.drop(live.id)
            log.error("table %d: could not save (%s)", live.id, exc)
            raise Refused("storage", "I cannot save anything right now (a storage problem "
                          "on the bot's side); nothing was changed. Please try again later.",
                          fault=exc.code) from None
        except BaseException:
            self._cache.drop(live.id)
            raise
        live.record, live.seats, live.timers, live.state = (
            staged.record, staged.seats, staged.timers, staged.state)
        if rows:
            # An inline transport sends now, under this lock: what it gave up on for good
            # is handled here, not through a path that would take the lock again.
            for failed, _ in await self.delivery.after_commit(live.id):
                if failed.seat is not None and failed.user_id is not None:
                    await self._set_reachable(live, failed.user_id, False)

    @staticmethod
    def _bot_turn(live: LiveTable) -> bool:
        if live.state is None or live.record.status != "running":
            return False
        waiting = live.game.pending(live.state).waiting
        return any(s < len(live.seats) and live.seats[s].is_bot for s in waiting)

    async def _save(self, live: LiveTable, *, seats: list[SeatRecord] | None = None,
                    timers: list[TimerRecord] | None = None,
                    notes: NotesFor | None = None) -> None:
        await self._write(live, dataclasses.replace(live.record), seats=seats, timers=timers,
                          notes=notes)

    async def _remove_seat(self, live: LiveTable, seat: int, *, template: str) -> None:
        removed = live.seats[seat]
        seats = [dataclasses.replace(s, seat=i)
                 for i, s in enumerate(s for s in live.seats if s.seat != seat)]
        record = dataclasses.replace(live.record)
        if removed.user_id == record.host_id:
            humans = [s for s in seats if not s.is_bot and s.user_id]
            if humans:
                assert humans[0].user_id is not None
                record.host_id = humans[0].user_id
            else:
                record.status = "aborted"
        def notes(t: LiveTable) -> Notes:
            made = [note(t, None, template, {"left": seat, "left_name": removed.name,
                                             "new_name": None, "bot_took_over": False})]
            if record.status == "aborted":
                made.append(note(t, None, "aborted", {"by": removed.name}, slot="status"))
            else:
                made.append(note(t, None, "lobby", self._lobby_context(t), slot="status"))
            return made

        await self._write(live, record, seats=seats, notes=notes)

    async def _botify(self, live: LiveTable, seat: int, *, template: str) -> None:
        old = live.seats[seat]
        if old.is_bot:
            return
        seats = [dataclasses.replace(s, user_id=None, is_bot=True, ai_kind=BOT_AI)
                 if s.seat == seat else s for s in live.seats]
        record = dataclasses.replace(live.record)
        if old.user_id == record.host_id:
            humans = [s for s in seats if not s.is_bot and s.user_id]
            if humans:
                assert humans[0].user_id is not None
                record.host_id = humans[0].user_id
        timers = [t for t in live.timers if t.seat != seat]
        await self._write(live, record, seats=seats, timers=timers, notes=lambda t: [
            note(t, None, template, {"left": seat, "left_name": old.name, "new_name": None,
                                     "bot_took_over": True})])
        if live.record.status == "running":
            await self._after_change(live)

    def _timers_for_new_human(self, live: LiveTable, seat: int) -> list[TimerRecord]:
        from bot.service.decisions import fresh_timers

        deadline = self._deadline_seconds(live.record)
        timers = [t for t in live.timers if t.seat != seat]
        if deadline is not None and seat in live.game.pending(live.state).waiting:
            timers += fresh_timers(seat, self.clock.now(), deadline, live.record.reminders)
        return sorted(timers)

    @staticmethod
    def _deadline_seconds(record: TableRecord) -> int | None:
        return record.deadline_seconds if record.timeout_policy == "ai" else None

    def _lobby_context(self, live: LiveTable) -> dict[str, Any]:
        r = live.record
        return {
            "seats": [{"seat": s.seat, "name": s.name, "is_bot": s.is_bot} for s in live.seats],
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

    # -- permission checks: each raises Refused -----------------------------------

    def _require_host(self, live: LiveTable, actor: Actor) -> None:
        if actor.user_id != live.record.host_id and not actor.manager:
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
