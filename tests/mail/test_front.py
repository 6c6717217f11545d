"""The mail front end over the service, with the SMTP sender kept in memory: commands,
decision mails, moves by reply, and every way a reply can be wrong (forged, stale,
replayed, unreadable), in English and French."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from bot.mail.tokens import SeatRef
from bot.service import Actor
from tests.mail.front_helpers import (
    BOT,
    Rig,
    command_mail,
    html_of,
    reply,
    rig,
    text_of,
)

ANN, BOB = "ann@example.net", "bob@example.net"


@pytest.fixture
async def r(tmp_path: Path) -> AsyncIterator[Rig]:
    async with rig(tmp_path / "mail.sqlite3") as made:
        yield made


async def skybridge_table(r: Rig) -> int:
    """Ann hosts a Skybridge table with Bob and a bot; started (seats in join order)."""
    r.clock.advance(3601)  # an answer to Ann this hour does not hold her command back
    await r.mail(command_mail(ANN, "new skybridge players=3 bots=1 level=easy"))
    await r.mail(command_mail(BOB, "join 1"))
    info = await r.service.info(1)
    await r.service.configure(1, Actor("mail:" + ANN),
                              settings=dataclasses.replace(info.settings, seat_order="join"))
    await r.mail(command_mail(ANN, "start 1"))
    return 1


def decisions(r: Rig, address: str) -> list[EmailMessage]:
    return [m for m in r.sender.to(address) if "+t" in str(m["Reply-To"] or "")]


def seat_ref(r: Rig, message: EmailMessage) -> SeatRef:
    ref = r.front.tokens.read(str(message["Reply-To"]))
    assert ref is not None
    return ref


async def waiting_address(r: Rig, table: int) -> str:
    info = await r.service.info(table)
    human = [s for s in info.waiting if not info.seats[s].is_bot]
    assert human
    user = info.seats[human[0]].user_id
    assert user is not None
    return user.removeprefix("mail:")


# ---------------------------------------------------------------- commands


async def test_new_join_start_by_mail_and_each_is_answered(r: Rig) -> None:
    await r.mail(command_mail(ANN, "new skybridge players=3 bots=1 level=easy"))
    created = r.sender.to(ANN)[0]
    assert "Table #1 (Skybridge) is open" in text_of(created)
    assert str(created["In-Reply-To"]).startswith("<")
    await r.mail(command_mail(BOB, "join 1"))
    assert "You have a seat at table #1" in text_of(r.sender.to(BOB)[0])
    # Bob's own join is not news to Bob; Ann reads it.
    assert not any("bob joins" in text_of(m) for m in r.sender.to(BOB))
    assert any("bob joins" in text_of(m) for m in r.sender.to(ANN))
    await r.mail(command_mail(ANN, "start 1"))
    info = await r.service.info(1)
    assert info.status == "running"
    assert {s.user_id for s in info.seats} >= {"mail:" + ANN, "mail:" + BOB}


async def test_a_command_in_french_is_answered_in_french(r: Rig) -> None:
    await r.mail(command_mail(ANN, "nouvelle skybridge players=2 locale=fr"))
    answer = text_of(r.sender.to(ANN)[-1])
    assert "La table n°1 (Skybridge) est ouverte" in answer
    assert (await r.service.info(1)).locale == "fr"
    await r.mail(command_mail(ANN, "aide"))
    assert "Urbanist fait jouer des jeux de plateau par mail" in text_of(r.sender.to(ANN)[-1])


async def test_an_unknown_sender_gets_one_answer_an_hour(r: Rig) -> None:
    for _ in range(3):
        await r.mail(command_mail("stranger@example.com", "hello there"))
    assert len(r.sender.to("stranger@example.com")) == 1
    assert "I did not understand" in text_of(r.sender.to("stranger@example.com")[0])
    r.clock.advance(3601)
    await r.mail(command_mail("stranger@example.com", "help"))
    assert len(r.sender.to("stranger@example.com")) == 2
    # At the address the answers gave (only the sender's mailbox has it): no limit.
    personal = str(r.sender.to("stranger@example.com")[-1]["Reply-To"])
    assert personal != BOT
    for line in ("help", "tables"):
        await r.mail(command_mail("stranger@example.com", line, to=personal))
    assert len(r.sender.to("stranger@example.com")) == 4
    # The same address from another sender is not theirs: limited as before.
    await r.mail(command_mail("forger@example.com", "help", to=personal))
    await r.mail(command_mail("forger@example.com", "help", to=personal))
    assert len(r.sender.to("forger@example.com")) == 1


async def test_automatic_mail_is_never_answered(r: Rig) -> None:
    for headers in ({"Auto-Submitted": "auto-replied"}, {"Precedence": "bulk"},
                    {"X-Autoreply": "yes"}):
        await r.mail(command_mail(ANN, "I am out of the office", headers=headers))
    await r.mail(command_mail("MAILER-DAEMON@example.net", "help"))
    assert r.sender.sent == []


async def test_timezone_shows_the_next_deadline_in_that_zone(r: Rig) -> None:
    await r.mail(command_mail(ANN, "timezone Europe/Paris"))
    assert "Europe/Paris" in text_of(r.sender.to(ANN)[-1])
    # Ann has no table yet, but she answers at her own address (the Reply-To).
    personal = str(r.sender.to(ANN)[-1]["Reply-To"])
    await r.mail(command_mail(ANN, "fuseau Mars/Olympus", to=personal))
    assert "Mars/Olympus" in text_of(r.sender.to(ANN)[-1])  # refused, politely, in French
    assert "Je ne connais pas" in text_of(r.sender.to(ANN)[-1])
    await skybridge_table(r)
    address = await waiting_address(r, 1)
    mail = decisions(r, address)[-1]
    zone = "(Europe/Paris)" if address == ANN else "UTC"
    assert re.search(r"Deadline: \d{4}-\d\d-\d\d \d\d:\d\d \S+", text_of(mail))
    assert zone in text_of(mail)


async def test_tables_rules_stats_and_follow(r: Rig) -> None:
    await skybridge_table(r)
    await r.mail(command_mail(ANN, "tables"))
    assert "#1  Skybridge, in play" in text_of(r.sender.to(ANN)[-1])
    await r.mail(command_mail(ANN, "rules skybridge"))
    assert "bridge" in text_of(r.sender.to(ANN)[-1])
    await r.mail(command_mail(ANN, "stats"))
    assert "0 games finished" in text_of(r.sender.to(ANN)[-1])
    await r.mail(command_mail("fan@example.com", "follow 1"))
    assert "You follow table #1" in text_of(r.sender.to("fan@example.com")[-1])
    assert await r.front.mail_store.followers(1) == ["fan@example.com"]


# ---------------------------------------------------------------- decision mails


async def test_each_decision_is_one_mail_with_its_seat_reply_address(r: Rig) -> None:
    await skybridge_table(r)
    address = await waiting_address(r, 1)
    mails = decisions(r, address)
    assert len(mails) == 1
    mail = mails[0]
    ref = seat_ref(r, mail)
    info = await r.service.info(1)
    assert info.seats[ref.seat].user_id == "mail:" + address
    assert ref.version == info.prompt_versions[ref.seat]
    text = text_of(mail)
    assert "#1  " in text and "Reply to this mail with your move" in text
    assert "leave 1" in text  # the one-line stop
    assert str(mail["List-Unsubscribe"]).startswith("<mailto:play+u1.")
    assert str(mail["Auto-Submitted"]) == "auto-generated"
    html = html_of(mail)
    assert "<p" in html and "&lt;" not in text  # an HTML alternative, escaped
    images = [p for p in mail.walk() if p.get_content_maintype() == "image"]
    assert images and 'src="cid:' in html
    cid = str(images[0]["Content-ID"]).strip("<>")
    assert f"cid:{cid}" in html
    # Nobody else's reply address is in it.
    other = [m for m in r.sender.sent if m["To"] != address]
    assert all(str(m["Reply-To"]) != str(mail["Reply-To"]) for m in other)


async def test_a_reply_plays_the_move_and_a_number_picks_the_option(r: Rig) -> None:
    await skybridge_table(r)
    address = await waiting_address(r, 1)
    mail = decisions(r, address)[-1]
    first = re.search(r"#1  (\S+)", text_of(mail))
    assert first is not None
    version = (await r.service.info(1)).version
    assert await r.mail(reply(mail, address, "#1", shape="outlook"))
    log = await r.service.log(1)
    mine = [e for e in log if e.version > version and e.source == "player"]
    assert [e.text for e in mine] == [first.group(1)]
    # The next human's mail, answered in Gmail's shape with the move typed.
    address = await waiting_address(r, 1)
    mail = decisions(r, address)[-1]
    prompt = await r.service.prompt(1, Actor("mail:" + address))
    move = prompt.options[-1].text
    assert await r.mail(reply(mail, address, move))
    assert any(e.text == move and e.source == "player" for e in await r.service.log(1))


async def test_a_forged_sender_plays_nothing(r: Rig) -> None:
    await skybridge_table(r)
    address = await waiting_address(r, 1)
    other = BOB if address == ANN else ANN
    mail = decisions(r, address)[-1]
    before = (await r.service.info(1)).version
    # The right reply address, the wrong sender: not a move.
    await r.mail(reply(mail, other, "#1"))
    # A reply address with a forged token: read as a command to the bot, not a move.
    local, _, domain = str(mail["Reply-To"]).partition("@")
    forged = f"{local[:-3]}{'aaa' if not local.endswith('aaa') else 'bbb'}@{domain}"
    assert r.front.tokens.read(forged) is None
    fake = EmailMessage()
    fake["Reply-To"] = forged
    fake["Subject"] = "x"
    fake["Message-ID"] = "<orig@x>"
    fake.set_content("x")
    await r.mail(reply(fake, address, "#1"))
    assert (await r.service.info(1)).version == before
    assert not any(e.source == "player" for e in await r.service.log(1))


async def test_a_stale_reply_is_refused_with_the_current_moves(r: Rig) -> None:
    await skybridge_table(r)
    address = await waiting_address(r, 1)
    old = decisions(r, address)[-1]
    await r.mail(reply(old, address, "#1"))
    # Play until the same player decides again.
    for _ in range(6):
        if await waiting_address(r, 1) == address:
            break
        other = await waiting_address(r, 1)
        await r.mail(reply(decisions(r, other)[-1], other, "#1"))
    assert await waiting_address(r, 1) == address
    version = (await r.service.info(1)).version
    await r.mail(reply(old, address, "#2"))  # the old mail again
    assert (await r.service.info(1)).version == version
    answer = r.sender.to(address)[-1]
    assert "moved on" in text_of(answer) or "stale" in text_of(answer).lower()
    assert "#1  " in text_of(answer)
    current = seat_ref(r, answer)
    assert current.version > seat_ref(r, old).version
    # Replying to the refusal plays.
    assert await r.mail(reply(answer, address, "#1"))
    assert (await r.service.info(1)).version > version


async def test_a_replayed_message_is_applied_once(r: Rig) -> None:
    await skybridge_table(r)
    address = await waiting_address(r, 1)
    raw = reply(decisions(r, address)[-1], address, "#1", message_id="<same@client.test>")
    assert await r.mail(raw)
    version = (await r.service.info(1)).version
    sent = len(r.sender.sent)
    for _ in range(2):
        assert await r.mail(raw, uid=7, uidvalidity=1)
    assert (await r.service.info(1)).version == version
    assert len(r.sender.sent) == sent  # and nothing answered
    assert await r.front.mail_store.handled("<same@client.test>")


async def test_a_wrong_number_and_an_illegal_move_are_refused_politely(r: Rig) -> None:
    await skybridge_table(r)
    address = await waiting_address(r, 1)
    mail = decisions(r, address)[-1]
    version = (await r.service.info(1)).version
    await r.mail(reply(mail, address, "#999"))
    assert "there is no move #999" in text_of(r.sender.to(address)[-1])
    await r.mail(reply(mail, address, "fly to the moon"))
    answer = text_of(r.sender.to(address)[-1])
    assert "Table #1:" in answer and "#1  " in answer
    assert (await r.service.info(1)).version == version


async def test_leave_at_a_seat_address_gives_the_seat_to_a_bot(r: Rig) -> None:
    await skybridge_table(r)
    address = await waiting_address(r, 1)
    await r.mail(reply(decisions(r, address)[-1], address, "leave"))
    info = await r.service.info(1)
    assert all(s.user_id != "mail:" + address for s in info.seats)
    assert "A bot plays your seat" in text_of(r.sender.to(address)[-1])


async def test_a_french_table_mails_in_french(r: Rig) -> None:
    r.clock.advance(3601)
    await r.mail(command_mail(ANN, "nouvelle skybridge players=3 bots=1 level=easy locale=fr"))
    await r.mail(command_mail(BOB, "rejoindre 1"))
    await r.mail(command_mail(ANN, "commencer 1"))
    address = await waiting_address(r, 1)
    mail = decisions(r, address)[-1]
    text = text_of(mail)
    assert str(mail["Subject"]).endswith("à vous de jouer")
    assert "Vos coups, par numéro" in text and "  #1  " in text
    assert "Répondez à ce mail avec votre coup" in text
    await r.mail(reply(mail, address, "#99", shape="french"))
    assert "il n'y a pas de coup n°99" in text_of(r.sender.to(address)[-1])


async def test_an_oversized_mail_is_refused_politely_and_changes_nothing(r: Rig) -> None:
    await skybridge_table(r)
    address = await waiting_address(r, 1)
    mail = decisions(r, address)[-1]
    version = (await r.service.info(1)).version
    big = EmailMessage()
    big["From"] = address
    big["To"] = str(mail["Reply-To"])
    big["Subject"] = "Re: my move"
    big["Message-ID"] = "<big@client.test>"
    big.set_content("#1\n\n" + "x" * 400_000)
    assert await r.mail(bytes(big))
    assert (await r.service.info(1)).version == version
    answer = text_of(r.sender.to(address)[-1])
    assert "too big" in answer and "Nothing was changed" in answer
    # Its answer says how to play: the reply address is still the seat's.
    assert r.front.tokens.read(str(r.sender.to(address)[-1]["Reply-To"])) is not None
    # Garbage never stops the front end.
    for raw in (b"", b"\x00\xff" * 100, b"From: \r\n\r\n", b"Content-Type: multipart/mixed\r\n"):
        assert await r.front.handle(raw) in (True, False)
    assert await r.mail(reply(mail, address, "#1"))
    assert (await r.service.info(1)).version > version


async def test_a_mail_that_keeps_failing_is_put_aside(r: Rig,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    await skybridge_table(r)
    address = await waiting_address(r, 1)
    raw = reply(decisions(r, address)[-1], address, "#1", message_id="<poison@client.test>")

    async def broken(*args: object, **kwargs: object) -> bool:
        raise RuntimeError("a bug this mail trips")

    monkeypatch.setattr(r.front, "_move", broken)
    answers = [await r.front.handle(raw) for _ in range(5)]
    assert answers == [False, False, False, False, True]
    assert await r.front.mail_store.handled("<poison@client.test>")


async def test_a_move_written_to_the_players_own_address_plays(r: Rig) -> None:
    await skybridge_table(r)
    address = await waiting_address(r, 1)
    other = BOB if address == ANN else ANN
    # The Reply-To of a digest or of an answer: the player's own address.
    personal = next(str(m["Reply-To"]) for m in r.sender.to(address)
                    if "+i0." in str(m["Reply-To"] or ""))
    version = (await r.service.info(1)).version
    prompt = await r.service.prompt(1, Actor("mail:" + address))
    await r.mail(command_mail(address, prompt.options[1].text, to=personal))
    log = await r.service.log(1)
    assert [e.text for e in log if e.version > version and e.source == "player"] == \
        [prompt.options[1].text]
    # The other player's own address from this player: nothing (the address is bound).
    theirs = next(str(m["Reply-To"]) for m in r.sender.to(other)
                  if "+i0." in str(m["Reply-To"] or ""))
    version = (await r.service.info(1)).version
    await r.mail(command_mail(address, "#1", to=theirs))
    assert (await r.service.info(1)).version == version


SAMPLES = Path(__file__).resolve().parent / "samples"
SAMPLE_SEAT = b"play+t12.s3.v45.kq3ttmxvbb6ubsezqqycm3qgca@example.org"


async def test_replies_from_real_clients_reach_their_seat(r: Rig) -> None:
    """mail-in's samples (Gmail, Outlook, Thunderbird, Apple Mail, iPhone, Yahoo, French
    and German clients, HTML only, Latin-1, quoted-printable, base64, attachments) sent to
    a seat's address: each is read to the move its writer typed, and answered (their
    Ginkgopolis move is no Skybridge move) with the moves possible now."""
    from bot.mail.incoming import command_line, parse_incoming

    await skybridge_table(r)
    samples = sorted(p for p in SAMPLES.glob("*.eml") if SAMPLE_SEAT in p.read_bytes()
                     and "autoreply" not in p.name)
    assert len(samples) >= 12
    for n, path in enumerate(samples):
        original = path.read_bytes()
        expected = command_line(parse_incoming(original))
        address = await waiting_address(r, 1)
        seat_address = str(decisions(r, address)[-1]["Reply-To"]).encode()
        sender = parse_incoming(original).sender.encode()
        raw = re.sub(re.escape(sender), address.encode(),
                     original.replace(SAMPLE_SEAT, seat_address), flags=re.I)
        raw = re.sub(rb"(?im)^Message-ID:.*$", f"Message-ID: <sample{n}@t>".encode(), raw)
        version = (await r.service.info(1)).version
        prompt = await r.service.prompt(1, Actor("mail:" + address))
        assert await r.mail(raw), path.name
        if expected.startswith("#"):  # a move by its number: played
            played = [e.text for e in await r.service.log(1)
                      if e.version > version and e.source == "player"]
            assert played == [prompt.options[int(expected[1:]) - 1].text], path.name
            continue
        assert (await r.service.info(1)).version == version, path.name
        answer = text_of(r.sender.to(address)[-1])
        assert answer.startswith("Table #1:") and "#1  " in answer, path.name
        assert expected[:40] in answer, (path.name, expected)
