"""The mail transport over the outbox: SMTP outages retried and sent once, a refused
address or a bounce marks the seat unreachable and tells the table, a round's news in at
most one digest per reader, followers and the one-line stop, a crash between reading a
reply and committing it."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.service import Actor, Notification
from bot.service.notifications import HELD, Delivery
from bot.store.riders import Rider
from tests.mail.front_helpers import (
    Rig,
    bounce_mail,
    command_mail,
    reply,
    rig,
    text_of,
)

ANN, BOB, CAT = "ann@example.net", "bob@example.net", "cat@example.net"


@pytest.fixture
async def r(tmp_path: Path) -> AsyncIterator[Rig]:
    async with rig(tmp_path / "mail.sqlite3") as made:
        yield made


async def open_table(r: Rig, game: str, humans: list[str], bots: int = 0) -> int:
    r.clock.advance(3601)
    await r.mail(command_mail(humans[0], f"new {game} players={len(humans) + bots} "
                              f"bots={bots} level=easy"))
    for address in humans[1:]:
        await r.mail(command_mail(address, "join 1"))
    info = await r.service.info(1)
    await r.service.configure(1, Actor("mail:" + humans[0]),
                              settings=dataclasses.replace(info.settings, seat_order="join"))
    await r.mail(command_mail(humans[0], "start 1"))
    return 1


def decision_mails(r: Rig, address: str) -> list[Any]:
    return [m for m in r.sender.to(address, ever=True) if "+t" in str(m["Reply-To"] or "")]


async def waiting(r: Rig) -> list[str]:
    info = await r.service.info(1)
    return [str(info.seats[s].user_id).removeprefix("mail:") for s in sorted(info.waiting)
            if not info.seats[s].is_bot]


async def play_first_option(r: Rig, address: str) -> None:
    assert await r.mail(reply(decision_mails(r, address)[-1], address, "#1"))


# ---------------------------------------------------------------- failures


async def test_an_smtp_outage_is_retried_and_each_mail_sent_once(r: Rig) -> None:
    await open_table(r, "skybridge", [ANN, BOB], bots=1)
    first = (await waiting(r))[0]
    r.sender.clear()
    r.sender.fail(4)  # 421 for the next four sends
    await play_first_option(r, first)
    assert r.sender.failures == [] or len(r.sender.sent) == 0
    for _ in range(8):
        r.clock.advance(700)  # past the outbox's longest backoff
        await r.settle()
    ids = [str(m["Message-ID"]) for m in r.sender.sent]
    assert len(ids) == len(set(ids)) > 0  # nothing twice
    nxt = (await waiting(r))[0]
    assert decision_mails(r, nxt)  # the next decision did arrive
    assert not await r.store.load_outbox(1, states=["pending", "sending"])


async def test_a_refused_address_marks_the_seat_and_tells_the_table(r: Rig) -> None:
    await open_table(r, "skybridge", [ANN, BOB], bots=1)
    first = (await waiting(r))[0]
    other = BOB if first == ANN else ANN
    info = await r.service.info(1)
    seat = info.seat_of("mail:" + other)
    assert seat is not None and info.seats[seat].dm_ok
    r.sender.refuse(other)  # the other player's mailbox is closed: 550
    await play_first_option(r, first)
    while other not in await waiting(r):
        await play_first_option(r, (await waiting(r))[0])
    info = await r.service.info(1)
    assert not info.seats[seat].dm_ok
    told = [m for m in r.sender.sent if "cannot be reached by mail" in text_of(m)]
    assert {str(m["To"]) for m in told} == {first}
    # The game does not wait on it: at the deadline the AI plays for the seat.
    r.clock.advance(info.deadline_seconds + 1)
    await r.service.on_deadline(1, info.version)
    await r.settle()
    assert (await r.service.info(1)).version > info.version
    # A mail from the player sets it right.
    r.sender.refused.clear()
    while other not in await waiting(r):
        await play_first_option(r, (await waiting(r))[0])
    await r.mail(command_mail(other, "tables"))
    await play_first_option(r, other)
    assert (await r.service.info(1)).seats[seat].dm_ok


async def test_a_bounce_marks_the_address_unreachable(r: Rig) -> None:
    await open_table(r, "skybridge", [ANN, BOB], bots=1)
    r.sender.clear()
    assert await r.mail(bounce_mail(BOB))
    info = await r.service.info(1)
    seat = info.seat_of("mail:" + BOB)
    assert seat is not None and not info.seats[seat].dm_ok
    assert not r.sender.to(BOB)  # never answered, never mailed again
    assert any("cannot be reached" in text_of(m) for m in r.sender.to(ANN))


# ---------------------------------------------------------------- digests


async def test_a_round_of_secret_picks_is_one_digest_per_reader(r: Rig) -> None:
    """Ginkgopolis: three players pick at once; the round's news reaches each player once
    (in the mail of their next decision, or in one digest)."""
    await open_table(r, "ginkgopolis", [ANN, BOB, CAT])
    await r.mail(command_mail("fan@example.com", "follow 1"))
    round_mails: dict[str, int] = {}
    for _ in range(3):  # the three drafts of the first round
        deciders = await waiting(r)
        r.sender.clear()
        for address in deciders:
            await play_first_option(r, address)
        for address in (ANN, BOB, CAT, "fan@example.com"):
            round_mails[address] = round_mails.get(address, 0) + len(r.sender.to(address))
    for address in (ANN, BOB, CAT):
        # One mail per pick (the next decision, with the news in it), no digest beside.
        assert round_mails[address] <= 3, (address, round_mails)
    assert round_mails["fan@example.com"] <= 1  # the round's digest, once


async def test_news_is_held_until_its_round_ends(r: Rig) -> None:
    await open_table(r, "ginkgopolis", [ANN, BOB, CAT])
    deciders = await waiting(r)
    r.sender.clear()
    await play_first_option(r, deciders[0])
    # One pick of three: no news mail yet; the pick itself asks for no mail either.
    assert r.sender.sent == []
    held = await r.store.load_outbox(1, states=[HELD])
    assert held


async def test_a_follower_stops_with_one_line(r: Rig) -> None:
    await open_table(r, "skybridge", [ANN, BOB], bots=1)
    await r.mail(command_mail("fan@example.com", "follow 1"))
    for _ in range(3):
        await play_first_option(r, (await waiting(r))[0])
    digests = r.sender.to("fan@example.com")[1:]
    assert digests
    stop = str(digests[-1]["List-Unsubscribe"]).strip("<>").removeprefix("mailto:")
    stop = stop.partition("?")[0]
    assert r.front.tokens.read_unsubscribe(stop) == (1, "fan@example.com")
    assert "unfollow 1" in text_of(digests[-1])
    await r.mail(command_mail("fan@example.com", "stop", to=stop))
    assert await r.front.mail_store.followers(1) == []
    count = len(r.sender.to("fan@example.com"))
    await play_first_option(r, (await waiting(r))[0])
    assert len(r.sender.to("fan@example.com")) == count


# ---------------------------------------------------------------- crashes


async def test_a_crash_between_reading_and_committing_applies_the_move_once(r: Rig) -> None:
    await open_table(r, "skybridge", [ANN, BOB], bots=1)
    first = (await waiting(r))[0]
    raw = reply(decision_mails(r, first)[-1], first, "#1", message_id="<m1@client.test>")
    version = (await r.service.info(1)).version
    # The transaction that carries the move fails at its end (the disk, or the process
    # dying there): the move and the mail's handled row go together, or neither.
    mail_store = r.front.mail_store
    make_rider: Callable[..., Rider] = mail_store.rider

    def failing_rider(*args: Any, **kwargs: Any) -> Rider:
        rider = make_rider(*args, **kwargs)
        write = rider.sqlite

        def then_fail(conn: sqlite3.Connection) -> None:
            write(conn)
            raise sqlite3.OperationalError("disk I/O error")
        return dataclasses.replace(rider, sqlite=then_fail)

    mail_store.rider = failing_rider  # type: ignore[method-assign]
    assert not await r.mail(raw, uid=5, uidvalidity=9)  # read again later
    mail_store.rider = make_rider  # type: ignore[method-assign]
    assert (await r.service.info(1)).version == version
    assert not await r.front.mail_store.handled("<m1@client.test>")
    # Read again (the mailbox still holds it), and again (a mailbox read twice).
    assert await r.mail(raw, uid=5, uidvalidity=9)
    assert await r.mail(raw, uid=5, uidvalidity=9)
    moves = [e for e in await r.service.log(1) if e.source == "player"]
    assert len(moves) == 1
    assert await r.front.seen(9, 5)


async def test_an_in_doubt_resend_is_not_sent_twice(r: Rig) -> None:
    given: list[Notification] = []
    mail_transport = r.front.notifier
    original = mail_transport.deliver

    async def recording(notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        given.extend(notes)
        return await original(notes)

    mail_transport.deliver = recording  # type: ignore[method-assign]
    await open_table(r, "skybridge", [ANN, BOB], bots=1)
    first = (await waiting(r))[0]
    mail = decision_mails(r, first)[-1]
    assert str(mail["Message-ID"]).startswith("<urbanist.s.")
    count = len(r.sender.sent)
    # The same rows offered again, in doubt (a crash between the send and its record):
    # the mail went out under the same Message-ID, so it is not sent again.
    notes = [dataclasses.replace(n, in_doubt=True) for n in given
             if n.user_id == "mail:" + first and n.template == "your_turn"]
    assert notes
    outcome = await original(notes)
    assert set(outcome.values()) == {"sent"}
    assert len(r.sender.sent) == count


async def test_a_reminder_and_the_ai_playing_for_a_late_player_come_by_mail(r: Rig) -> None:
    await open_table(r, "skybridge", [ANN, BOB], bots=1)
    late = (await waiting(r))[0]
    info = await r.service.info(1)
    first = decision_mails(r, late)[-1]
    r.clock.advance(info.deadline_seconds // 2 + 1)
    await r.service.on_reminder(1, info.version)
    await r.settle()
    reminder = decision_mails(r, late)[-1]
    assert str(reminder["Subject"]).startswith("Reminder:")
    assert "still waiting for your move" in text_of(reminder)
    assert reminder["Reply-To"] == first["Reply-To"]  # the same decision
    # Nobody answers: at the deadline the AI plays, and the late player reads it in
    # their next decision mail (one mail a decision).
    r.clock.advance(info.deadline_seconds)
    await r.service.on_deadline(1, info.version)
    await r.settle()
    assert any(e.source == "timeout" for e in await r.service.log(1))
    while late not in await waiting(r):
        await play_first_option(r, (await waiting(r))[0])
    assert "Time ran out at table #1" in text_of(decision_mails(r, late)[-1])
