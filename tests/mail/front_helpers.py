"""What the mail front end's tests share: a service over a real SQLite store, the mail
front end wired as ``urbanist mail`` wires it (a RoutingNotifier with the mail transport),
an SMTP sender kept in memory (it can fail on demand, with the real failure classes), and
replies written the way mail clients write them."""

from __future__ import annotations

import email
import email.policy
import hashlib
import html
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from bot.clock import FakeClock
from bot.mail.front import MailFront
from bot.mail.smtp_out import PermanentFailure, TemporaryFailure
from bot.mail.store import MailStore
from bot.service import MemoryNotifier, Notification, TableService
from bot.service.notifications import Delivery
from bot.service.routing import RoutingNotifier
from bot.store import SqliteStore

BOT = "play@urbanist.test"


# ---------------------------------------------------------------- writing mail


def reply(sent: EmailMessage, sender: str, first_line: str, *, shape: str = "gmail",
          message_id: str | None = None) -> bytes:
    """A reply to ``sent`` the way a client writes one: the move on the first line, the
    mail quoted below (Gmail: 'On ... wrote:' and '>' lines; Outlook: a From/Sent block;
    Thunderbird: bottom posting is not used for moves)."""
    msg = EmailMessage()
    msg["From"] = f"Player <{sender}>"
    msg["To"] = str(sent["Reply-To"] or sent["From"])
    msg["Subject"] = "Re: " + str(sent["Subject"])
    msg["Message-ID"] = message_id or make_msgid(domain="client.test")
    msg["In-Reply-To"] = str(sent["Message-ID"])
    body = sent.get_body(("plain",))
    quoted = body.get_content() if body is not None else ""
    if shape == "html":
        # Outlook on the web and some phones: HTML only, the move in a div, the mail
        # quoted in a blockquote.
        escaped = html.escape(str(quoted)).replace("\n", "<br>")
        msg.set_content(f"<html><body><div dir=\"ltr\">{html.escape(first_line)}</div>"
                        f"<div class=\"gmail_quote\">On Fri, 27 Nov 2026, Urbanist "
                        f"&lt;{BOT}&gt; wrote:<br><blockquote>{escaped}</blockquote></div>"
                        "</body></html>", subtype="html")
        return bytes(msg)
    if shape == "thunderbird":
        text = (f"{first_line}\n\nOn 27/11/2026 10:00, Urbanist wrote:\n"
                + "\n".join("> " + line for line in str(quoted).splitlines()))
        msg.set_content(text)
        msg.set_param("format", "flowed")
        return bytes(msg)
    if shape == "french":
        text = (f"{first_line}\n\nEnvoyé de mon iPhone\n\nLe ven. 27 nov. 2026 à 10:00, "
                f"Urbanist <{BOT}> a écrit :\n"
                + "\n".join("> " + line for line in str(quoted).splitlines()))
        msg.set_content(text)
        return bytes(msg)
    if shape == "outlook":
        text = (f"{first_line}\n\n________________________________\nFrom: Urbanist <{BOT}>\n"
                f"Sent: Friday, November 27, 2026 10:00\nTo: {sender}\n"
                f"Subject: {sent['Subject']}\n\n{quoted}")
    else:
        text = (f"{first_line}\n\nOn Fri, 27 Nov 2026 at 10:00, Urbanist <{BOT}> wrote:\n"
                + "\n".join("> " + line for line in str(quoted).splitlines()))
    msg.set_content(text)
    return bytes(msg)


def command_mail(sender: str, line: str, *, to: str = BOT, subject: str = "",
                 headers: Mapping[str, str] | None = None,
                 message_id: str | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject or line
    msg["Message-ID"] = message_id or make_msgid(domain="client.test")
    for key, value in (headers or {}).items():
        msg[key] = value
    msg.set_content(line + "\n")
    return bytes(msg)


def bounce_mail(failed: str) -> bytes:
    raw = (f"From: MAILER-DAEMON@mx.test\nTo: {BOT}\nSubject: Undelivered Mail\n"
           "Auto-Submitted: auto-replied\nMessage-ID: <bounce-"
           f"{hashlib.sha1(failed.encode()).hexdigest()}@mx.test>\nMIME-Version: 1.0\n"
           "Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\n\n"
           "--b\nContent-Type: text/plain\n\nYour mail could not be delivered.\n\n"
           "--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.test\n\n"
           f"Final-Recipient: rfc822; {failed}\nAction: failed\nStatus: 5.1.1\n\n--b--\n")
    return raw.encode()


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    return str(body.get_content()) if body is not None else ""


def html_of(msg: EmailMessage) -> str:
    body = msg.get_body(("html",))
    return str(body.get_content()) if body is not None else ""


# ---------------------------------------------------------------- sending mail


@dataclass
class MemorySender:
    """An SMTP sender that keeps what it sends; ``fail(n, kind)`` makes the next ``n``
    sends fail as the real sender does (``temporary`` 4xx, ``permanent`` 5xx)."""

    sent: list[EmailMessage] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    history: list[EmailMessage] = field(default_factory=list)  # ``clear`` keeps these

    refused: set[str] = field(default_factory=set)

    def fail(self, count: int, kind: str = "temporary") -> None:
        self.failures += [kind] * count

    def refuse(self, address: str) -> None:
        """Every mail to ``address`` is refused for good (550), as for a closed mailbox."""
        self.refused.add(address.lower())

    async def send(self, message: EmailMessage) -> None:
        if str(message["To"]).lower() in self.refused:
            raise PermanentFailure("550 5.1.1 no such user", (str(message["To"]),))
        if self.failures:
            kind = self.failures.pop(0)
            if kind == "permanent":
                raise PermanentFailure("550 5.1.1 no such user", (str(message["To"]),))
            raise TemporaryFailure("421 4.3.2 try later", 0.0)
        # As it goes over the wire: bytes, parsed back by the receiving side.
        parsed = email.message_from_bytes(bytes(message), policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        self.sent.append(parsed)
        self.history.append(parsed)

    def to(self, address: str, *, ever: bool = False) -> list[EmailMessage]:
        """What went to ``address`` since the last ``clear`` (``ever``: at all)."""
        return [m for m in (self.history if ever else self.sent)
                if str(m["To"]).lower() == address.lower()]

    def clear(self) -> None:
        self.sent.clear()


@dataclass
class HomeNotifier(MemoryNotifier):
    """The table's home (a Discord channel) in these tests: keeps what it is given."""

    inline: bool = False

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        return await super().deliver(notes)


@dataclass
class Rig:
    service: TableService
    front: MailFront
    sender: MemorySender
    store: SqliteStore
    clock: FakeClock
    home: HomeNotifier

    async def settle(self) -> None:
        """Every bot move and every owed mail sent."""
        for _ in range(50):
            for table_id in await self.store.table_ids(["running"]):
                await self.service.settle(table_id)
            await self.service.delivery.sweep()
            await self.service.delivery.idle()
            if not await self.store.outbox_tables(self.clock.now()):
                return

    async def mail(self, raw: bytes, **kwargs: Any) -> bool:
        handled = await self.front.handle(raw, **kwargs)
        await self.settle()
        return handled


async def open_rig(path: Path, *, clock: FakeClock | None = None) -> Rig:
    clock = clock or FakeClock()
    store = await SqliteStore.open(path)
    sender = MemorySender()
    front = MailFront(BOT, sender, MailStore(store), clock=clock)
    home = HomeNotifier()
    service = TableService(store, RoutingNotifier(home, front.notifier), clock=clock)
    front.attach(service)
    await front.start()
    return Rig(service, front, sender, store, clock, home)


@asynccontextmanager
async def rig(path: Path, *, clock: FakeClock | None = None) -> AsyncIterator[Rig]:
    r = await open_rig(path, clock=clock)
    try:
        yield r
    finally:
        await r.service.delivery.idle()
        await r.service.close()
        await r.store.close()
