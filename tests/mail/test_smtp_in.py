"""SmtpReceiver (aiosmtpd) as a sending mail server sees it: a message is acknowledged
only once the handler took it, too big is refused with 552, a handler failure is a 451
so the sender keeps the message and tries again."""

from __future__ import annotations

import asyncio
import email
import email.policy
from collections.abc import AsyncIterator, Awaitable, Callable

import aiosmtplib
import pytest

from bot.mail.smtp_in import SmtpReceiver

BOT = "play@example.org"
Handler = Callable[[bytes, tuple[str, ...]], Awaitable[None]]


def mail(subject: str = "join 12", size: int = 0) -> bytes:
    return (f"From: ann@example.net\r\nTo: {BOT}\r\nSubject: {subject}\r\n"
            f"Message-ID: <{subject.replace(' ', '.')}@example.net>\r\n\r\n"
            f"join 12\r\n" + ("x" * 76 + "\r\n") * (size // 78)).encode()


class Inbox:
    def __init__(self) -> None:
        self.got: list[tuple[bytes, tuple[str, ...]]] = []
        self.failing = False

    async def __call__(self, raw: bytes, rcpts: tuple[str, ...]) -> None:
        if self.failing:
            raise RuntimeError("database unavailable")
        self.got.append((raw, rcpts))


@pytest.fixture
def inbox() -> Inbox:
    return Inbox()


@pytest.fixture
async def receiver(inbox: Inbox) -> AsyncIterator[SmtpReceiver]:
    server = SmtpReceiver("127.0.0.1", 0, inbox, max_bytes=10_000,
                          domains=("example.org",))
    await server.start()
    yield server
    await server.stop()


async def deliver(port: int, raw: bytes, rcpts: list[str] | None = None,
                  mail_options: list[str] | None = None) -> None:
    """What a sending mail server does."""
    await aiosmtplib.send(raw, sender="ann@example.net", recipients=rcpts or [BOT],
                          hostname="127.0.0.1", port=port, start_tls=False, timeout=5,
                          mail_options=mail_options)


async def deliver_by_hand(port: int, raw: bytes) -> bytes:
    """A sender that does not announce the size (aiosmtplib always does): the code
    answering the data."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    async def answer() -> bytes:
        while True:
            line = await reader.readline()
            if line[3:4] != b"-":
                return line[:3]
    try:
        await answer()
        for command in (b"EHLO sender.test", b"MAIL FROM:<ann@example.net>",
                        f"RCPT TO:<{BOT}>".encode(), b"DATA"):
            writer.write(command + b"\r\n")
            assert (await answer())[:1] in (b"2", b"3")
        writer.write(raw + b".\r\n")
        return await answer()
    finally:
        writer.close()


async def test_a_message_is_handed_over_with_its_recipients(
        receiver: SmtpReceiver, inbox: Inbox) -> None:
    assert receiver.port != 0
    token = "play+t12.s3.v45.abcdefghijklmnopqrstuvwxyz@example.org"
    await deliver(receiver.port, mail(), rcpts=[token, BOT])
    [(raw, rcpts)] = inbox.got
    assert rcpts == (token, BOT)
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert parsed["Subject"] == "join 12"
    assert parsed.get_content().startswith("join 12")


async def test_oversized_mail_is_refused_with_552(receiver: SmtpReceiver,
                                                  inbox: Inbox) -> None:
    big = mail(size=20_000)
    # Announced in MAIL FROM (SIZE=), refused before the data is sent...
    with pytest.raises(aiosmtplib.SMTPSenderRefused) as announced:
        await deliver(receiver.port, big, mail_options=[f"SIZE={len(big)}"])
    # ... and found out while reading the data when not announced.
    assert await deliver_by_hand(receiver.port, big) == b"552"
    assert announced.value.code == 552
    assert inbox.got == []
    await deliver(receiver.port, mail(size=100))
    assert len(inbox.got) == 1


async def test_a_handler_failure_is_a_451_and_the_retry_is_kept(
        receiver: SmtpReceiver, inbox: Inbox) -> None:
    inbox.failing = True
    with pytest.raises(aiosmtplib.SMTPDataError) as refused:
        await deliver(receiver.port, mail())
    assert refused.value.code == 451
    inbox.failing = False
    await deliver(receiver.port, mail())     # the sender's retry
    assert len(inbox.got) == 1


async def test_other_domains_are_not_relayed(receiver: SmtpReceiver, inbox: Inbox) -> None:
    with pytest.raises(aiosmtplib.SMTPRecipientsRefused) as refused:
        await deliver(receiver.port, mail(), rcpts=["victim@elsewhere.net"])
    assert [r.code for r in refused.value.recipients] == [550]
    assert inbox.got == []


async def test_a_stopped_receiver_refuses_connections(receiver: SmtpReceiver,
                                                      inbox: Inbox) -> None:
    port = receiver.port
    await receiver.stop()
    with pytest.raises(aiosmtplib.SMTPConnectError):
        await deliver(port, mail())
    await receiver.start()     # on the same port again
    await deliver(port, mail())
    assert len(inbox.got) == 1
