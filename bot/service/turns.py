"""The one road every move takes: judged by the engine, committed with what it owes
players, then the bots' replies."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.service import compose
from bot.service.compose import note, present
from bot.service.core import (
    _AI_SALT,
    Notes,
    NotesFor,
)
from bot.service.decisions import (
    CHANGEABLE,
    decision_keys,
    next_prompt_versions,
    next_timers,
)
from bot.service.errors import Refused
from bot.service.fill import OPTIONS, copy_of
from bot.service.levels import kind_for, level_of
from bot.service.live import LiveTable
from bot.service.notifications import Notification
from bot.service.queries import Queries
from bot.service.replay import snapshot_due
from bot.service.settings import Actor
from bot.service.thinking import ThinkJob
from bot.service.values import ActResult
from bot.store import (
    ActionRecord,
    SeatRecord,
    VersionConflict,
    canonical,
)
from bot.store.records import Source
from engine.core import Action, IllegalAction, NotYourTurn, Rng

log = logging.getLogger(__name__)


async def _reacquire(lock: asyncio.Lock) -> None:
    """Take back a lock the caller's ``async with`` will release, even when cancelled
    meanwhile (the cancellation is raised once the lock is held again)."""
    acquiring = asyncio.ensure_future(lock.acquire())
    try:
        await asyncio.shield(acquiring)
    except asyncio.CancelledError:
        await acquiring
        raise


class TurnVerbs(Queries):
    async def _act(self, live: LiveTable, seat: SeatRecord, action: Action,
                   actor: Actor, *, in_place: bool = False) -> ActResult:
        try:
            legal = live.game.legal_actions(live.state, seat.seat)
            if not legal:
                raise NotYourTurn("You have nothing to decide right now.")
            if action not in legal:
                raise self._why_illegal(live, seat.seat, action)
            action_note = compose.action_note(live, seat.seat, action)
            next_in_place = await self._commit(live, seat.seat, action, "player",
                                               actor.user_id, in_place=in_place)
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
                         live.record.status == "finished", next_in_place, action_note)

    @staticmethod
    def _why_illegal(live: LiveTable, seat: int, action: Action) -> IllegalAction:
        """The engine's own reason for refusing ``action`` (its code and values, which a
        template explains in any language), asked of a copy of the state: the legal list
        has the last word, even where the engine would have let the action through."""
        copy = live.game.state_from_json(live.game.state_to_json(live.state))
        try:
            live.game.apply(copy, seat, action)
        except NotYourTurn as exc:
            # A plain refusal with the engine's code (a token move while a card is to be
            # picked: "no token to move"), not the generic "nothing to decide" that the
            # caller gives a NotYourTurn: the seat does have something to decide.
            return IllegalAction(exc.message, code=exc.code, **exc.params)
        except IllegalAction as exc:
            return exc
        return IllegalAction(f"{action.text()} is not one of the moves possible now.",
                             code="not_legal", action=action.text())

    async def _commit(self, live: LiveTable, seat: int, action: Action, source: Source,
                      actor_id: str | None, *, extra: NotesFor | None = None,
                      in_place: bool = False, level: str | None = None) -> bool:
        """Apply one action and make it durable, with the notifications it owes (and
        ``extra`` ones) in the same transaction. Raises IllegalAction/NotYourTurn with
        the state untouched (the engine's promise). True when the actor's next decision
        was left to the front end that answers ``in_place``."""
        game, state, old = live.game, live.state, live.record
        before_pending = game.pending(state)
        before = decision_keys(game, state)
        round_before = self._round(live)
        action_note = compose.action_note(live, seat, action)
        if self.delivery.busy(live.id) and live.made_version != old.version:
            # Messages of this version may not be made yet: they are made from a copy
            # (``fill.RecentStates``), since the state is about to change in place.
            self._recent.remember(live.id, old.version, copy_of(game, state))
        events = game.apply(state, seat, action)
        live.moving = True  # until the commit moves the record on (or the table is dropped)
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
            snapshot = snapshot_due(old, version, finished)
            record = dataclasses.replace(
                old, version=version, updated_at=now,
                snapshot=canonical(game.state_to_json(state)) if snapshot else old.snapshot,
                snapshot_version=version if snapshot else old.snapshot_version,
                status="finished" if finished else old.status,
                outcome=outcome.to_json() if outcome is not None else None,
            )
            entry = ActionRecord(old.id, version, seat, dict(action.to_json()), source, now,
                                 actor_id, public_text, public_events)

            left: list[bool] = []

            def notes(t: LiveTable) -> Notes:
                made = self._notes_after(t, seat, source, public_text, events, before, after,
                                         round_before, answered=in_place, left=left,
                                         level=level, action_note=action_note)
                return [*made, *(extra(t) if extra is not None else [])]

            # Seats and timers unchanged (another seat's pick, a step of the same
            # decision) are not written again: fewer rows, fewer pages in the journal.
            await self._write(live, record, seats=None if seats == live.seats else seats,
                              timers=None if sorted(timers) == live.timers else timers,
                              action=entry,
                              expected_version=old.version, state=state, notes=notes)
        except BaseException:
            # The engine state in memory has moved but the database may not have: forget
            # it, the next request reloads what was committed.
            self._cache.drop(live.id)
            raise
        log.info("table %d v%d: seat %d acted (%s)", live.id, version, seat, source)
        return bool(left)

    def _notes_after(self, live: LiveTable, seat: int, source: Source, public_text: str | None,
                     events: Sequence[Any], before: Mapping[int, str],
                     after: Mapping[int, str], round_before: Any, *,
                     answered: bool = False, left: list[bool] | None = None,
                     level: str | None = None,
                     action_note: str | None = None) -> list[Notification]:
        news: list[Notification | None] = []
        # A secret step is never announced one by one (it would tell how many steps a
        # player took); the round's news and the status message say what may be said.
        # A late player is the exception: the table must read that the AI played.
        if public_text is not None or source in ("timeout", "admin"):
            news.append(note(live, None, "acted", {
                # ``actor_name`` is filled in when sent, with the table's names.
                "actor": seat, "source": source,
                "text": public_text, "secret": public_text is None, "level": level,
                # A secret step keeps its note secret too.
                "note": action_note if public_text is not None else None}))
        # ``answered``: the front end answered the actor in the message they clicked; the
        # private notes that would tell them the same are ``quiet`` (it may skip them).
        answered = answered and source == "player"
        for event_note in compose.event_notes(live, events):
            if answered and public_text is None and event_note.seat == seat:
                # What a player's own secret step did, told back to them: a front end
                # that answered the click already may skip it (``quiet``).
                event_note = event_note.evolve(context={**event_note.context, "quiet": True})
            news.append(event_note)
        if live.record.status == "finished":
            return present([*news, compose.game_over(live)])
        notes = list(news)
        if after.get(seat) == CHANGEABLE and source == "player":
            prompt = compose.prompt_for(live, seat, options=False)
            notes.append(note(live, seat, "submitted",
                              {**compose.prompt_context(prompt, options=False),
                               "quiet": answered}, fill=(OPTIONS,)))
        fresh = {s for s in after if live.seats[s].prompt_version == live.record.version}
        prompts = self._prompts(live, after, fresh=fresh)
        if answered and after.get(seat) not in (None, CHANGEABLE):
            # The actor decides again at once (a refill's next step, the next action of
            # a turn, the next round): the front end shows it in the answer to the click,
            # so the message would say the same (``quiet``).
            prompts = [n.evolve(context={**n.context, "quiet": True})
                       if n.seat == seat else n for n in prompts]
            if left is not None:
                left.append(True)
        notes += prompts
        # What a round still going on tells (the table's news, who is awaited, a seat's
        # private news) may wait for the round's end or for the seat's next decision,
        # so that a round costs one post, one status edit and one DM per decision. A
        # decision itself never waits.
        # A late seat played by the AI is told at once: the table should know.
        if (round_before is not None and self._round(live) == round_before
                and source not in ("timeout", "admin")):
            notes = [n.evolve(defer=True)
                     if n is not None and (n.seat is None or n.template.startswith("event_"))
                     else n for n in notes]
        return present(notes)

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

        Cheap AIs play here, under the lock. A bot whose AI thinks in the pool (the
        search) is handed to the table's thinking task, which holds the lock only to
        commit: the caller (a player's click) is answered meanwhile.

        The change that called this is committed already: a bot move that fails (a
        full disk, another process) must not turn it into an error for the player.
        The table keeps ``bot_turn`` set in the database, so the sweep (every
        ``SWEEP_SECONDS``, and at boot) makes the bot play later."""
        try:
            owed = await self._play_cheap_bots(live)
        except Refused as exc:
            log.warning("table %d: a bot could not play now (%s); the sweep resumes it",
                        live.id, exc)
            self._cache.drop(live.id)
            return
        self._plan(live)
        if owed is not None:
            self._start_thinking(live.id)

    async def _play_cheap_bots(self, live: LiveTable) -> int | None:
        """Play the bot seats whose AI is cheap; the first bot seat left waiting for a
        pooled AI (None: no bot owes a move)."""
        while live.record.status == "running":
            waiting = live.game.pending(live.state).waiting
            bots = [s for s in sorted(waiting) if live.seats[s].is_bot]
            cheap = [s for s in bots if not self.thinker.is_pooled(self._bot_ai(live, s))]
            if not cheap:
                return bots[0] if bots else None
            seat = cheap[0]
            kind = self._bot_ai(live, seat)
            action = self._ai_choice(live, seat, kind)
            await self._commit(live, seat, action, "bot", None, level=level_of(kind))
            await asyncio.sleep(0)  # a game of bots must not starve the other tables
        return None

    def _start_thinking(self, table_id: int) -> None:
        """Make sure the table's thinking task runs. Called under the table's lock; a
        task that runs already looks at the table again (under the lock) before it
        ends, so a move owed now is never missed."""
        task = self._thinking.get(table_id)
        if task is not None and not task.done():
            return
        self._thinking[table_id] = asyncio.create_task(self._think_for_bots(table_id),
                                                       name=f"urbanist-bots-{table_id}")

    async def _think_for_bots(self, table_id: int) -> None:
        """The table's pooled bots, one move at a time: the state is read under the lock,
        the AI thinks off it, and the move is committed under it only if the table is
        still at the version it thought about (else it thinks again)."""
        me = asyncio.current_task()
        try:
            while True:
                async with self._lock(table_id):
                    live = await self._load_or_none(table_id)
                    seat = None
                    if live is not None:
                        seat = await self._play_cheap_bots(live)
                        self._plan(live)
                    if live is None or seat is None:
                        self._thinking.pop(table_id, None)
                        return
                    kind = self._bot_ai(live, seat)
                    job = self._think_job(live, seat, kind)
                    version = live.record.version
                choice = await self._think(live, job)
                async with self._lock(table_id):
                    live = await self._load_or_none(table_id)
                    # A seat given to a person (or another bot) keeps the version.
                    if (live is None or not self._still_at(live, version, seat)
                            or not live.seats[seat].is_bot
                            or self._bot_ai(live, seat) != kind):
                        log.info("table %d: a bot's choice for v%d is stale; thinking again",
                                 table_id, version)
                        continue
                    action = self._accepted(live, seat, kind, choice)
                    await self._commit(live, seat, action, "bot", None, level=level_of(kind))
        except Refused as exc:
            log.warning("table %d: a bot could not play now (%s); the sweep resumes it",
                        table_id, exc)
            self._cache.drop(table_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %d: a bot's move failed; the sweep resumes it", table_id)
            self._cache.drop(table_id)
        finally:
            if self._thinking.get(table_id) is me:
                del self._thinking[table_id]

    async def settle(self, table_id: int) -> None:
        """Wait until the table's bots that think in the pool have played what they owe
        (a front end that shows one table at a time: the console; tests)."""
        while (task := self._thinking.get(table_id)) is not None:
            await asyncio.shield(task)

    def _ai_seed(self, live: LiveTable, seat: int) -> int:
        # Seeded from the table and version: reruns give the same choice, tables differ.
        return live.record.seed ^ _AI_SALT ^ (live.record.version << 20) ^ seat

    def _think_job(self, live: LiveTable, seat: int, kind: str) -> ThinkJob:
        return ThinkJob(type(live.game).__module__, live.record.game,
                        live.game.state_to_json(live.state), seat, kind,
                        self._ai_seed(live, seat))

    @staticmethod
    def _still_at(live: LiveTable, version: int, seat: int) -> bool:
        """The table is where the AI thought about it: same version, still running, and
        the seat still owes the decision."""
        return (live.record.status == "running" and live.record.version == version
                and seat in live.game.pending(live.state).waiting)

    async def _think(self, live: LiveTable, job: ThinkJob) -> dict[str, Any] | None:
        """The pooled AI's choice (JSON), or None when it failed (logged)."""
        try:
            return await self.thinker.choose(job)
        except Exception:
            log.exception("table %d: AI %s failed for seat %d", live.id, job.kind, job.seat)
            return None

    def _accepted(self, live: LiveTable, seat: int, kind: str,
                  choice: Mapping[str, Any] | None) -> Action:
        """The pooled choice as a legal action of the current state; a legal move when
        the AI failed (the game's cheap AI, else the first legal action)."""
        legal = live.game.legal_actions(live.state, seat)
        if choice is None:
            return self._ai_choice(live, seat, kind_for(live.game, "normal"))
        try:
            action = live.game.action_from_json(choice)
        except Exception:
            action = None
        if action not in legal:
            log.error("table %d: AI %s chose an illegal action for seat %d", live.id, kind, seat)
            return legal[0]
        return action

    def _ai_choice(self, live: LiveTable, seat: int, kind: str) -> Action:
        """The AI's choice made here, on the event loop (the cheap kinds)."""
        rng = Rng.from_seed(self._ai_seed(live, seat))
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

    async def _choose_for(self, table_id: int, live: LiveTable, seat: int, kind: str,
                          current: Callable[[LiveTable], bool]) -> tuple[LiveTable, Action] | None:
        """The AI's choice for ``seat``, made off the lock when the kind is pooled.
        Called and returning under the table's lock (released while the AI thinks).
        Thinks again when the table moved meanwhile; None when ``current`` says the
        table is no longer one to play for (the live table returned may be a new copy)."""
        while True:
            if not self.thinker.is_pooled(kind):
                return live, self._ai_choice(live, seat, kind)
            job = self._think_job(live, seat, kind)
            version = live.record.version
            lock = self._lock(table_id)
            lock.release()
            try:
                choice = await self._think(live, job)
            finally:
                await _reacquire(lock)
            fresh = await self._load_or_none(table_id)
            if fresh is None or not current(fresh):
                return None
            live = fresh
            if self._still_at(live, version, seat):
                return live, self._accepted(live, seat, kind, choice)

    async def _play_late(self, live: LiveTable, seat: int, action: Action | None = None) -> None:
        kind = self._timeout_ai(live)
        if action is None:
            action = self._ai_choice(live, seat, kind)
        played, level = action, level_of(kind)
        await self._commit(live, seat, played, "timeout", None, level=level, extra=lambda t: [
            note(t, seat, "timeout_played", {"played": played.text(), "by_admin": False,
                                             "level": level})])
