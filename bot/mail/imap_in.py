"""Reading the bot's mailbox over IMAP (aioimaplib): every new message is handed over once.

A message is fetched with BODY.PEEK (reading it does not mark it read) and marked \\Seen
only after the handler has returned True, i.e. once the front end has committed what it
carries; a handler that returns False or raises leaves it unseen, and it is offered again
at the next pass. UIDs handled in this mailbox's UIDVALIDITY are remembered, and the
``seen(uidvalidity, uid)`` callback lets the front end answer from its database, so a
mailbox read twice (a restart, a \\Seen flag lost, a second reader) hands nothing twice.

New mail is waited for with IDLE when the server offers it, else by polling every
``poll_seconds``; a dropped connection is reopened with backoff.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import ssl
from collections.abc import Awaitable, Callable
from typing import Any

import aioimaplib

from bot.mail.settings import MailSettings

log = logging.getLogger(__name__)

# aioimaplib logs at INFO the server lines it does not expect, which may carry a piece
# of someone's mail: kept out of the operator's log unless asked for by name.
_aioimaplib_log = logging.getLogger("aioimaplib")
if _aioimaplib_log.level == logging.NOTSET:
    _aioimaplib_log.setLevel(logging.WARNING)

Handler = Callable[[int, bytes], Awaitable[bool]]
Seen = Callable[[int, int], Awaitable[bool]]

# Larger mail is handed over cut to this many bytes (the reader refuses it as too big
# from its length and headers), so a huge attachment never fills the memory.
MAX_FETCH_BYTES = 2 * 1024 * 1024
# How many handled UIDs are remembered beyond what the server's \Seen flags tell.
REMEMBERED_UIDS = 10_000
FIRST_RETRY_SECONDS = 0.5
LAST_RETRY_SECONDS = 120.0

_UIDVALIDITY = re.compile(rb"\[UIDVALIDITY (\d+)\]")
_UIDNEXT = re.compile(rb"\[UIDNEXT (\d+)\]")
_NEWS = re.compile(rb"^\*? ?\d+ (EXISTS|RECENT)\b")   # "* 3 EXISTS": new mail


def _raise_if_cancelled() -> None:
    """Python 3.11's wait_for, which aioimaplib waits with everywhere, swallows a
    cancellation that comes as its inner wait completes: the task is still marked as
    being cancelled, so it stops here."""
    me = asyncio.current_task()
    if me is not None and me.cancelling():
        raise asyncio.CancelledError


async def _stop(task: asyncio.Future[Any]) -> None:
    """Cancel ``task`` and wait for its end, cancelling again if a cancellation was
    swallowed (see ``_raise_if_cancelled``)."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=0.5)
    if not task.cancelled():
        task.exception()   # retrieved: it was logged or raised by the caller already


class ImapError(Exception):
    """The server refused something the reader needs (login, folder, a command)."""


def _check(response: aioimaplib.Response, what: str) -> aioimaplib.Response:
    if response.result != "OK":
        # The server's words, never ours: a LOGIN refusal does not echo the password.
        detail = b" ".join(bytes(line) for line in response.lines)[:200]
        raise ImapError(f"{what}: {response.result} {detail.decode('ascii', 'replace')}")
    return response


def _number(pattern: re.Pattern[bytes], response: aioimaplib.Response) -> int | None:
    for line in response.lines:
        match = pattern.search(bytes(line))
        if match:
            return int(match.group(1))
    return None


def _literal(response: aioimaplib.Response) -> bytes | None:
    """The message in a one-message ``UID FETCH (BODY.PEEK[])`` answer."""
    after_body = False
    for line in response.lines:
        if isinstance(line, bytearray) and after_body:
            return bytes(line)
        after_body = isinstance(line, bytes) and b"BODY[" in line
    return None


class ImapSource:
    def __init__(self, settings: MailSettings, handler: Handler, *,
                 seen: Seen | None = None, tls_context: ssl.SSLContext | None = None,
                 max_fetch_bytes: int = MAX_FETCH_BYTES) -> None:
        # tls_context: to trust a private certificate authority; None verifies the
        # server against the system's authorities (imap_security 'tls').
        self._settings = settings
        self._handler = handler
        self._seen = seen
        self._tls_context = tls_context
        self._max_fetch = max_fetch_bytes
        self._lock = asyncio.Lock()
        self.uses_idle = False
        self.uidvalidity: int | None = None
        self._last_uid: int | None = None       # highest UID looked at (None: not yet)
        self._handled: dict[int, None] = {}     # handled UIDs, oldest first
        self._failed: set[int] = set()          # offered, not handled: offered again
        # Handlers under way, by (uidvalidity, uid); they outlive a dropped connection.
        self._running: dict[tuple[int, int], asyncio.Future[bool]] = {}
        self._news = False  # the server announced new mail since the pass began
        self.connected = asyncio.Event()        # set while run() holds a session
        self.waiting = asyncio.Event()          # set while run() waits (IDLE or a poll)
        self.sessions = 0                       # connections run() opened so far

    # -- connections --------------------------------------------------------------

    async def _connect(self, lost: asyncio.Event) -> aioimaplib.IMAP4:
        s = self._settings
        context = None
        if s.imap_security == "tls":
            context = self._tls_context or ssl.create_default_context()
        client = aioimaplib.IMAP4(host=s.imap_host or "", port=s.imap_port, timeout=s.timeout,
                                  conn_lost_cb=lambda _exc: lost.set(), ssl_context=context)
        self._watch_news(client)
        try:
            await client.wait_hello_from_server()
            _check(await client.login(s.imap_user or "", s.imap_password or ""), "LOGIN")
            if "IDLE" not in client.protocol.capabilities:
                # Some servers list their extensions only once logged in.
                await asyncio.wait_for(client.protocol.capability(), s.timeout)
            self.uses_idle = client.has_capability("IDLE")
            selected = _check(await client.select(s.imap_folder), f"SELECT {s.imap_folder}")
        except BaseException:
            await self._disconnect(client)
            raise
        self._note_mailbox(_number(_UIDVALIDITY, selected), _number(_UIDNEXT, selected))
        return client

    def _watch_news(self, client: aioimaplib.IMAP4) -> None:
        """Note the server's "* n EXISTS" wherever it comes. A message delivered while
        a SEARCH, FETCH or STORE is under way is announced in that command's answer,
        which aioimaplib drops: unnoticed, the IDLE that follows would wait for the next
        message to see it. (Wraps a private method: aioimaplib is pinned below 3.)"""
        protocol = client.protocol
        untagged = protocol._untagged_response

        def spy(line: bytes) -> Any:
            if _NEWS.match(line):
                self._news = True
            return untagged(line)

        protocol._untagged_response = spy

    @staticmethod
    async def _disconnect(client: aioimaplib.IMAP4, *, polite: bool = True) -> None:
        if polite:
            with contextlib.suppress(Exception):
                if client.has_pending_idle():
                    client.idle_done()   # LOGOUT waits for the IDLE to end
                await asyncio.wait_for(client.logout(), 2.0)
        transport = client.protocol.transport
        if transport is not None:
            transport.close()

    def _note_mailbox(self, validity: int | None, uidnext: int | None) -> None:
        if validity != self.uidvalidity:
            if self.uidvalidity is not None:
                log.warning("the mailbox's UIDVALIDITY changed (%s -> %s): it was "
                            "recreated, its messages are read anew", self.uidvalidity, validity)
            self.uidvalidity = validity
            self._handled.clear()
            self._failed.clear()
            # Mail already there when the bot first looks is read only if unseen: an
            # operator's mailbox may hold years of read mail.
            self._last_uid = (uidnext - 1) if uidnext else None

    # -- one pass -----------------------------------------------------------------

    async def _pass(self, client: aioimaplib.IMAP4) -> int:
        async with self._lock:
            self._news = False
            uids = await self._search(client, "UNSEEN")
            if self._last_uid is not None:
                # New mail too, even if a person already opened it. ('n:*' always
                # matches the last message, even below n: hence the filter.)
                last = self._last_uid
                uids |= {uid for uid in await self._search(client, "UID", f"{last + 1}:*")
                         if uid > last}
            handed = 0
            for uid in sorted(uids | self._failed):
                handed += await self._offer(client, uid)
                self._last_uid = max(self._last_uid or 0, uid)
            return handed

    @staticmethod
    async def _search(client: aioimaplib.IMAP4, *criteria: str) -> set[int]:
        found = _check(await client.uid_search(*criteria, charset=None), "UID SEARCH")
        # Only lines of numbers: an untagged "3 EXISTS" may be among them.
        return {int(word) for line in found.lines[:-1]
                if all(w.isdigit() for w in bytes(line).split())
                for word in bytes(line).split()}

    async def _offer(self, client: aioimaplib.IMAP4, uid: int) -> int:
        validity = self.uidvalidity or 0
        running = self._running.get((validity, uid))
        if running is not None:
            # Still being handled from before the connection dropped: wait for that
            # rather than hand the message over a second time.
            if await self._outcome(running):
                await self._mark_seen(client, uid)
            return 0
        if uid not in self._handled and self._seen is not None and await self._seen(validity,
                                                                                    uid):
            self._remember(uid)
        if uid in self._handled:
            # Handled before (the \Seen flag was lost, or storing it failed): mark only.
            await self._mark_seen(client, uid)
            return 0
        fetched = _check(await client.uid("fetch", str(uid),
                                          f"(BODY.PEEK[]<0.{self._max_fetch}>)"),
                         "UID FETCH")
        raw = _literal(fetched)
        if raw is None:   # expunged meanwhile
            self._failed.discard(uid)
            return 0
        # The handler runs apart from this session: if the connection drops meanwhile
        # it still finishes, and a True it returns is remembered for the next session.
        task = asyncio.ensure_future(self._handler(uid, raw))
        self._running[(validity, uid)] = task
        task.add_done_callback(lambda done: self._handler_done(validity, uid, done))
        if not await self._outcome(task):
            return 0
        await self._mark_seen(client, uid)
        return 1

    @staticmethod
    async def _outcome(task: asyncio.Future[bool]) -> bool:
        try:
            return bool(await asyncio.shield(task))
        except asyncio.CancelledError:
            if task.cancelled():
                return False
            raise   # this session is being cancelled, not the handler
        except Exception:
            return False   # logged by _handler_done

    def _handler_done(self, validity: int, uid: int, task: asyncio.Future[bool]) -> None:
        self._running.pop((validity, uid), None)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            # The message itself stays out of the log: it is private.
            log.error("the mail handler failed on UID %d; it is offered again later",
                      uid, exc_info=exc)
        if validity != (self.uidvalidity or 0):
            return
        if exc is None and task.result():
            self._remember(uid)
        else:
            self._failed.add(uid)

    def _remember(self, uid: int) -> None:
        self._failed.discard(uid)
        self._handled[uid] = None
        while len(self._handled) > REMEMBERED_UIDS:
            del self._handled[next(iter(self._handled))]

    async def _mark_seen(self, client: aioimaplib.IMAP4, uid: int) -> None:
        _check(await client.uid("store", str(uid), "+FLAGS.SILENT (\\Seen)"), "UID STORE")

    # -- public -------------------------------------------------------------------

    async def check_now(self) -> int:
        """One pass on a connection of its own: how many messages the handler took."""
        lost = asyncio.Event()
        client = await self._connect(lost)
        try:
            return await self._pass(client)
        finally:
            await self._disconnect(client)

    async def run(self) -> None:
        """Read new mail until cancelled; never raises for a server or network fault."""
        delay = FIRST_RETRY_SECONDS
        while True:
            try:
                await self._session()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("IMAP %s:%s: %s; trying again in %.1f s", self._settings.imap_host,
                            self._settings.imap_port, exc or type(exc).__name__, delay)
            if self.connected.is_set():
                delay = FIRST_RETRY_SECONDS   # that session worked: start the backoff anew
                self.connected.clear()
            _raise_if_cancelled()
            await asyncio.sleep(delay)
            delay = min(delay * 2, LAST_RETRY_SECONDS)

    async def _session(self) -> None:
        lost = asyncio.Event()
        client = await self._connect(lost)
        try:
            _raise_if_cancelled()
        except asyncio.CancelledError:
            await self._disconnect(client)
            raise
        self.sessions += 1
        self.connected.set()
        body = asyncio.ensure_future(self._serve(client))
        dropped = asyncio.ensure_future(lost.wait())
        try:
            await asyncio.wait({body, dropped}, return_when=asyncio.FIRST_COMPLETED)
            if body.done():
                body.result()
            raise ConnectionError("the IMAP server closed the connection")
        finally:
            try:
                await _stop(body)
                await _stop(dropped)
            finally:
                await self._disconnect(client, polite=not lost.is_set())

    async def _serve(self, client: aioimaplib.IMAP4) -> None:
        wait = self._settings.poll_seconds
        pushes: asyncio.Queue[Any] = client.protocol.idle_queue
        while True:
            _raise_if_cancelled()
            await self._pass(client)
            if not self.uses_idle:
                self.waiting.set()
                try:
                    await asyncio.sleep(wait)
                finally:
                    self.waiting.clear()
                continue
            # Some servers (pymap) announce in IDLE only what changes once it has begun:
            # a NOOP first collects what came during the pass.
            _check(await client.noop(), "NOOP")
            if self._news:
                continue  # mail came during the pass: another pass first
            while not pushes.empty():
                pushes.get_nowait()   # what the last IDLE left: the pass has seen it
            # IDLE until the server tells of a change, or for at most poll_seconds (a
            # message the handler refused is offered again then, and so is one announced
            # in the instant before IDLE began; servers also end IDLE after ~30 minutes).
            idle = await client.idle_start(timeout=wait)
            if not self._news:
                self.waiting.set()
                try:
                    # Not aioimaplib's wait_server_push: its wait_for can swallow a
                    # cancellation (Python 3.11); asyncio.timeout does not.
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(wait + self._settings.timeout):
                            await pushes.get()
                finally:
                    self.waiting.clear()
            client.idle_done()
            _check(await asyncio.wait_for(idle, self._settings.timeout), "IDLE")
