"""Receiving mail directly (aiosmtpd), for an operator whose domain's MX points at the bot.

A message is acknowledged (250) only once the handler has returned: when the handler
raises, the sending server is told 451 and keeps the message to try again, so nothing
acknowledged is lost. Mail larger than ``max_bytes`` is refused with 552 (the sender's
server then bounces it to its author).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiosmtpd.smtp import SMTP, Envelope, Session

log = logging.getLogger(__name__)

# aiosmtpd logs every command at INFO, players' addresses included ("MAIL FROM:<...>"):
# those stay out of the operator's log unless they ask for this logger by its name.
_aiosmtpd_log = logging.getLogger("mail.log")
if _aiosmtpd_log.level == logging.NOTSET:
    _aiosmtpd_log.setLevel(logging.WARNING)

ReceiveHandler = Callable[[bytes, tuple[str, ...]], Awaitable[None]]


class _Hooks:
    """aiosmtpd's handler: the hooks it calls by name."""

    def __init__(self, handler: ReceiveHandler, domains: frozenset[str] | None) -> None:
        self._handler = handler
        self._domains = domains

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, rcpt_options: list[str]) -> str:
        domain = address.rpartition("@")[2].lower()
        if self._domains is not None and domain not in self._domains:
            # Not one of ours: refusing here keeps the listener from being used as a relay
            # and tells the sender at once.
            return "550 5.7.1 Relaying denied"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session,
                          envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        try:
            await self._handler(raw, tuple(envelope.rcpt_tos))
        except Exception:
            # Not the message's content in the log: it is private.
            log.exception("the mail handler failed on a message of %d bytes; the sender "
                          "is told to try again later", len(raw))
            return "451 4.3.0 Temporary failure, please try again later"
        return "250 OK"


class SmtpReceiver:
    def __init__(self, host: str, port: int, handler: ReceiveHandler, *, max_bytes: int,
                 domains: tuple[str, ...] | None = None, hostname: str | None = None,
                 timeout: float = 300.0) -> None:
        # domains: the recipient domains accepted (None: any); hostname: the name given
        # in the greeting (default: this machine's fully qualified name).
        self._host = host
        self.port = port
        self._hooks = _Hooks(handler, frozenset(d.lower() for d in domains)
                             if domains is not None else None)
        self._max_bytes = max_bytes
        self._hostname = hostname
        self._timeout = timeout
        self._server: asyncio.Server | None = None

    def _protocol(self) -> SMTP:
        return SMTP(self._hooks, data_size_limit=self._max_bytes, hostname=self._hostname,
                    timeout=self._timeout, enable_SMTPUTF8=True,
                    loop=asyncio.get_running_loop())

    async def start(self) -> None:
        """Listen; with port 0 the system picks a free port, then in ``port``."""
        if self._server is not None:
            return
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self._protocol, self._host, self.port)
        sockets: Any = self._server.sockets
        self.port = int(sockets[0].getsockname()[1])

    async def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        # From Python 3.12 wait_closed also waits for open sessions, which a silent
        # client keeps up to ``timeout``: new connections are refused already.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(server.wait_closed(), 1.0)
