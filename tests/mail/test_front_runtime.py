"""The mail front end as ``urbanist mail`` runs it (``bot.mail.cli.serve``): settings as
the environment gives them, the real IMAP server read with IDLE, the SMTP sink; and the
SMTP listener of an operator with their own domain."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import smtplib
import socket
from collections.abc import Callable
from pathlib import Path

from bot.mail.cli import mail_command, serve
from bot.mail.settings import MailSettings
from tests.mail.front_helpers import command_mail
from tests.mail.servers import ImapTestServer, SmtpSink

BOT = "bot@example.org"


async def until(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


async def test_urbanist_mail_reads_the_mailbox_and_answers(
        tmp_path: Path, smtp_sink: SmtpSink, imap_server: ImapTestServer) -> None:
    settings = imap_server.settings_for(BOT, smtp=smtp_sink)
    task = asyncio.create_task(serve(settings, tmp_path / "mail.sqlite3"))
    try:
        imap_server.append(command_mail("ann@example.net", "new skybridge players=2",
                                        to=BOT))
        await until(lambda: any("Table #1" in str(m["Subject"]) or "open" in str(
            m.get_body(("plain",)).get_content()) for m in smtp_sink.messages  # type: ignore[union-attr]
            if str(m["To"]) == "ann@example.net"))
        imap_server.append(command_mail("bob@example.net", "rejoindre 1", to=BOT))
        await until(lambda: any(str(m["To"]) == "bob@example.net" for m in smtp_sink.messages))
        bob = next(m for m in smtp_sink.messages if str(m["To"]) == "bob@example.net")
        assert "Vous avez une place" in str(bob.get_body(("plain",)).get_content())  # type: ignore[union-attr]
        await until(lambda: imap_server.unseen() == [])
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    # Every mail read was handled once: a restart reads nothing again.
    count = len(smtp_sink.messages)
    task = asyncio.create_task(serve(settings, tmp_path / "mail.sqlite3"))
    try:
        imap_server.set_unseen(imap_server.uids()[0])  # a \\Seen flag lost
        await asyncio.sleep(1.5)
        assert len(smtp_sink.messages) == count
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_an_own_domain_receives_by_smtp(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    with socket.socket() as probe:  # a free port for the listener
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = dataclasses.replace(
        MailSettings.from_env({}, address=BOT), smtp_host=smtp_sink.host,
        smtp_port=smtp_sink.port, smtp_security="none", listen=f"127.0.0.1:{port}")
    task = asyncio.create_task(serve(settings, tmp_path / "own.sqlite3"))

    def send() -> None:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
            client.sendmail("ann@example.net", [BOT], command_mail(
                "ann@example.net", "help", to=BOT))

    try:
        for _ in range(100):  # until the listener is up
            try:
                await asyncio.to_thread(send)
                break
            except OSError:
                await asyncio.sleep(0.1)
        await until(lambda: any(str(m["To"]) == "ann@example.net"
                                for m in smtp_sink.messages))
        answer = next(m for m in smtp_sink.messages if str(m["To"]) == "ann@example.net")
        assert "Urbanist runs board games by email" in str(
            answer.get_body(("plain",)).get_content())  # type: ignore[union-attr]
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def test_urbanist_mail_without_settings_says_what_to_set(capsys: object,
                                                        monkeypatch: object) -> None:
    import argparse

    import pytest

    mp: pytest.MonkeyPatch = monkeypatch  # type: ignore[assignment]
    for name in ("URBANIST_MAIL_ADDRESS", "URBANIST_SMTP_HOST", "URBANIST_SMTP_USER",
                 "URBANIST_SMTP_PASSWORD", "URBANIST_IMAP_HOST", "URBANIST_SMTP_LISTEN"):
        mp.delenv(name, raising=False)
    assert mail_command(argparse.Namespace(db=None, locale="en")) == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "URBANIST_MAIL_ADDRESS" in err and "1. " in err and "urbanist run --mail" in err
    assert mail_command(argparse.Namespace(db=None, locale="fr")) == 2
    assert "réglages" in capsys.readouterr().err  # type: ignore[attr-defined]
