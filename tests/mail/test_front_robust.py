"""Gaps the mail front end's builders reported: a ``new`` read twice opens one table (its
mail recorded with the table's creation, on both stores), a command in the subject of a
mail with no text part, a bounce that names only the Message-ID that bounced, and the
one-line stop (and List-Unsubscribe) of every answer, in English and French."""

from __future__ import annotations

import dataclasses
import sqlite3
import sys
from collections.abc import AsyncIterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.mail.incoming import parse_incoming
from bot.mail.store import MailStore
from bot.service import Actor, MemoryNotifier, TableService
from bot.store import open_store
from bot.store.riders import riding
from tests.mail.front_helpers import BOT, Rig, command_mail, reply, rig, text_of

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bot"))

ANN, BOB = "ann@example.net", "bob@example.net"


@pytest.fixture
async def r(tmp_path: Path) -> AsyncIterator[Rig]:
    async with rig(tmp_path / "mail.sqlite3") as made:
        yield made


async def lobbies(r: Rig) -> list[int]:
    return await r.store.table_ids(["lobby"])


async def skybridge_table(r: Rig) -> None:
    """Ann hosts table 1 (Skybridge) with Bob and an easy bot, started."""
    r.clock.advance(3601)
    await r.mail(command_mail(ANN, "new skybridge players=3 bots=1 level=easy"))
    await r.mail(command_mail(BOB, "join 1"))
    info = await r.service.info(1)
    await r.service.configure(1, Actor("mail:" + ANN),
                              settings=dataclasses.replace(info.settings, seat_order="join"))
    await r.mail(command_mail(ANN, "start 1"))


def decision_to(r: Rig, address: str) -> EmailMessage:
    return [m for m in r.sender.to(address, ever=True) if "+t" in str(m["Reply-To"] or "")][-1]


# ---------------------------------------------------------------- 1. new, read twice


async def test_a_new_that_crashes_after_the_table_is_made_opens_one_table(
        r: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = command_mail(ANN, "new skybridge players=3 bots=1 level=easy",
                       message_id="<new1@client.test>")
    calls = 0
    add_bot = r.service.add_bot

    async def crash_once(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("the process dies here")
        return await add_bot(*args, **kwargs)

    monkeypatch.setattr(r.service, "add_bot", crash_once)
    await r.front.handle(raw)  # the table is made, then the crash
    assert await lobbies(r) == [1]
    assert await r.front.mail_store.handled("<new1@client.test>")
    assert await r.front.handle(raw)  # read again (the mailbox hands it over again)
    assert await lobbies(r) == [1]


async def test_a_new_whose_answer_cannot_be_sent_now_opens_one_table(r: Rig) -> None:
    raw = command_mail(ANN, "new skybridge players=2", message_id="<new2@client.test>")
    r.sender.fail(1)  # the answer meets a 421
    await r.front.handle(raw)
    await r.front.handle(raw)
    assert await lobbies(r) == [1]
    # A refused `new` made nothing and is answered (no table to record it with).
    await r.mail(command_mail(ANN, "new skybridge players=2 bots=2"))
    assert await lobbies(r) == [1]
    assert "Nothing was changed" in text_of(r.sender.to(ANN)[-1])


async def test_a_rider_rides_on_a_table_creation_or_rolls_it_back(target: str) -> None:
    store = await open_store(target)
    try:
        service = TableService(store, MemoryNotifier())
        mail = MailStore(store)
        ann = Actor("mail:" + ANN, "ann")
        rider = mail.rider("<c1@x>", 1.0, table_id=None, actor_id=None, uid=5, uidvalidity=9)
        with riding(rider):
            made = await service.create(ann, "skybridge")
            await service.join(made.id, Actor("mail:" + BOB, "bob"))  # a save: not carried
        assert rider.landed and rider.table_id == made.id
        assert await mail.handled("<c1@x>") and await mail.seen(9, 5)
        rows = await mail._fetch("SELECT table_id FROM mail_handled WHERE message_id = ?",
                                 ("<c1@x>",))
        assert rows == [(made.id,)]
        # The same mail creating again (another process read it too): nothing is made.
        before = await store.table_ids(["lobby"])
        again = mail.rider("<c1@x>", 2.0, table_id=None, actor_id=None)
        with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)), \
                riding(again):
            await service.create(ann, "skybridge")
        assert not again.landed and again.table_id is None
        assert await store.table_ids(["lobby"]) == before
        await service.close()
    finally:
        await store.close()


# ---------------------------------------------------------------- 2. no text part


def textless(sender: str, subject: str, to: str = BOT) -> bytes:
    """A mail with an attachment and no text part at all (a phone's share sheet)."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = f"<textless.{abs(hash((sender, subject, to)))}@client.test>"
    msg.add_attachment(b"\x89PNG not really", maintype="image", subtype="png",
                       filename="photo.png")
    return bytes(msg)


async def test_a_command_in_the_subject_of_a_mail_without_text_works(r: Rig) -> None:
    assert parse_incoming(textless(ANN, "help")).problem == "no_text"
    r.clock.advance(3601)
    await r.mail(textless(ANN, "help"))
    assert "Urbanist runs board games by email" in text_of(r.sender.to(ANN)[-1])
    r.clock.advance(3601)  # Ann is a stranger yet: one answer an hour
    await r.mail(textless(ANN, "nouvelle skybridge players=2"))
    assert await lobbies(r) == [1]
    assert "La table n°1 (Skybridge) est ouverte" in text_of(r.sender.to(ANN)[-1])
    # No command in the subject: still the polite refusal (in her language now).
    await r.mail(textless(ANN, "my holiday pictures"))
    assert "il n'a pas de texte lisible" in text_of(r.sender.to(ANN)[-1])


async def test_a_textless_command_at_a_seat_address_works(r: Rig) -> None:
    await skybridge_table(r)
    info = await r.service.info(1)
    address = next(s.user_id.removeprefix("mail:") for s in info.seats
                   if s.user_id and s.user_id.startswith("mail:")
                   and s.seat in info.waiting)
    seat_address = str(decision_to(r, address)["Reply-To"])
    await r.mail(textless(address, "Re: tables", to=seat_address))
    assert "#1  Skybridge, in play" in text_of(r.sender.to(address)[-1])


# ---------------------------------------------------------------- 3. bounces


def bounce_of(original_id: str, text: str = "550 5.1.1 User unknown") -> bytes:
    """A classic bounce that names no address, only the returned mail's headers."""
    return (f"From: MAILER-DAEMON@mx.test\r\nTo: {BOT}\r\n"
            "Subject: Undelivered Mail Returned to Sender\r\n"
            f"Message-ID: <b.{abs(hash(original_id))}@mx.test>\r\nMIME-Version: 1.0\r\n"
            "Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n"
            "--b\r\nContent-Type: text/plain\r\n\r\n"
            f"Your message could not be delivered: {text}.\r\n\r\n"
            "--b\r\nContent-Type: text/rfc822-headers\r\n\r\n"
            f"From: Urbanist <{BOT}>\r\nSubject: Table #1\r\n"
            f"Message-ID: {original_id}\r\n\r\n--b--\r\n").encode()


async def test_a_bounce_naming_only_the_message_id_marks_its_seat_unreachable(
        r: Rig) -> None:
    await skybridge_table(r)
    info = await r.service.info(1)
    address = next(s.user_id.removeprefix("mail:") for s in info.seats
                   if s.user_id and s.seat in info.waiting and not s.is_bot)
    other = BOB if address == ANN else ANN
    sent_id = str(decision_to(r, address)["Message-ID"])
    bounce = parse_incoming(bounce_of(sent_id))
    assert bounce.bounce is not None and bounce.bounce.recipients == ()
    assert bounce.bounce.permanent and bounce.bounce.original_message_id == sent_id
    # A Message-ID that is not ours, or ours for nobody seated: nothing changes.
    await r.mail(bounce_of("<someone.else@mx.test>"))
    forged = sent_id.replace("urbanist.s.", "urbanist.d.")
    await r.mail(bounce_of(forged))
    info = await r.service.info(1)
    assert all(s.dm_ok for s in info.seats)
    await r.mail(bounce_of(sent_id))
    info = await r.service.info(1)
    seat = info.seat_of("mail:" + address)
    assert seat is not None and not info.seats[seat].dm_ok
    them = info.seat_of("mail:" + other)
    assert them is not None and info.seats[them].dm_ok
    assert r.sender.to("mailer-daemon@mx.test") == []  # never answered


async def test_a_bounced_answer_to_a_command_finds_its_player(r: Rig) -> None:
    await skybridge_table(r)
    await r.mail(command_mail(BOB, "tables"))
    answer_id = str(r.sender.to(BOB)[-1]["Message-ID"])
    assert answer_id.count("<") == 1 and answer_id.count("@") == 1  # a well-formed id
    await r.mail(bounce_of(answer_id))
    info = await r.service.info(1)
    seat = info.seat_of("mail:" + BOB)
    assert seat is not None and not info.seats[seat].dm_ok


async def test_a_delay_notice_naming_a_message_id_changes_nothing(r: Rig) -> None:
    await skybridge_table(r)
    await r.mail(command_mail(BOB, "tables"))
    answer_id = str(r.sender.to(BOB)[-1]["Message-ID"])
    raw = bounce_of(answer_id, "451 4.4.1 delayed, still trying").replace(
        b"Undelivered Mail Returned to Sender", b"Delayed Mail (still being retried)")
    notice = parse_incoming(raw)
    assert notice.bounce is not None and not notice.bounce.permanent
    await r.mail(raw)
    assert all(s.dm_ok for s in (await r.service.info(1)).seats)


# ---------------------------------------------------------------- 4. every answer stops


def stop_of(message: EmailMessage) -> str:
    header = str(message["List-Unsubscribe"] or "")
    assert header.startswith("<mailto:") and header.endswith("?subject=stop>"), header
    return header[len("<mailto:"):-len("?subject=stop>")]


async def test_every_answer_says_how_to_stop_and_carries_list_unsubscribe(r: Rig) -> None:
    r.clock.advance(3601)
    await r.mail(command_mail(ANN, "help"))
    answer = r.sender.to(ANN)[-1]
    assert r.front.tokens.read_unsubscribe(stop_of(answer)) == (0, ANN)
    assert "To stop these answers: write to " + stop_of(answer) in text_of(answer)
    # Answers about a table: the table's own stop, as its decision mails and digests.
    r.clock.advance(3601)  # Ann is a stranger yet: one answer an hour
    await r.mail(command_mail(ANN, "new skybridge players=3"))
    answer = r.sender.to(ANN)[-1]
    assert r.front.tokens.read_unsubscribe(stop_of(answer)) == (1, ANN)
    assert "write `leave 1` to " + BOT in text_of(answer)
    await r.mail(command_mail("fan@example.com", "follow 1"))
    answer = r.sender.to("fan@example.com")[-1]
    assert r.front.tokens.read_unsubscribe(stop_of(answer)) == (1, "fan@example.com")
    assert "`unfollow 1`" in text_of(answer)
    # In French.
    await r.mail(command_mail(BOB, "aide"))
    answer = r.sender.to(BOB)[-1]
    assert "Pour ne plus recevoir ces réponses : écrivez à " + stop_of(answer) \
        in text_of(answer)
    r.clock.advance(3601)
    await r.mail(command_mail(BOB, "rejoindre 1"))
    assert "écrivez `quitter 1` à " + BOT in text_of(r.sender.to(BOB)[-1])


async def test_a_refused_move_says_how_to_stop(r: Rig) -> None:
    await skybridge_table(r)
    info = await r.service.info(1)
    address = next(s.user_id.removeprefix("mail:") for s in info.seats
                   if s.user_id and s.seat in info.waiting and not s.is_bot)
    await r.mail(reply(decision_to(r, address), address, "#999"))
    answer = r.sender.to(address)[-1]
    assert "there is no move #999" in text_of(answer)
    assert r.front.tokens.read_unsubscribe(stop_of(answer)) == (1, address)
    assert "`leave 1`" in text_of(answer)


async def test_the_stop_of_an_answer_stops_answers_to_unproven_mail(r: Rig) -> None:
    victim = "victim@example.com"
    await r.mail(command_mail(victim, "hello"))  # a forger wrote with her address
    answer = r.sender.to(victim)[-1]
    personal = str(answer["Reply-To"])
    await r.mail(command_mail(victim, "stop", to=stop_of(answer)))
    assert "I will no longer answer mail from " + victim in text_of(r.sender.to(victim)[-1])
    count = len(r.sender.to(victim))
    r.clock.advance(7200)
    await r.mail(command_mail(victim, "help"))
    assert len(r.sender.to(victim)) == count  # not answered, even an hour later
    # From her own mailbox (her own address, known only to her): answered.
    await r.mail(command_mail(victim, "help", to=personal))
    assert len(r.sender.to(victim)) == count + 1
    # Nor is she invited to a table any more.
    await r.mail(command_mail(ANN, "new skybridge players=3"))
    assert await r.front.invite(1, victim, Actor("mail:" + ANN, "ann"))
    assert len(r.sender.to(victim)) == count + 1


async def test_an_invitation_says_how_to_stop(r: Rig) -> None:
    await r.mail(command_mail(ANN, "new skybridge players=3"))
    assert await r.front.invite(1, "guest@example.com", Actor("mail:" + ANN, "ann"))
    invitation = r.sender.to("guest@example.com")[-1]
    assert r.front.tokens.read_unsubscribe(stop_of(invitation)) == (0, "guest@example.com")
    assert "To get no more invitations: write to " + stop_of(invitation) \
        in text_of(invitation)


async def test_a_player_who_stops_answers_still_plays_unanswered(r: Rig) -> None:
    await skybridge_table(r)
    await r.mail(command_mail(BOB, "tables"))
    answer = r.sender.to(BOB)[-1]
    personal = str(answer["Reply-To"])
    await r.mail(command_mail(BOB, "stop", to=stop_of(answer)))
    count = len(r.sender.to(BOB))
    await r.mail(command_mail(BOB, "tables"))
    await r.mail(command_mail(BOB, "timezone Europe/Paris"))
    assert len(r.sender.to(BOB)) == count  # done, not answered
    assert (await r.front.mail_store.person(BOB)).timezone == "Europe/Paris"
    await r.mail(command_mail(BOB, "tables", to=personal))
    assert "#1  Skybridge, in play" in text_of(r.sender.to(BOB)[-1])
    # Their game's mails are not answers: they still come.
    count = len(r.sender.to(BOB))
    info = await r.service.info(1)
    mover = next(s.user_id.removeprefix("mail:") for s in info.seats
                 if s.user_id and s.seat in info.waiting and not s.is_bot)
    assert await r.mail(reply(decision_to(r, mover), mover, "#1"))
    assert len(r.sender.to(BOB)) > count
