"""Kill ``urbanist mail`` (SIGKILL) at random while a game is played by mail through the
real servers, start it again, and count: every reply handled once, every accepted move
applied once, nothing lost, and the table's log replays to its snapshot.

The bot runs as the operator runs it (``python -m bot.cli mail``, settings from the
environment) in a process of its own; the players write to the IMAP server and read
what the bot sends to the SMTP sink. CI: a few kills in the first moves of a 3-player
Skybridge game; ``URBANIST_MAIL_FULL=1``: a whole 4-player game, killed every few moves.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

from bot.service import MemoryNotifier, TableService
from bot.store import SqliteStore
from tests.mail.front_helpers import command_mail, reply
from tests.mail.servers import ImapTestServer, SmtpSink

ROOT = Path(__file__).resolve().parent.parent.parent
BOT = "bot@example.org"
FULL = bool(os.environ.get("URBANIST_MAIL_FULL"))
PLAYERS = ("ann@example.net", "bob@example.net", "cat@example.net", "dan@example.net")
WAIT = 60.0


class Worker:
    """``urbanist mail`` in a subprocess, killed and started again at will."""

    def __init__(self, db: Path, smtp: SmtpSink, imap: ImapTestServer, log: Path) -> None:
        self.env = {**os.environ, "URBANIST_MAIL_ADDRESS": BOT,
                    "URBANIST_SMTP_HOST": smtp.host, "URBANIST_SMTP_PORT": str(smtp.port),
                    "URBANIST_SMTP_SECURITY": "none", "URBANIST_IMAP_HOST": imap.host,
                    "URBANIST_IMAP_PORT": str(imap.port), "URBANIST_IMAP_SECURITY": "none",
                    "URBANIST_IMAP_USER": imap.user, "URBANIST_IMAP_PASSWORD": imap.password,
                    "URBANIST_MAIL_POLL": "0.3", "URBANIST_BOT_LEVEL": "easy",
                    "PYTHONPATH": str(ROOT)}
        self.db = db
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self.kills = 0

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot.cli", "mail", "--db", str(self.db)],
                cwd=ROOT, env=self.env, stdout=out, stderr=out)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.kills += 1

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()


def unique(messages: list[EmailMessage]) -> list[EmailMessage]:
    """What the players received, each Message-ID once (a resend after a crash carries
    the one it had: the client shows it once)."""
    seen: set[str] = set()
    kept = []
    for m in messages:
        key = str(m["Message-ID"])
        if key not in seen:
            seen.add(key)
            kept.append(m)
    return kept


async def wait_for(condition: object, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def test_killed_at_random_nothing_lost_nothing_twice(
        tmp_path: Path, smtp_sink: SmtpSink, imap_server: ImapTestServer) -> None:
    players = PLAYERS[:4 if FULL else 3]
    limit = None if FULL else 12
    rng = random.Random(7)
    worker = Worker(tmp_path / "mail.sqlite3", smtp_sink, imap_server, tmp_path / "bot.log")
    worker.start()
    replies: dict[str, str] = {}  # our reply's Message-ID -> the decision mail it answers
    try:
        # The table, opened and started by mail.
        imap_server.append(command_mail(players[0], f"new skybridge players={len(players)}",
                                        to=BOT, message_id="<new@t>"))
        await wait_for(lambda: any(str(m["To"]) == players[0] for m in smtp_sink.messages),
                       "the table")
        for n, address in enumerate(players[1:]):
            imap_server.append(command_mail(address, "join 1", to=BOT,
                                            message_id=f"<join{n}@t>"))
        await wait_for(lambda: len({str(m["To"]) for m in smtp_sink.messages}) == len(players),
                       "the joins")
        imap_server.append(command_mail(players[0], "start 1", to=BOT, message_id="<go@t>"))

        def outstanding() -> list[EmailMessage]:
            """Each player's newest decision mail, when not answered yet."""
            mails = unique(smtp_sink.messages)
            found = []
            for address in players:
                mine = [m for m in mails if str(m["To"]) == address
                        and "+t" in str(m["Reply-To"] or "")]
                if mine and str(mine[-1]["Message-ID"]) not in replies.values():
                    found.append(mine[-1])
            return found

        def finished() -> bool:
            return sum("final scores" in str(m["Subject"])
                       for m in unique(smtp_sink.messages)) == len(players)

        while not finished() and (limit is None or len(replies) < limit):
            await wait_for(lambda: bool(outstanding()) or finished(), "a decision")
            if finished():
                break
            decision = outstanding()[0]
            address = str(decision["To"])
            raw = reply(decision, address, "#1", message_id=f"<r{len(replies)}@t>")
            replies[f"<r{len(replies)}@t>"] = str(decision["Message-ID"])
            imap_server.append(raw)
            if rng.random() < (0.3 if FULL else 0.34):
                # Somewhere between reading the reply and sending what it owes.
                await asyncio.sleep(rng.uniform(0.0, 0.6))
                worker.kill()
                worker.start()
        # Everything appended is read and handled before the count.
        await wait_for(lambda: imap_server.unseen() == [], "the mailbox read")
        await asyncio.sleep(1.0)
    finally:
        worker.stop()
    assert worker.kills >= 2
    store = await SqliteStore.open(tmp_path / "mail.sqlite3")
    try:
        from bot.mail.store import MailStore

        mail = MailStore(store)
        for message_id in replies:
            assert await mail.handled(message_id), message_id
        answered = {str(m["In-Reply-To"]) for m in unique(smtp_sink.messages)
                    if str(m["In-Reply-To"] or "") in replies}
        moves = [a for a in await store.load_actions(1) if a.source == "player"]
        # Each reply either played its move once, or was answered (refused); never both,
        # never twice.
        assert len(moves) == len(replies) - len(answered)
        assert len(moves) >= len(replies) // 2
        service = TableService(store, MemoryNotifier())
        report = await service.verify(1)
        assert report.ok, report
        if FULL:
            assert (await service.info(1)).status == "finished"
        await service.close()
    finally:
        await store.close()
