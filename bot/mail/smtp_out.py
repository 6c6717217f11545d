"""Sending mail through the operator's SMTP submission server (aiosmtplib).

Each failure is sorted for the outbox: ``TemporaryFailure`` (a 4xx answer, a refused or
dropped connection, a timeout, and our own login or sender address refused, which the
operator fixes without the player doing anything) is retried later; ``PermanentFailure``
(a 5xx about the recipient or the message) marks the seat unreachable. One connection
is kept open while mail keeps coming and closed after ``IDLE_SECONDS`` without any.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.message
import logging
import ssl

import aiosmtplib

from bot.mail.settings import MailSettings

log = logging.getLogger(__name__)

# A connection unused this long is closed (servers drop idle ones after a few minutes).
IDLE_SECONDS = 20.0
# Our own login or sender address refused: the operator must fix a setting, so there is
# no point retrying every few seconds.
CONFIG_RETRY_SECONDS = 300.0


class TemporaryFailure(Exception):
    """Try again later: ``after`` seconds when the cause suggests a delay, else the
    outbox's own backoff."""

    def __init__(self, reason: str, after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.after = after


class PermanentFailure(Exception):
    """The server refused for good (5xx): sending again would fail again.
    ``recipients`` are the addresses refused (empty when the message itself was)."""

    def __init__(self, reason: str, recipients: tuple[str, ...] = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.recipients = recipients


def _answer(code: int, message: str) -> str:
    return f"{code} {message}".strip()


class SmtpSender:
    def __init__(self, settings: MailSettings, *,
                 tls_context: ssl.SSLContext | None = None) -> None:
        # tls_context: to trust a private certificate authority (tests, a relay on a
        # private network); None verifies the server against the system's authorities.
        self._settings = settings
        self._tls_context = tls_context
        self._client: aiosmtplib.SMTP | None = None
        self._lock = asyncio.Lock()
        self._idle: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Future[None]] = set()
        self.connections = 0   # connections opened so far (for tests and figures)

    def _new_client(self) -> aiosmtplib.SMTP:
        s = self._settings
        return aiosmtplib.SMTP(
            hostname=s.smtp_host, port=s.smtp_port, timeout=s.timeout,
            use_tls=s.smtp_security == "tls",
            # 'starttls' insists on it (a server that does not offer it is refused);
            # 'none' never tries it, for a relay on the same machine.
            start_tls=s.smtp_security == "starttls",
            username=s.smtp_user or None, password=s.smtp_password or None,
            tls_context=self._tls_context)

    async def _connected(self) -> aiosmtplib.SMTP:
        client = self._client
        if client is not None and client.is_connected:
            try:
                # A kept connection may have been dropped by the server meanwhile:
                # check before the message, so that no message is sent twice.
                await client.noop()
                return client
            except aiosmtplib.SMTPException:
                await self._drop()
        client = self._new_client()
        await client.connect()
        self.connections += 1
        self._client = client
        return client

    async def send(self, message: email.message.EmailMessage) -> None:
        """Deliver ``message`` to its To/Cc/Bcc recipients, bounces going back to the
        bot's address. Raises TemporaryFailure or PermanentFailure."""
        async with self._lock:
            if self._idle is not None:
                self._idle.cancel()
                self._idle = None
            try:
                client = await self._connected()
                refused, _ = await client.send_message(message, sender=self._settings.address)
            except aiosmtplib.SMTPRecipientsRefused as exc:
                await self._after_refusal()
                raise self._refused({r.recipient: (r.code, r.message)
                                     for r in exc.recipients}) from exc
            except (aiosmtplib.SMTPAuthenticationError, aiosmtplib.SMTPSenderRefused) as exc:
                await self._drop()
                log.error("the SMTP server refuses the bot's login or sender address: %s",
                          _answer(exc.code, exc.message))
                raise TemporaryFailure(_answer(exc.code, exc.message),
                                       after=CONFIG_RETRY_SECONDS) from exc
            except aiosmtplib.SMTPResponseException as exc:
                await self._after_refusal()
                reason = _answer(exc.code, exc.message)
                if 400 <= exc.code < 500:
                    raise TemporaryFailure(reason) from exc
                raise PermanentFailure(reason) from exc
            except (TimeoutError, aiosmtplib.SMTPException, OSError) as exc:
                # Refused, reset or timed-out connections, TLS failures, a server without
                # STARTTLS: nothing was accepted, so trying again later loses nothing.
                await self._drop()
                raise TemporaryFailure(f"{type(exc).__name__}: {exc}") from exc
            if refused:
                # Some recipients took it, others did not: the refused ones decide.
                raise self._refused({address: (answer.code, answer.message)
                                     for address, answer in refused.items()})
            self._idle = asyncio.get_running_loop().call_later(IDLE_SECONDS, self._start_close)

    def _refused(self, refused: dict[str, tuple[int, str]]) -> Exception:
        reason = "; ".join(f"{address}: {_answer(code, message)}"
                           for address, (code, message) in sorted(refused.items()))
        permanent = tuple(sorted(a.lower() for a, (code, _) in refused.items() if code >= 500))
        if permanent:
            return PermanentFailure(reason, recipients=permanent)
        return TemporaryFailure(reason)

    async def _after_refusal(self) -> None:
        """After a refused transaction the connection is still good once reset; a server
        that hung up after its refusal (421) is dropped."""
        client = self._client
        if client is None:
            return
        try:
            await client.rset()
        except (TimeoutError, aiosmtplib.SMTPException, OSError):
            await self._drop()

    def _start_close(self) -> None:
        task = asyncio.ensure_future(self._close_idle())
        self._tasks.add(task)   # kept until done: the loop only holds weak references
        task.add_done_callback(self._tasks.discard)

    async def _close_idle(self) -> None:
        async with self._lock:
            self._idle = None
            await self._drop(polite=True)

    async def _drop(self, *, polite: bool = False) -> None:
        client, self._client = self._client, None
        if client is None:
            return
        if polite and client.is_connected:
            with contextlib.suppress(aiosmtplib.SMTPException, OSError, asyncio.TimeoutError):
                await client.quit()
                return
        client.close()

    async def close(self) -> None:
        async with self._lock:
            if self._idle is not None:
                self._idle.cancel()
                self._idle = None
            await self._drop(polite=True)
