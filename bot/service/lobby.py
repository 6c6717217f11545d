"""The lobby: create a table, join, add bots, configure, start."""

from __future__ import annotations

import dataclasses
import logging
import secrets
from collections.abc import Mapping
from typing import Any

from bot.service import compose
from bot.service.compose import note, present
from bot.service.core import (
    _SEAT_SHUFFLE_SALT,
)
from bot.service.decisions import (
    decision_keys,
    next_timers,
)
from bot.service.errors import Refused
from bot.service.levels import check_level, default_level, kind_for, level_of
from bot.service.live import LiveTable
from bot.service.settings import Actor, TableSettings
from bot.service.turns import TurnVerbs
from bot.service.values import TableInfo
from bot.store import (
    SeatRecord,
    TableRecord,
    canonical,
)
from bot.store.health import StorageError
from engine.core import BadOptions, Rng

log = logging.getLogger(__name__)


class LobbyVerbs(TurnVerbs):
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
            ai_level=(check_level(settings.ai_level) if settings.ai_level
                      else default_level(engine)),
            created_at=now, updated_at=now,
        )
        seats = [SeatRecord(0, actor.display, actor.user_id)] if join else []
        live = LiveTable(record, seats, [], engine)
        # The lobby message goes into the outbox with the row itself; the store gives
        # the notes the table's new id.
        try:
            await self.store.create_table(record, seats, self._outbox_rows(live, present([
                note(live, None, "lobby", self._lobby_context(live), slot="status")])))
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

    async def add_bot(self, table_id: int, actor: Actor, *, level: str | None = None,
                      ai_kind: str | None = None, name: str | None = None) -> TableInfo:
        """A bot seat at ``level`` (easy, normal, hard; default: the table's level), or
        with the engine's AI ``ai_kind`` itself (random, greedy, search)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host(live, actor)
            self._require_lobby(live)
            if len(live.seats) >= live.record.max_seats:
                raise Refused("table_full", "This table is full.", max_seats=live.record.max_seats)
            if ai_kind is None:
                ai_kind = kind_for(live.game, check_level(level or live.record.ai_level))
            try:
                live.game.ai(ai_kind)
            except Exception:
                raise Refused("options", f"Unknown AI {ai_kind!r}.", field="ai") from None
            bots = sum(1 for s in live.seats if s.is_bot)
            bot_name = name or f"Bot {bots + 1}"
            seats = [*live.seats,
                     SeatRecord(len(live.seats), bot_name, None, is_bot=True, ai_kind=ai_kind)]
            added_level = level_of(ai_kind)
            await self._save(live, seats=seats, notes=lambda t: [
                note(t, None, "bot_added", {"joined": len(seats) - 1, "joined_name": bot_name,
                                            "level": added_level}),
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
                seat_order=record.seat_order, ai_level=record.ai_level)
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
                timeout_policy=wanted.timeout_policy, seat_order=wanted.seat_order,
                ai_level=check_level(wanted.ai_level) if wanted.ai_level else record.ai_level)
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
                snapshot=canonical(live.game.state_to_json(state)), snapshot_version=1,
            )
            await self._write(
                live, record, seats=seats, timers=timers, state=state,
                expected_version=live.record.version,
                notes=lambda t: [note(t, None, "started", {"order": t.names}),
                                 *self._prompts(t, keys, fresh=set(keys))])
            await self._after_change(live)
            return live.info()
