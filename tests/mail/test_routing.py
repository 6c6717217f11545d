"""RoutingNotifier: each seat's messages go where it plays (a Discord member's to the home
front end, a mail player's to mail), the table's news to both; a note two transports
sent is settled only when both are. A mixed table played through the service."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.service import Actor, Notification, Refused
from bot.service.notifications import HELD, SENT, Delivery, Failed, Retry
from bot.service.routing import RoutingNotifier, merge
from tests.mail.front_helpers import command_mail, reply, rig, text_of


@dataclass
class Recorder:
    answer: Mapping[int, Delivery] = field(default_factory=dict)
    got: list[Notification] = field(default_factory=list)
    inline: bool = False

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        self.got.extend(notes)
        return {n.outbox_id: self.answer[n.outbox_id] for n in notes
                if n.outbox_id in self.answer}


def note(outbox_id: int, seat: int | None, user_id: str | None) -> Notification:
    return Notification(table_id=1, seat=seat, template="your_turn" if seat is not None
                        else "acted", context={}, game="skybridge", locale="en",
                        user_id=user_id, outbox_id=outbox_id)


async def test_private_notes_go_where_their_seat_plays_and_news_to_both() -> None:
    home, mail = Recorder(), Recorder()
    notes = [note(1, 0, "1234567890"), note(2, 1, "mail:ann@example.net"), note(3, None, None),
             note(4, 2, "local:1")]
    await RoutingNotifier(home, mail).deliver(notes)
    assert [n.outbox_id for n in home.got] == [1, 3, 4]
    assert [n.outbox_id for n in mail.got] == [2, 3]


async def test_a_note_sent_by_two_is_settled_only_when_both_are() -> None:
    news = note(3, None, None)
    for home_says, mail_says, expected in (
            (SENT, SENT, SENT), (HELD, HELD, HELD), (SENT, Retry(5, "421"), Retry(5, "421")),
            (Retry(9, "503"), SENT, Retry(9, "503")),
            (Retry(2, "a"), Retry(30, "b"), Retry(30, "b")),
            # A public note never fails for good: a digest to one reader is mail's matter.
            (SENT, Failed("no"), SENT)):
        home, mail = Recorder({3: home_says}), Recorder({3: mail_says})
        result = await RoutingNotifier(home, mail).deliver([news])
        assert result[3] == expected, (home_says, mail_says)
    # A private note's answer is its own transport's.
    home, mail = Recorder(), Recorder({2: Failed("550")})
    result = await RoutingNotifier(home, mail).deliver([note(2, 1, "mail:ann@example.net")])
    assert result[2] == Failed("550")
    assert merge(HELD, SENT) == HELD


async def test_the_mail_transport_may_skip_tables_without_mail_readers() -> None:
    home, mail = Recorder(), Recorder()
    router = RoutingNotifier(home, mail, public_to_mail=lambda table_id: False)
    await router.deliver([note(3, None, None)])
    assert mail.got == [] and len(home.got) == 1
    assert router.inline is False
    assert RoutingNotifier(Recorder(inline=True), Recorder(inline=True)).inline is True


async def test_a_mixed_table_discord_and_mail(tmp_path: Path) -> None:
    """A Discord member hosts in a channel; a mail player joins by mail. The member's
    decisions and the channel's news go home, the mail player's decisions by mail."""
    async with rig(tmp_path / "mixed.sqlite3") as r:
        member = Actor("111111111111111111", "Dana")
        info = await r.service.create(member, "skybridge", channel_id="c1", guild_id="g1")
        r.clock.advance(3601)
        await r.mail(command_mail("ann@example.net", f"join {info.id}"))
        await r.service.add_bot(info.id, member, level="easy")
        await r.service.configure(info.id, member, settings=dataclasses.replace(
            (await r.service.info(info.id)).settings, seat_order="join"))
        await r.service.start(info.id, member)
        await r.settle()
        home_private = {n.user_id for n in r.home.notes if n.seat is not None}
        assert home_private <= {member.user_id}
        # Play until each human has had a decision: the member's comes home.
        for _ in range(6):
            table = await r.service.info(info.id)
            seat = next(s for s in table.waiting if not table.seats[s].is_bot)
            user = str(table.seats[seat].user_id)
            prompt = await r.service.prompt(info.id, Actor(user))
            await r.service.act(info.id, Actor(user), prompt.options[0].json,
                                version=prompt.version)
            await r.settle()
        assert {n.user_id for n in r.home.notes if n.seat is not None} == {member.user_id}
        assert [m for m in r.sender.to("ann@example.net") if "+t" in str(m["Reply-To"])]
        assert any(n.seat is None and n.template == "started" for n in r.home.notes)
        # The mail player reads the start by mail (in a digest or their decision mail).
        assert any("starts at table" in str(m.get_body(("plain",)).get_content())  # type: ignore[union-attr]
                   for m in r.sender.to("ann@example.net"))
        assert all("mail:" not in str(n.user_id) for n in r.home.notes)


async def test_a_discord_host_invites_by_email_and_a_reply_takes_the_seat(
        tmp_path: Path) -> None:
    async with rig(tmp_path / "invite.sqlite3") as r:
        member = Actor("222222222222222222", "Dana")
        info = await r.service.create(member, "skybridge", channel_id="c1", guild_id="g1")
        assert await r.front.invite(info.id, "Ann@Example.net", member)
        invitation = r.sender.to("ann@example.net")[-1]
        assert "Dana invites you to play Skybridge" in text_of(invitation)
        assert r.front.tokens.read_invite(str(invitation["Reply-To"])) == \
            (info.id, "ann@example.net")
        # Someone else replying to it (a forwarded mail, a forged sender) takes nothing.
        await r.mail(reply(invitation, "eve@example.net", "yes"))
        assert len((await r.service.info(info.id)).seats) == 1
        # Ann declines, then thinks again.
        await r.mail(reply(invitation, "ann@example.net", "no thanks"))
        assert len((await r.service.info(info.id)).seats) == 1
        await r.mail(reply(invitation, "ann@example.net", "Count me in!"))
        seats = (await r.service.info(info.id)).seats
        assert [s.user_id for s in seats] == [member.user_id, "mail:ann@example.net"]
        assert "You have a seat at table" in text_of(r.sender.to("ann@example.net")[-1])
        # Only the host invites, and only to a lobby.
        with pytest.raises(Refused):
            await r.front.invite(info.id, "bob@example.net", Actor("333", "Zed"))
        await r.service.start(info.id, member)
        with pytest.raises(Refused):
            await r.front.invite(info.id, "bob@example.net", member)
