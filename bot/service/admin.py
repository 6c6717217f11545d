"""Start-up, the periodic sweep, the host's powers over a running table, and the jobs
(deadlines and reminders)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.service import compose
from bot.service.compose import note
from bot.service.core import (
    SWEEP_SECONDS,
    StoreCorrupt,
)
from bot.service.errors import Refused
from bot.service.leasing import TableLeases
from bot.service.live import LiveTable
from bot.service.settings import Actor
from bot.service.turns import TurnVerbs
from bot.service.values import BootReport, TableInfo
from bot.store.health import StorageError

log = logging.getLogger(__name__)


class AdminVerbs(TurnVerbs):
    # Alone on the database by default: every table is this process's (no lease asked).
    leases: TableLeases = TableLeases.solo()

    def share(self, owner: str, *, ttl: float | None = None) -> None:
        """Run beside other processes on one database: from now on this process plans
        jobs, resumes bots and sends the outbox only for the tables it holds a lease on
        (``bot.service.leasing``). Call before ``boot``."""
        self.leases = TableLeases(owner) if ttl is None else TableLeases(owner, ttl=ttl)
        self.deadlines.owns = self.leases.owns
        self.delivery.owns = self.leases.owns
        # Another process may write any table: a cached copy is checked against the
        # table's rev before it serves.
        self._cache.checked = True

    async def refresh_leases(self) -> None:
        """Renew this process's leases, take its share of the free and expired ones, and
        make its jobs those of the database for the tables it now holds."""
        if not self.leases.shared:
            return
        try:
            await self.leases.refresh(self.store, self.clock.now())
        except StorageError as exc:
            # Our leases run out if this lasts: the jobs check them before acting.
            log.error("leases: could not renew (%s)", exc)
            return
        self.deadlines.sync(await self.store.scheduled_timers())

    async def boot(self, *, verify: bool = False) -> BootReport:
        """Refuse a damaged database, then rebuild every deadline and reminder job from
        it. A start reads the live tables' timers only, whatever the history holds: the
        check of every row and the replay of every log are ``urbanist check``'s (and,
        with ``verify``, the running tables' logs are replayed here too; slow)."""
        problems = list(self.store.problems)
        if problems:
            raise StoreCorrupt("; ".join(problems[:5]))
        if not self.leases.shared:
            self.deadlines.plan_all(await self.store.scheduled_timers())
        running = await self.store.table_ids(["running"])
        if verify:
            for table_id in running:
                report = await self.verify(table_id)
                if not report.ok:
                    raise StoreCorrupt(f"table {table_id}: {report.problem}")
        # Beside other processes the sweep takes the leases, then plans their tables' jobs.
        await self.sweep()
        jobs = self.deadlines.job_count()
        log.info("boot: %d running tables, %d jobs", len(running), jobs)
        return BootReport(tuple(problems), jobs, len(running))

    async def audit(self) -> list[str]:
        """The check of every row that a start no longer waits for (its cost grows with
        the whole history): run in the background once the bot is up. Each problem is
        logged as an error that says to run ``urbanist check``; returns them."""
        try:
            problems = await self.store.integrity_check()
        except StorageError as exc:
            problems = [str(exc)]
        for problem in problems:
            log.error("database check: %s (run `urbanist check` for the whole report)",
                      problem)
        if not problems:
            log.info("database check: no problem found")
        return problems

    async def sweep(self) -> None:
        """The periodic job (and the end of the boot): bots that owe a move play it (a
        crash or a failed write may have stopped them), and owed messages that are due
        are sent. Nothing here depends on memory: it all comes from the database.
        Beside other processes, first the leases: only this process's tables are done."""
        try:
            await self._sweep()
        except StorageError as exc:
            # The database is away (a restart): the next sweep tries again.
            log.error("sweep: %s", exc)

    async def _sweep(self) -> None:
        await self.refresh_leases()
        if not self.leases.shared:
            # Beside other processes ``refresh_leases`` did this in its ``sync``.
            soon = self.clock.now() + self.deadlines.horizon
            self.deadlines.catch_up(await self.store.scheduled_timers(before=soon))
        for table_id in await self.store.bot_turn_tables():
            if not self.leases.owns(table_id):
                continue
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
        # Beside other processes the sweep also renews the leases, well before they expire.
        seconds = min(SWEEP_SECONDS, self.leases.period) if self.leases.shared else SWEEP_SECONDS
        scheduler.add_job(self.sweep, "interval", seconds=seconds, id="urbanist-sweep",
                          replace_existing=True, coalesce=True, max_instances=1)

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

    async def on_deadline(self, table_id: int, version: int) -> None:
        """Job function: the AI plays for every seat whose deadline has passed (source
        timeout), as long as the table is still at ``version``."""
        async with self._lock(table_id):
            live = await self._job_table(table_id, version)
            if live is None:
                return
            now = self.clock.now()
            while live.record.status == "running":
                late = self._late_seats(live, now)
                if not late:
                    break
                seat = late[0]

                def still_late(t: LiveTable, seat: int = seat) -> bool:
                    return seat in self._late_seats(t, now)

                # A search AI thinks off the lock (and again if the table moves meanwhile).
                chosen = await self._choose_for(table_id, live, seat, self._timeout_ai(live),
                                                still_late)
                if chosen is None:
                    # Someone played meanwhile: what is still owed has its own jobs.
                    if (fresh := await self._load_or_none(table_id)) is not None:
                        self._plan(fresh)
                    return
                live, action = chosen
                try:
                    await self._play_late(live, seat, action)
                except Refused as refusal:
                    if refusal.code != "busy":
                        raise
                    # Another process moved the table first (its owner may be acting on
                    # it): nothing was written; the table's new timers are planned anew.
                    log.info("table %d: deadline for v%d lost a race; replanned", table_id,
                             version)
                    if (fresh := await self._load_or_none(table_id)) is not None:
                        self._plan(fresh)
                    return
            await self._after_change(live)

    @staticmethod
    def _late_seats(live: LiveTable, now: float) -> list[int]:
        if live.record.status != "running":
            return []
        waiting = live.game.pending(live.state).waiting
        return sorted(t.seat for t in live.timers
                      if t.kind == "deadline" and t.due_at <= now and t.seat in waiting)

    async def close(self) -> None:
        """Stop the bots' thinking (a move under way is left to the next sweep: its
        table keeps ``bot_turn``) and the AI's worker processes. The store is the
        caller's to close."""
        tasks = list(self._thinking.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._thinking.clear()
        self.thinker.shutdown()

    async def on_reminder(self, table_id: int, version: int) -> None:
        """Job function: remind the seats that still have to act and whose reminder is due."""
        async with self._lock(table_id):
            live = await self._job_table(table_id, version)
            if live is None:
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

    async def _job_table(self, table_id: int, version: int) -> LiveTable | None:
        """The table a job may act on: still ours (the lease) and still at ``version``.
        Beside other processes the table is read from the database, and a job for a
        version another process has moved past plans the table's current timers."""
        if not self.leases.owns(table_id, self.clock.now()):
            log.info("table %d: job for v%d skipped (lease not held)", table_id, version)
            return None
        live = await self._load_or_none(table_id)
        if live is None:
            return None
        if not self._job_current(live, version):
            if self.leases.shared:
                self._plan(live)
            return None
        return live
