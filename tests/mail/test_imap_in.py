"""ImapSource against a real IMAP server (pymap on the loopback): every message is handed
over once, a refused one comes back, IDLE wakes the reader, and a dropped connection or a
recreated mailbox loses and repeats nothing."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import AsyncIterator, Callable

import pytest

from bot.mail.imap_in import ImapError, ImapSource
from tests.mail.servers import ImapTestServer, TlsPair

BOT = "play@example.org"


def mail(n: int, size: int = 0) -> bytes:
    body = f"Move {n}: R7+B12\r\n" + "x" * size
    return (f"From: ann@example.org\r\nTo: {BOT}\r\nSubject: Re: Table 12 #{n}\r\n"
            f"Message-ID: <m{n}@example.org>\r\n\r\n{body}\r\n").encode()


class Recorder:
    """A handler that keeps what it is given and answers ``answer``."""

    def __init__(self, answer: bool = True) -> None:
        self.answer = answer
        self.got: list[tuple[int, bytes]] = []

    async def __call__(self, uid: int, raw: bytes) -> bool:
        self.got.append((uid, raw))
        return self.answer


async def until(condition: Callable[[], bool], timeout: float = 15.0) -> None:
    """Wait for ``condition`` (no timing is asserted: the timeout is only a safety net)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def running(source: ImapSource) -> AsyncIterator[asyncio.Task[None]]:
    task = asyncio.create_task(source.run())
    try:
        await until(source.connected.is_set)
        yield task
    finally:
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=15)
        assert done, "the reader did not stop when cancelled"
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_new_mail_is_handed_over_once_and_marked_seen(
        imap_server: ImapTestServer) -> None:
    uids = [imap_server.append(mail(n)) for n in (1, 2)]
    handler = Recorder()
    source = ImapSource(imap_server.settings_for(BOT), handler)
    assert await source.check_now() == 2
    assert handler.got == [(uids[0], mail(1)), (uids[1], mail(2))]
    assert imap_server.unseen() == []
    # Read again, by the same reader and by a new one (a restart): nothing twice.
    assert await source.check_now() == 0
    again = Recorder()
    assert await ImapSource(imap_server.settings_for(BOT), again).check_now() == 0
    assert handler.got[2:] == again.got == []


async def test_a_refused_message_stays_unseen_and_comes_back(
        imap_server: ImapTestServer) -> None:
    uid = imap_server.append(mail(1))
    handler = Recorder(answer=False)
    source = ImapSource(imap_server.settings_for(BOT), handler)
    assert await source.check_now() == 0
    assert imap_server.unseen() == [uid]
    handler.answer = True
    assert await source.check_now() == 1
    assert [u for u, _ in handler.got] == [uid, uid]
    assert imap_server.unseen() == []


async def test_a_handler_that_raises_does_not_stop_the_others(
        imap_server: ImapTestServer) -> None:
    bad, good = imap_server.append(mail(1)), imap_server.append(mail(2))
    got: list[int] = []

    async def handler(uid: int, raw: bytes) -> bool:
        if uid == bad:
            raise ValueError("cannot read that one")
        got.append(uid)
        return True

    source = ImapSource(imap_server.settings_for(BOT), handler)
    assert await source.check_now() == 1
    assert got == [good]
    assert imap_server.unseen() == [bad]


async def test_a_message_marked_unread_again_is_not_handed_twice(
        imap_server: ImapTestServer) -> None:
    uid = imap_server.append(mail(1))
    handler = Recorder()
    source = ImapSource(imap_server.settings_for(BOT), handler)
    assert await source.check_now() == 1
    imap_server.set_unseen(uid)    # a person opened the mailbox and marked it unread
    assert await source.check_now() == 0
    # A new reader learns it from the front end's database through `seen`.
    asked: list[tuple[int, int]] = []

    async def seen(uidvalidity: int, uid: int) -> bool:
        asked.append((uidvalidity, uid))
        return (uidvalidity, uid) == (source.uidvalidity, handled_uid)

    handled_uid = uid
    imap_server.set_unseen(uid)
    fresh = Recorder()
    assert await ImapSource(imap_server.settings_for(BOT), fresh, seen=seen).check_now() == 0
    assert fresh.got == []
    assert asked == [(source.uidvalidity, uid)]
    assert imap_server.unseen() == []          # and it is marked read again


async def test_mail_already_read_before_the_first_look_is_left_alone(
        imap_server: ImapTestServer) -> None:
    imap_server.append(mail(1), seen=True)
    handler = Recorder()
    source = ImapSource(imap_server.settings_for(BOT), handler)
    assert await source.check_now() == 0
    # New mail counts even when a person opened it before the bot got to it.
    uid = imap_server.append(mail(2), seen=True)
    assert await source.check_now() == 1
    assert [u for u, _ in handler.got] == [uid]


async def test_a_recreated_mailbox_is_read_anew(imap_server: ImapTestServer) -> None:
    imap_server.create("Games")
    first = imap_server.append(mail(1), "Games")
    handler = Recorder()
    source = ImapSource(imap_server.settings_for(BOT, imap_folder="Games"), handler)
    assert await source.check_now() == 1
    validity = source.uidvalidity
    imap_server.delete("Games")
    imap_server.create("Games")
    second = imap_server.append(mail(2), "Games")
    assert await source.check_now() == 1
    assert source.uidvalidity != validity
    # The new mailbox numbers from the start again: the same UID is a new message.
    assert [(u, raw) for u, raw in handler.got] == [(first, mail(1)), (second, mail(2))]


async def test_huge_mail_is_handed_over_cut(imap_server: ImapTestServer) -> None:
    imap_server.append(mail(1, size=50_000))
    handler = Recorder()
    source = ImapSource(imap_server.settings_for(BOT), handler, max_fetch_bytes=4096)
    assert await source.check_now() == 1
    [(_, raw)] = handler.got
    assert raw == mail(1, size=50_000)[:4096]


async def test_a_wrong_password_is_reported(imap_server: ImapTestServer) -> None:
    source = ImapSource(imap_server.settings_for(BOT, imap_password="wrong"), Recorder())
    with pytest.raises(ImapError, match="LOGIN"):
        await source.check_now()


async def test_idle_wakes_the_reader_on_new_mail(imap_server: ImapTestServer) -> None:
    handler = Recorder()
    # Polling once an hour: only IDLE can bring the message within the wait.
    source = ImapSource(imap_server.settings_for(BOT, poll_seconds=3600.0), handler)
    async with running(source):
        assert source.uses_idle
        await until(source.waiting.is_set)    # in IDLE, with nothing to read
        uid = imap_server.append(mail(1))
        await until(lambda: len(handler.got) == 1)
    assert handler.got == [(uid, mail(1))]
    await until(lambda: imap_server.unseen() == [])


async def test_without_idle_the_reader_polls(imap_server_polling: ImapTestServer) -> None:
    handler = Recorder()
    source = ImapSource(imap_server_polling.settings_for(BOT, poll_seconds=0.1), handler)
    async with running(source):
        assert not source.uses_idle
        await until(source.waiting.is_set)
        uid = imap_server_polling.append(mail(1))
        await until(lambda: len(handler.got) == 1)
    assert handler.got == [(uid, mail(1))]


async def test_the_reader_reconnects_after_a_dropped_connection(
        imap_server: ImapTestServer) -> None:
    handler = Recorder()
    source = ImapSource(imap_server.settings_for(BOT, poll_seconds=3600.0), handler)
    async with running(source) as task:
        await until(source.waiting.is_set)
        first = imap_server.append(mail(1))
        await until(lambda: len(handler.got) == 1)
        imap_server.drop_connections()
        await until(lambda: source.sessions == 2 and source.waiting.is_set())
        second = imap_server.append(mail(2))
        await until(lambda: len(handler.got) == 2)
        # An outage: the server goes away for a while (the reader's first attempts
        # are refused), then comes back.
        imap_server.stop()
        await until(lambda: not source.connected.is_set())
        await asyncio.sleep(0.6)
        imap_server.start()
        await until(lambda: source.sessions == 3 and source.waiting.is_set())
        third = imap_server.append(mail(3))
        await until(lambda: len(handler.got) == 3)
        assert not task.done()
    assert [u for u, _ in handler.got] == [first, second, third]


async def test_a_commit_under_way_when_the_connection_drops_counts_once(
        imap_server: ImapTestServer) -> None:
    entered, release = asyncio.Event(), asyncio.Event()
    calls: list[int] = []

    async def slow(uid: int, raw: bytes) -> bool:
        calls.append(uid)
        entered.set()
        await release.wait()      # the front end's transaction, still going
        return True

    source = ImapSource(imap_server.settings_for(BOT, poll_seconds=3600.0), slow)
    uid = imap_server.append(mail(1))
    async with running(source):
        await until(entered.is_set)
        imap_server.drop_connections()
        # The reader is connected again while the handler still works.
        await until(lambda: source.sessions >= 2 and source.connected.is_set())
        await asyncio.sleep(0.2)
        release.set()
        # Marked read on the next connection, and not handed over again.
        await until(lambda: imap_server.unseen() == [] and source.waiting.is_set())
        later = imap_server.append(mail(2))
        await until(lambda: len(calls) == 2)
    assert calls == [uid, later]


async def test_implicit_tls_checks_the_certificate(tls_pair: TlsPair) -> None:
    server = ImapTestServer(tls=tls_pair.server)
    try:
        uid = server.append(mail(1))
        handler = Recorder()
        trusting = ImapSource(server.settings_for(BOT), handler, tls_context=tls_pair.client)
        assert await trusting.check_now() == 1
        # The system's authorities do not know this certificate: nothing is read.
        doubtful = ImapSource(server.settings_for(BOT), Recorder())
        with pytest.raises(ssl.SSLError):
            await doubtful.check_now()
    finally:
        server.close()
    assert handler.got == [(uid, mail(1))]
