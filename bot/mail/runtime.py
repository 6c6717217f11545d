"""The mail front end running: its transports (SMTP out; IMAP or an SMTP listener in)
around ``MailFront``, in the Discord bot's process (``urbanist run --mail``) or alone
(``urbanist mail``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from bot.mail.front import MailFront
from bot.mail.settings import MailSettings
from bot.service.notifications import Notifier
from bot.service.routing import RoutingNotifier

if TYPE_CHECKING:
    from bot.mail.imap_in import ImapSource
    from bot.mail.smtp_in import SmtpReceiver
    from bot.service import TableService

log = logging.getLogger(__name__)


class MailRuntime:
    def __init__(self, settings: MailSettings, *, sender: Any = None,
                 tls_context: Any = None) -> None:
        from bot.mail.smtp_out import SmtpSender

        self.settings = settings
        self.sender = sender or SmtpSender(settings)
        self.front = MailFront(settings.address, self.sender)
        self.tls_context = tls_context
        self.source: ImapSource | None = None
        self.receiver: SmtpReceiver | None = None
        self._task: asyncio.Task[None] | None = None

    def route(self, home: Notifier) -> RoutingNotifier:
        """The notifier the service gets: ``home`` (Discord, or nothing) beside mail."""
        return RoutingNotifier(home, self.front.notifier)

    async def start(self, service: TableService) -> None:
        """Attach to the running service and start reading mail."""
        from bot.mail.incoming import MAX_BYTES

        self.front.attach(service)
        await self.front.start()
        if self.settings.imap_host:
            from bot.mail.imap_in import ImapSource

            source: ImapSource | None = None

            async def handler(uid: int, raw: bytes) -> bool:
                validity = None if source is None else source.uidvalidity
                return await self.front.handle(raw, uid=uid, uidvalidity=validity)

            source = ImapSource(self.settings, handler, seen=self.front.seen,
                                tls_context=self.tls_context)
            self.source = source
            self._task = asyncio.get_running_loop().create_task(source.run(),
                                                                name="urbanist-imap")
        listen = self.settings.listen_address()
        if listen is not None:
            from bot.mail.smtp_in import SmtpReceiver

            self.receiver = SmtpReceiver(listen[0], listen[1], self.front.handle_smtp,
                                         max_bytes=MAX_BYTES)
            await self.receiver.start()
        log.info("mail: %s ready (%s)", self.settings.address,
                 "IMAP" if self.source else "SMTP listener")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None
        if self.receiver is not None:
            await self.receiver.stop()
            self.receiver = None
        with contextlib.suppress(Exception):
            await self.sender.close()
