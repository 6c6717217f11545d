"""The one road every move takes: judged by the engine, committed with what it owes
players, then the bots' replies."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Mapping, Sequence
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
from bot.service.live import LiveTable
from bot.service.notifications import Notification
from bot.service.queries import Queries
from bot.service.settings import Actor
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


class TurnVerbs(Queries):
    async def _act(self, live: LiveTable, seat: SeatRecord, action: Action,
                   actor: Actor, *, in_place: bool = False) -> ActResult:
        try:
            legal = live.game.legal_actions(live.state, seat.seat)
            if not legal:
                raise NotYourTurn("You have nothing to decide right now.")
            if action not in legal:
                raise self._why_illegal(live, seat.seat, action)
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
                         live.record.status == "finished", next_in_place)

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
        return IllegalAction(f"{action.text()} is not one of the moves possible now.",
                             code="not_legal", action=action.text())

    async def _commit(self, live: LiveTable, seat: int, action: Action, source: Source,
                      actor_id: str | None, *, extra: NotesFor | None = None,
                      in_place: bool = False) -> bool:
        """Apply one action and make it durable, with the notifications it owes (and
        ``extra`` ones) in the same transaction. Raises IllegalAction/NotYourTurn with
        the state untouched (the engine's promise). True when the actor's next decision
        was left to the front end that answers ``in_place``."""
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

            left: list[bool] = []

            def notes(t: LiveTable) -> Notes:
                made = self._notes_after(t, seat, source, public_text, events, before, after,
                                         round_before, answered=in_place, left=left)
                return [*made, *(extra(t) if extra is not None else [])]

            await self._write(live, record, seats=seats, timers=timers, action=entry,
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
                     answered: bool = False, left: list[bool] | None = None
                     ) -> list[Notification]:
        news: list[Notification | None] = []
        # A secret step is never announced one by one (it would tell how many steps a
        # player took); the round's news and the status message say what may be said.
        # A late player is the exception: the table must read that the AI played.
        if public_text is not None or source in ("timeout", "admin"):
            news.append(note(live, None, "acted", {
                "actor": seat, "actor_name": live.names[seat], "source": source,
                "text": public_text, "secret": public_text is None}))
        # ``answered``: the front end answered the actor in the message they clicked; the
        # private notes that would tell them the same are ``quiet`` (it may skip them).
        answered = answered and source == "player"
        for event_note in compose.event_notes(live, events):
            if answered and public_text is None and event_note.seat == seat:
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
            notes.append(note(live, seat, "submitted", {**compose.prompt_context(prompt),
                                                         "quiet": answered}))
        fresh = {s for s in after if live.seats[s].prompt_version == live.record.version}
        prompts = self._prompts(live, after, fresh=fresh)
        if answered and after.get(seat) not in (None, CHANGEABLE):
            # The actor decides again at once (a refill's next step, the next action of
            # a turn, the next round): the front end shows it in the answer to the click,
            # so the message would say the same (``quiet``).
            prompts = [dataclasses.replace(n, context={**n.context, "quiet": True})
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
            notes = [dataclasses.replace(n, defer=True)
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
                action = self._ai_choice(live, seat, self._bot_ai(live, seat))
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

    async def _play_late(self, live: LiveTable, seat: int) -> None:
        action = self._ai_choice(live, seat, self._timeout_ai(live))
        await self._commit(live, seat, action, "timeout", None, extra=lambda t: [
            note(t, seat, "timeout_played", {"played": action.text(), "by_admin": False})])
