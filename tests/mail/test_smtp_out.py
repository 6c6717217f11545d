"""SmtpSender against a real SMTP server (aiosmtpd on the loopback): what arrives, and
how each kind of refusal or outage is reported to the outbox."""

from __future__ import annotations

import asyncio
from email.message import EmailMessage

import pytest

from bot.mail.settings import MailSettings
from bot.mail.smtp_out import CONFIG_RETRY_SECONDS, PermanentFailure, SmtpSender, TemporaryFailure
from tests.mail.servers import SmtpSink, TlsPair

BOT = "play@example.org"


def settings(sink: SmtpSink | None = None, *, port: int | None = None, security: str = "none",
             user: str | None = None, password: str | None = None,
             timeout: float = 5.0) -> MailSettings:
    return MailSettings(address=BOT, smtp_host="127.0.0.1",
                        smtp_port=port if port is not None else sink.port if sink else 1,
                        smtp_security=security, smtp_user=user, smtp_password=password,
                        imap_host=None, imap_port=993, imap_security="tls", imap_user=None,
                        imap_password=None, timeout=timeout)


def message(to: str | list[str] = "ann@example.org", subject: str = "Table 12: your turn",
            text: str = "Play R7+B12 by replying.") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = f"Urbanist <{BOT}>"
    msg["To"] = ", ".join([to] if isinstance(to, str) else to)
    msg["Subject"] = subject
    msg.set_content(text)
    return msg


async def test_a_message_arrives_with_its_envelope(smtp_sink: SmtpSink) -> None:
    sender = SmtpSender(settings(smtp_sink))
    try:
        await sender.send(message(subject="Table 12: à vous", text="Jouez R7+B12 ✓"))
    finally:
        await sender.close()
    [delivery] = smtp_sink.deliveries
    assert delivery.mail_from == BOT          # bounces come back to the bot's mailbox
    assert delivery.rcpt_tos == ("ann@example.org",)
    assert delivery.message["Subject"] == "Table 12: à vous"
    assert delivery.message.get_content().strip() == "Jouez R7+B12 ✓"


async def test_one_connection_serves_a_burst(smtp_sink: SmtpSink) -> None:
    sender = SmtpSender(settings(smtp_sink))
    try:
        await asyncio.gather(*(sender.send(message(to=f"p{i}@example.org"))
                               for i in range(5)))
    finally:
        await sender.close()
    assert sorted(d.rcpt_tos[0] for d in smtp_sink.deliveries) == [
        f"p{i}@example.org" for i in range(5)]
    assert smtp_sink.connections == 1


async def test_a_kept_connection_the_server_dropped_is_replaced(smtp_sink: SmtpSink) -> None:
    sender = SmtpSender(settings(smtp_sink))
    try:
        await sender.send(message(subject="one"))
        smtp_sink.drop_connections()
        await sender.send(message(subject="two"))
    finally:
        await sender.close()
    assert [m["Subject"] for m in smtp_sink.messages] == ["one", "two"]
    assert smtp_sink.connections == 2


async def test_a_4xx_is_temporary_and_the_retry_delivers_once(smtp_sink: SmtpSink) -> None:
    smtp_sink.fail_next(1, 451, "4.3.0 Mailbox busy")
    sender = SmtpSender(settings(smtp_sink))
    try:
        with pytest.raises(TemporaryFailure) as failure:
            await sender.send(message())
        assert "451" in failure.value.reason
        assert smtp_sink.messages == []
        await sender.send(message())
    finally:
        await sender.close()
    assert len(smtp_sink.messages) == 1


async def test_a_5xx_on_the_message_is_permanent(smtp_sink: SmtpSink) -> None:
    smtp_sink.fail_next(1, 554, "5.7.1 Message rejected")
    sender = SmtpSender(settings(smtp_sink))
    try:
        with pytest.raises(PermanentFailure) as failure:
            await sender.send(message())
        # The connection is still good for the next message.
        await sender.send(message(to="bob@example.org"))
    finally:
        await sender.close()
    assert "554" in failure.value.reason
    assert [d.rcpt_tos for d in smtp_sink.deliveries] == [("bob@example.org",)]


async def test_a_refused_recipient_is_permanent_and_named(smtp_sink: SmtpSink) -> None:
    smtp_sink.refuse("gone@example.org")
    sender = SmtpSender(settings(smtp_sink))
    try:
        with pytest.raises(PermanentFailure) as alone:
            await sender.send(message(to="Gone@example.org"))
        with pytest.raises(PermanentFailure) as among:
            await sender.send(message(to=["ann@example.org", "gone@example.org"]))
    finally:
        await sender.close()
    assert alone.value.recipients == ("gone@example.org",)
    assert among.value.recipients == ("gone@example.org",)
    assert "550" in among.value.reason
    # The one who exists got it once.
    assert [d.rcpt_tos for d in smtp_sink.deliveries] == [("ann@example.org",)]


async def test_a_recipient_refused_for_now_is_temporary(smtp_sink: SmtpSink) -> None:
    smtp_sink.refuse("full@example.org", 452, "4.2.2 Mailbox full")
    sender = SmtpSender(settings(smtp_sink))
    try:
        with pytest.raises(TemporaryFailure) as failure:
            await sender.send(message(to="full@example.org"))
    finally:
        await sender.close()
    assert "452" in failure.value.reason


async def test_an_outage_is_temporary_and_sending_resumes(smtp_sink: SmtpSink) -> None:
    sender = SmtpSender(settings(smtp_sink))
    try:
        await sender.send(message(subject="before"))
        smtp_sink.stop()
        with pytest.raises(TemporaryFailure):
            await sender.send(message(subject="during"))
        smtp_sink.start()
        await sender.send(message(subject="after"))
    finally:
        await sender.close()
    assert [m["Subject"] for m in smtp_sink.messages] == ["before", "after"]


async def test_nothing_listening_is_temporary() -> None:
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()
    sender = SmtpSender(settings(port=port))
    with pytest.raises(TemporaryFailure):
        await sender.send(message())
    await sender.close()


async def test_a_silent_server_times_out_as_temporary() -> None:
    # Accepts the connection and never greets.
    held: list[asyncio.StreamWriter] = []
    server = await asyncio.start_server(lambda r, w: held.append(w), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    sender = SmtpSender(settings(port=port, timeout=0.3))
    try:
        with pytest.raises(TemporaryFailure):
            await sender.send(message())
    finally:
        await sender.close()
        for writer in held:
            writer.close()
        server.close()


async def test_login_is_used_and_a_refused_login_is_not_the_players_fault() -> None:
    sink = SmtpSink(login=("bot", "right"))
    try:
        wrong = SmtpSender(settings(sink, user="bot", password="wrong"))
        with pytest.raises(TemporaryFailure) as failure:
            await wrong.send(message())
        await wrong.close()
        right = SmtpSender(settings(sink, user="bot", password="right"))
        await right.send(message())
        await right.close()
    finally:
        sink.close()
    assert failure.value.after == CONFIG_RETRY_SECONDS
    assert len(sink.messages) == 1


@pytest.mark.parametrize("security", ["starttls", "tls"])
async def test_tls_with_login(security: str, tls_pair: TlsPair) -> None:
    server_tls, client_tls = tls_pair.server, tls_pair.client
    sink = SmtpSink(security=security, tls=server_tls, login=("bot", "pw"))
    try:
        sender = SmtpSender(settings(sink, security=security, user="bot", password="pw"),
                            tls_context=client_tls)
        await sender.send(message())
        await sender.close()
        # A client that does not trust the certificate sends nothing.
        doubtful = SmtpSender(settings(sink, security=security, user="bot", password="pw"))
        with pytest.raises(TemporaryFailure):
            await doubtful.send(message())
        await doubtful.close()
    finally:
        sink.close()
    assert len(sink.messages) == 1


async def test_starttls_required_but_not_offered_sends_nothing(smtp_sink: SmtpSink) -> None:
    sender = SmtpSender(settings(smtp_sink, security="starttls"))
    with pytest.raises(TemporaryFailure):
        await sender.send(message())
    await sender.close()
    assert smtp_sink.messages == []


async def test_the_kept_connection_is_closed_when_mail_stops(
        smtp_sink: SmtpSink, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.mail.smtp_out.IDLE_SECONDS", 0.05)
    sender = SmtpSender(settings(smtp_sink))
    await sender.send(message())
    async with asyncio.timeout(15):
        while smtp_sink.open_connections():
            await asyncio.sleep(0.02)
    await sender.send(message())        # and a new one is opened for the next mail
    await sender.close()
    assert smtp_sink.connections == 2
    assert len(smtp_sink.messages) == 2
