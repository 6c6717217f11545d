"""``urbanist run --mail``: the Discord bot and the mail front end in one process, over
one service (simcord for Discord, the SMTP sender kept in memory). A table opened in a
Discord channel seats a player by mail: each seat's messages go where it plays, the
channel reads the news, the mail player reads it by mail and plays by reply."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "bot" / "discord"), str(HERE.parent / "bot")]

import mailworld  # type: ignore[import-not-found]  # noqa: E402
from simtable import World, open_table, simcord_marker  # type: ignore[import-not-found]  # noqa: E402

from bot.discord.notifier import DiscordNotifier  # noqa: E402
from bot.service.routing import RoutingNotifier  # noqa: E402
from tests.mail.front_helpers import (  # noqa: E402
    MemorySender,
    bounce_mail,
    command_mail,
    reply,
    text_of,
)

pytestmark = simcord_marker
ANN = "ann@example.net"


clock, sender, simcord_bot, world = mailworld.FIXTURES  # the world's fixtures


async def test_a_discord_table_seats_a_mail_player(world: World,
                                                   sender: MemorySender) -> None:
    notifier = world.bot.notifier
    assert isinstance(notifier, RoutingNotifier)
    assert isinstance(notifier.home, DiscordNotifier)
    front = world.bot.config.mail.front
    info = await open_table(world, "skybridge", humans=1)
    await front.handle(command_mail(ANN, f"join {info.id}"))
    await world.flush()
    assert "You have a seat at table" in text_of(sender.to(ANN)[-1])
    lobby = world.status_message(info.id)
    assert "ann" in lobby.content  # the channel's lobby shows the mail player
    await world.people[0].click(lobby, custom_id=f"urb:l:start:{info.id}")
    await world.flush()
    for _ in range(6):
        table = await world.service.info(info.id)
        seat = min(table.waiting)
        user = str(table.seats[seat].user_id)
        if user.startswith("mail:"):
            mail = next(m for m in reversed(sender.history)
                        if "+t" in str(m["Reply-To"] or ""))
            await front.handle(reply(mail, ANN, "#1"))
        else:
            await world.play_by_dm(info.id, world.people[0])
        await world.flush()
    # Alice's decisions came as DMs, Ann's as mails; nothing of Ann's went to Discord.
    assert world.dms(world.people[0])
    decisions = [m for m in sender.history if "+t" in str(m["Reply-To"] or "")]
    assert len(decisions) >= 2
    news = "\n".join(m.content for m in world.channel_messages())
    assert "ann" in news  # the channel tells Ann's moves
    assert not any(m["To"] != ANN for m in sender.history)


async def test_a_mail_seat_that_bounces_is_told_in_the_channel_without_a_mention(
        world: World, sender: MemorySender) -> None:
    front = world.bot.config.mail.front
    info = await open_table(world, "skybridge", humans=1)
    await front.handle(command_mail(ANN, f"join {info.id}"))
    await world.flush()
    await world.people[0].click(world.status_message(info.id),
                                custom_id=f"urb:l:start:{info.id}")
    await world.flush()
    await front.handle(bounce_mail(ANN))
    await world.flush()
    # The news goes out with the round's next post.
    for _ in range(3):
        table = await world.service.info(info.id)
        seat = min(table.waiting)
        if str(table.seats[seat].user_id).startswith("mail:"):
            await world.run_deadline(info.id)
        else:
            await world.play_by_dm(info.id, world.people[0])
        await world.flush()
    news = "\n".join(m.content for m in world.channel_messages())
    assert "ann cannot be reached by mail" in news
    assert "<@mail:" not in news


async def test_table_invite_email_seats_a_player_by_mail(world: World,
                                                         sender: MemorySender) -> None:
    info = await open_table(world, "skybridge", humans=1)
    host = world.people[0]
    answer = await host.slash(world.channel, "table invite", email="nonsense")
    assert answer.ephemeral and "is not an email address" in answer.response.content
    answer = await host.slash(world.channel, "table invite", email="Ann@Example.net")
    assert answer.ephemeral and f"invitation to table #{info.id} went to" in \
        answer.response.content
    invitation = sender.to(ANN)[-1]
    assert "Alice invites you to play Skybridge" in text_of(invitation)
    # Only the host invites.
    other = await world.people[1].slash(world.channel, "table invite", email="x@example.org")
    assert other.ephemeral and "Only the host" in other.response.content
    assert len(sender.history) == 1
    await world.bot.config.mail.front.handle(reply(invitation, ANN, "yes please"))
    await world.flush()
    seats = (await world.service.info(info.id)).seats
    assert [s.user_id for s in seats] == [str(host.id), "mail:" + ANN]
