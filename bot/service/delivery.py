"""The delivery worker: sends what the outbox holds, so that what an action owes players
is as durable as the action itself.

The service writes a table's notifications into the outbox in the same transaction as
the change that owes them (``bot/store``), then kicks the worker. Per table, one task
at a time claims the rows that are due (marking them ``sending``), hands them to the
transport in order, and records what became of each: sent, held (public news kept for
the end of its round), retried later (429, 5xx, network errors, with backoff), or
failed for good. Rows left ``sending`` by a crash are claimed again as *in doubt*: the
transport checks whether they went out before sending them a second time.

The common case takes one commit, not two: when no task of the table is sending, the
save that owes the rows claims them in its own transaction (``reserve``, then
``after_commit`` with the rows claimed; ``Store.save(claim_at=)``), and the task hands
them to the transport without reading them back.

``sweep`` (a periodic job, and the boot) kicks every table with rows due, so retries and
the rows of a crashed process are sent without anyone having to act.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Protocol

from bot.clock import Clock
from bot.service.notifications import HELD, Failed, Notification, Notifier, Retry
from bot.store.records import OutboxResult, OutboxRow

log = logging.getLogger(__name__)

# Backoff for transient failures without a retry-after: 2 s, 4 s, 8 s ... up to 10 min.
BACKOFF_BASE = 2.0
BACKOFF_MAX = 600.0
# A row that still fails after this many attempts is given up (and recorded as failed).
MAX_ATTEMPTS = 12
# A sent row is kept an hour (what went out lately, for whoever looks), a failed one a
# week (why a seat was marked unreachable); then the sweep prunes them. The database grows
# by the actions, not by every message sent (issue 23, item 10).
SENT_KEEP_SECONDS = 3600
FAILED_KEEP_SECONDS = 7 * 24 * 3600

Failure = tuple[Notification, str]  # a notification given up, and why
OnFailed = Callable[[Notification, str], Awaitable[None]]
Fill = Callable[[Sequence[Notification]], Awaitable[list[Notification]]]


class OutboxStore(Protocol):
    """The part of the store the worker uses (``bot.store.SqliteStore`` has it)."""

    async def claim_outbox(self, table_id: int, now: float) -> list[OutboxRow]: ...

    async def mark_outbox(self, results: Sequence[OutboxResult], now: float) -> None: ...

    async def outbox_tables(self, now: float) -> list[int]: ...

    async def prune_outbox(self, before: float, *, failed_before: float | None = None
                           ) -> int: ...


def _as_written(claimed: Sequence[OutboxRow],
                owed: Sequence[Notification]) -> dict[int, Notification]:
    """The claimed rows that a save wrote, by id, each with the notification it was
    written from: a save's rows are the table's newest, in order, so they close the
    claim. Rows that do not match (none, if the store said otherwise) are read back
    from their stored form as any other."""
    if not owed or len(claimed) < len(owed):
        return {}
    mine = claimed[len(claimed) - len(owed):]
    if any(r.state != "pending" or r.attempts or r.sent or r.version != n.version
           or r.seat != n.seat or r.payload.get("template") != n.template
           for r, n in zip(mine, owed, strict=True)):
        return {}
    return {r.id: n for r, n in zip(mine, owed, strict=True)}


def backoff(attempts: int) -> float:
    return float(min(BACKOFF_MAX, BACKOFF_BASE * 2 ** max(0, attempts - 1)))


class DeliveryWorker:
    def __init__(self, store: OutboxStore, notifier: Notifier, clock: Clock, *,
                 on_failed: OnFailed | None = None) -> None:
        self.store = store
        self.notifier = notifier
        self.clock = clock
        self.on_failed = on_failed
        # Makes the parts of the notifications that are made at send time (their view,
        # their moves: ``bot/service/fill.py``); the service sets it.
        self.fill: Fill | None = None
        # Wake-ups for retries in real time; off in tests, which sweep after moving the
        # fake clock instead.
        self.timers = False
        self._tasks: dict[int, asyncio.Task[None]] = {}
        # Tables whose save is claiming their outbox (``reserve``): a kick meanwhile
        # waits for it, so that no claim of the worker's takes the save's rows as in doubt.
        self._reserved: set[int] = set()
        self._again: set[int] = set()
        self._handles: dict[int, asyncio.TimerHandle] = {}
        # The parts sent so far of the messages being delivered, by outbox row (see
        # ``progress``): they go into the rows' results.
        self._progress: dict[int, tuple[str, ...]] = {}
        # Whether this process sends a table's outbox (``bot.service.leasing``): beside
        # other processes only the lease holder does, so that no two processes ever
        # claim the same in-doubt row; the holder's sweep sends what others committed.
        self.owns: Callable[[int], bool] = lambda table_id: True

    # ---------------------------------------------------------------- entry points

    def reserve(self, table_id: int) -> float | None:
        """The time to claim at, when the save about to commit the table's notifications
        may claim its outbox itself (``Store.save(claim_at=)``): this process sends the
        table's outbox, by a task (an inline transport claims as before), and none is
        sending it now. Until ``after_commit`` or ``release``, a kick of the table waits
        for the save's rows. None: the save claims nothing, and the task claims."""
        if (table_id in self._tasks or table_id in self._reserved
                or not self.owns(table_id) or getattr(self.notifier, "inline", False)):
            return None
        self._reserved.add(table_id)
        return self.clock.now()

    def busy(self, table_id: int) -> bool:
        """Whether a task may still be making and sending the table's messages (a kick
        waiting for a save counts). An inline transport's are sent under the lock."""
        return table_id in self._tasks or table_id in self._reserved

    def release(self, table_id: int) -> None:
        """The reserving save failed (or its answer was lost): what it may have claimed
        is claimed again by a task, as in doubt."""
        if table_id in self._reserved:
            self._reserved.discard(table_id)
            self.kick(table_id)

    async def after_commit(self, table_id: int, claimed: list[OutboxRow] | None = None,
                           owed: Sequence[Notification] = ()) -> list[Failure]:
        """Called once a change that owes notifications is committed, under the table's
        lock, with the rows its save claimed when it ``reserve``d, and the notifications
        it wrote (``owed``, in their rows' order). An inline transport sends at once,
        and what failed for good is returned for the caller to handle under the lock it
        holds; otherwise a task sends later."""
        if table_id in self._reserved:
            self._reserved.discard(table_id)
            if claimed is None:
                claimed = []  # a save that said nothing claimed nothing
            if claimed or table_id in self._again:
                self._start(table_id, claimed, _as_written(claimed, owed))
            return []
        if not self.owns(table_id):
            return []
        if getattr(self.notifier, "inline", False):
            return await self.run_table(table_id)
        self.kick(table_id)
        return []

    def kick(self, table_id: int) -> None:
        """Make sure the table's due rows get sent soon (one task per table)."""
        if not self.owns(table_id):
            return
        if table_id in self._tasks or table_id in self._reserved:
            self._again.add(table_id)  # the running task looks again before it ends
            return
        self._start(table_id, None)

    def _start(self, table_id: int, claimed: list[OutboxRow] | None,
               written: Mapping[int, Notification] | None = None) -> None:
        task = asyncio.get_running_loop().create_task(
            self._run_task(table_id, claimed, written), name=f"urbanist-deliver-{table_id}")
        self._tasks[table_id] = task

    async def sweep(self) -> int:
        """Kick every table with rows due now; prune old sent rows. Returns the count."""
        now = self.clock.now()
        tables = [t for t in await self.store.outbox_tables(now) if self.owns(t)]
        for table_id in tables:
            if getattr(self.notifier, "inline", False):
                await self._report(await self.run_table(table_id))
            else:
                self.kick(table_id)
        await self.store.prune_outbox(now - SENT_KEEP_SECONDS,
                                      failed_before=now - FAILED_KEEP_SECONDS)
        return len(tables)

    async def progress(self, outbox_ids: Sequence[int], sent: Sequence[str]) -> None:
        """The transport sent some parts of a message that goes out in several; ``sent``
        marks every part sent so far. Recorded at once on the rows that message carries
        (still ``sending``), so that when a later part fails, or the process dies, the
        retry sends only the parts missing."""
        marks = tuple(sent)
        ids = [i for i in outbox_ids if i]
        if not ids:
            return  # notifications never stored (an inline transport's tests)
        now = self.clock.now()
        for outbox_id in ids:
            self._progress[outbox_id] = marks
        await self.store.mark_outbox(
            [OutboxResult(i, "sending", now, sent=marks) for i in ids], now)

    async def idle(self) -> None:
        """Wait until every running delivery task is done (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    def close(self) -> None:
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()

    # ---------------------------------------------------------------- the work

    async def _run_task(self, table_id: int, claimed: list[OutboxRow] | None,
                        written: Mapping[int, Notification] | None = None) -> None:
        try:
            while True:
                if claimed is None:
                    self._again.discard(table_id)
                await self._report(await self.run_table(table_id, claimed, written))
                claimed = written = None  # a kick during the save's claim is looked at now
                if table_id not in self._again:
                    break
        except Exception:
            # The rows stay in the outbox: the next sweep tries again.
            log.exception("table %d: delivery failed", table_id)
        finally:
            self._tasks.pop(table_id, None)

    async def _report(self, failures: Sequence[Failure]) -> None:
        for note, error in failures:
            if self.on_failed is not None:
                await self.on_failed(note, error)

    async def run_table(self, table_id: int, claimed: list[OutboxRow] | None = None,
                        written: Mapping[int, Notification] | None = None) -> list[Failure]:
        """Send the table's due rows (``claimed``: as a save claimed them, ``written``:
        the notifications of the rows it wrote, by row id); returns the notifications
        that failed for good."""
        failures: list[Failure] = []
        # One pass: rows committed meanwhile come with their own kick (``_again``), or,
        # with an inline transport, with their own commit's call under the lock.
        rows = (claimed if claimed is not None
                else await self.store.claim_outbox(table_id, self.clock.now()))
        if not rows:
            return failures
        written = written or {}
        notes = [
            written[r.id].evolve(outbox_id=r.id) if r.id in written else
            Notification.from_json(r.payload, outbox_id=r.id, table_id=r.table_id).evolve(
                in_doubt=r.state == "sending", sent=r.sent)
            for r in rows
        ]
        if self.fill is not None:
            try:
                notes = await self.fill(notes)
            except Exception as exc:
                # Nothing was handed to the transport: the rows wait for the next try
                # as they were (a database that cannot be read now, say).
                log.warning("table %d: could not make the messages owed (%r)",
                            table_id, exc)
                outcome_later = {n.outbox_id: Retry(0.0, repr(exc)) for n in notes}
                results, failed = self._results(rows, outcome_later, self.clock.now())
                await self.store.mark_outbox(results, self.clock.now())
                failures += failed
                self._wake(table_id, min(r.due_at for r in results))
                return failures
        broken = False
        try:
            outcome: Mapping[int, object] = await self.notifier.deliver(notes) or {}
        except Exception as exc:
            log.exception("table %d: the transport failed", table_id)
            outcome = {n.outbox_id: Retry(0.0, repr(exc)) for n in notes}
            broken = True
        results, failed = self._results(rows, outcome, self.clock.now(), in_doubt=broken)
        await self.store.mark_outbox(results, self.clock.now())
        failures += failed
        retry = [r.due_at for r in results if r.state in ("pending", "sending")]
        if retry:
            self._wake(table_id, min(retry))
        return failures

    def _results(self, rows: Sequence[OutboxRow], outcome: Mapping[int, object], now: float,
                 *, in_doubt: bool = False,
                 ) -> tuple[list[OutboxResult], list[tuple[Notification, str]]]:
        """The rows' results. ``in_doubt``: the transport failed in the middle, having
        perhaps sent some of them; their retry is offered as in doubt (``sending``), so
        the transport looks for them before sending them again."""
        results: list[OutboxResult] = []
        failed: list[tuple[Notification, str]] = []
        for row in rows:
            what = outcome.get(row.id, "sent")
            attempts = row.attempts + (0 if row.state == "held" else 1)
            # The parts already sent stay with a row still owed, so its retry resumes.
            sent = self._progress.pop(row.id, row.sent)
            if isinstance(what, Retry) and attempts >= MAX_ATTEMPTS:
                what = Failed(f"gave up after {attempts} attempts: {what.error}")
            if isinstance(what, Retry):
                delay = max(what.after, backoff(attempts))
                log.info("table %d: outbox %d retried in %.0f s (%s)", row.table_id, row.id,
                         delay, what.error)
                results.append(OutboxResult(row.id, "sending" if in_doubt else "pending",
                                            now + delay, what.error, sent=sent))
            elif isinstance(what, Failed):
                # An expected refusal (closed DMs) is handled by the caller: a warning
                # would drown the ones an operator must read.
                log.log(logging.INFO if what.expected else logging.WARNING,
                        "table %d: outbox %d failed: %s", row.table_id, row.id, what.error)
                results.append(OutboxResult(row.id, "failed", now, what.error))
                failed.append((Notification.from_json(row.payload, outbox_id=row.id,
                                                      table_id=row.table_id), what.error))
            elif what == HELD:
                results.append(OutboxResult(row.id, "held", row.due_at, sent=sent))
            else:
                results.append(OutboxResult(row.id, "sent", now))
        return results, failed

    def _wake(self, table_id: int, due_at: float) -> None:
        if not self.timers:
            return
        old = self._handles.pop(table_id, None)
        if old is not None:
            old.cancel()
        delay = max(0.0, due_at - self.clock.now())
        loop = asyncio.get_running_loop()
        self._handles[table_id] = loop.call_later(delay, self.kick, table_id)
