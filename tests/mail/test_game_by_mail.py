"""Whole games played by mail through real servers: the bot sends through its SMTP
client to an aiosmtpd sink, the players' replies (written as Gmail, Outlook, Thunderbird,
an iPhone in French and HTML-only clients write them) are delivered to a real IMAP
server (pymap), and the bot reads them from there with its IMAP reader.

CI plays one whole 3-player game (Skybridge) through the servers, and the first ten
moves of each of the four; ``URBANIST_MAIL_FULL=1`` plays the four whole games through
the servers and through the front end alone (benchmarks/mail.py measures them)."""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.mail.front import MailFront
from bot.mail.imap_in import ImapSource
from bot.mail.smtp_out import SmtpSender
from bot.service import Actor, TableService
from bot.service.routing import RoutingNotifier
from bot.store import SqliteStore
from engine.core import Rng
from tests.mail.front_helpers import HomeNotifier, MemorySender, command_mail, reply, text_of
from tests.mail.servers import ImapTestServer, SmtpSink

BOT = "bot@example.org"  # the IMAP test server's mailbox user
PLAYERS = ("ann@example.net", "bob@example.net", "cat@example.net")
SHAPES = ("gmail", "outlook", "thunderbird", "french", "html")
GAMES = ("skybridge", "ginkgopolis", "quadropolis", "neotopia")
FULL = bool(os.environ.get("URBANIST_MAIL_FULL"))
MAX_MOVES = 1500
_COUNT = re.compile(r"Your moves, by number \((\d+)\)")


@dataclasses.dataclass
class Table:
    """A game played by mail: ``deliver(raw)`` hands a player's reply to the bot the way
    the setting does (the IMAP server, or the front end directly); ``outbox()`` is what
    the bot sent so far."""

    service: TableService
    front: MailFront
    deliver: Callable[[bytes], Any]
    outbox: Callable[[], list[EmailMessage]]
    clock: FakeClock

    async def settle(self) -> None:
        for _ in range(50):
            for table_id in await self.service.store.table_ids(["running"]):
                await self.service.settle(table_id)
            await self.service.delivery.sweep()
            await self.service.delivery.idle()
            if not await self.service.store.outbox_tables(self.clock.now()):
                return


@asynccontextmanager
async def by_mail(path: Path, sender: Any, deliver_raw: Callable[[MailFront], Any],
                  outbox: Callable[[], list[EmailMessage]]) -> AsyncIterator[Table]:
    clock = FakeClock()
    store = await SqliteStore.open(path)
    front = MailFront(BOT, sender, clock=clock)
    service = TableService(store, RoutingNotifier(HomeNotifier(), front.notifier), clock=clock)
    front.attach(service)
    await front.start()
    table = Table(service, front, deliver_raw(front), outbox, clock)
    try:
        yield table
    finally:
        await service.delivery.idle()
        await service.close()
        await store.close()
        close = getattr(sender, "close", None)
        if close is not None:
            await close()


async def mail_in(table: Table, raw: bytes) -> None:
    await table.deliver(raw)
    await table.settle()


def latest_decision(table: Table, address: str) -> EmailMessage | None:
    for message in reversed(table.outbox()):
        if str(message["To"]).lower() == address and "+t" in str(message["Reply-To"] or ""):
            found: EmailMessage = message
            return found
    return None


async def play(table: Table, game: str, seed: int, limit: int | None = None
               ) -> dict[str, Any]:
    """Open a 3-player table by mail, play it by replies to the end (or ``limit``
    moves); what happened."""
    host = PLAYERS[0]
    await mail_in(table, command_mail(host, f"new {game} players=3"))
    for address in PLAYERS[1:]:
        await mail_in(table, command_mail(address, "join 1"))
    info = await table.service.info(1)
    await table.service.configure(1, Actor("mail:" + host),
                                  settings=dataclasses.replace(info.settings,
                                                               seat_order="join"))
    await mail_in(table, command_mail(host, "start 1"))
    rng = Rng.from_seed(seed)
    moves = 0
    while (info := await table.service.info(1)).status == "running":
        assert moves < MAX_MOVES, "the game never ended"
        if limit is not None and moves >= limit:
            break
        waiting = [s for s in sorted(info.waiting) if not info.seats[s].is_bot]
        assert waiting, "nobody to wait for"
        seat = waiting[rng.randbelow(len(waiting))]
        address = str(info.seats[seat].user_id).removeprefix("mail:")
        mail = latest_decision(table, address)
        assert mail is not None, f"no decision mail for seat {seat}"
        ref = table.front.tokens.read(str(mail["Reply-To"]))
        assert ref is not None and ref.seat == seat
        assert ref.version == info.prompt_versions[seat], "the newest mail is not current"
        found = _COUNT.search(text_of(mail))
        count = int(found.group(1)) if found else 1
        pick = rng.randbelow(min(count, 60)) + 1
        shape = SHAPES[moves % len(SHAPES)]
        version = info.version
        await mail_in(table, reply(mail, address, f"#{pick}", shape=shape))
        assert (await table.service.info(1)).version > version, (shape, pick)
        moves += 1
    report = await table.service.verify(1)
    assert report.ok, report
    return {"moves": moves, "info": info, "game": game}


def assert_finished(table: Table, result: dict[str, Any]) -> None:
    info = result["info"]
    assert info.status == "finished"
    for address in PLAYERS:
        finals = [m for m in table.outbox() if str(m["To"]).lower() == address
                  and "final scores" in str(m["Subject"])]
        assert len(finals) == 1, address
        images = [p for p in finals[0].walk() if p.get_content_maintype() == "image"]
        assert images, "the final scores come with their image"
        movies = [p for p in images if p.get_content_type() == "image/gif"]
        if result["game"] != "skybridge":  # the games whose renderer draws a timelapse
            assert movies and movies[0].get_filename(), "and the timelapse"
    # Nobody's reply address reached anybody else.
    for message in table.outbox():
        seat_ref = result["tokens"].read(str(message["Reply-To"] or ""))
        if seat_ref is not None:
            owner = info.seats[seat_ref.seat].user_id
            assert owner == "mail:" + str(message["To"]).lower()


# ---------------------------------------------------------------- through the servers


@asynccontextmanager
async def on_servers(path: Path, smtp_sink: SmtpSink,
                     imap_server: ImapTestServer) -> AsyncIterator[Table]:
    settings = imap_server.settings_for(BOT, smtp=smtp_sink)
    sender = SmtpSender(settings)

    def deliver_raw(front: MailFront) -> Callable[[bytes], Any]:
        source: ImapSource | None = None

        async def handler(uid: int, raw: bytes) -> bool:
            validity = None if source is None else source.uidvalidity
            return await front.handle(raw, uid=uid, uidvalidity=validity)

        source = ImapSource(settings, handler, seen=front.seen)

        async def deliver(raw: bytes) -> None:
            imap_server.append(raw)
            assert await source.check_now() == 1

        return deliver

    async with by_mail(path, sender, deliver_raw, lambda: smtp_sink.messages) as table:
        yield table


@pytest.mark.parametrize("game", GAMES if FULL else ("skybridge",))
async def test_a_whole_game_through_the_servers(game: str, tmp_path: Path,
                                                smtp_sink: SmtpSink,
                                                imap_server: ImapTestServer) -> None:
    async with on_servers(tmp_path / "mail.sqlite3", smtp_sink, imap_server) as table:
        result = await play(table, game, seed=11)
        result["tokens"] = table.front.tokens
        assert_finished(table, result)
        assert imap_server.unseen() == []  # every reply read, and marked so


@pytest.mark.parametrize("game", GAMES)
async def test_each_game_starts_by_mail_through_the_servers(
        game: str, tmp_path: Path, smtp_sink: SmtpSink, imap_server: ImapTestServer) -> None:
    """Every game's first decisions (each kind of mail its start asks for), by replies in
    every client shape, through the servers. The whole games: URBANIST_MAIL_FULL=1."""
    async with on_servers(tmp_path / "mail.sqlite3", smtp_sink, imap_server) as table:
        result = await play(table, game, seed=3, limit=2 * len(SHAPES))
        assert result["moves"] == 2 * len(SHAPES)
        assert imap_server.unseen() == []


@pytest.mark.skipif(not FULL, reason="the whole games by mail: URBANIST_MAIL_FULL=1")
@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_by_mail(game: str, tmp_path: Path) -> None:
    sender = MemorySender()

    def deliver_raw(front: MailFront) -> Callable[[bytes], Any]:
        async def deliver(raw: bytes) -> None:
            assert await front.handle(raw)
        return deliver

    async with by_mail(tmp_path / "mail.sqlite3", sender, deliver_raw,
                       lambda: sender.history) as table:
        result = await play(table, game, seed=5)
        result["tokens"] = table.front.tokens
        assert_finished(table, result)
