"""``/table follow table:`` and ``/table unfollow`` (issue 22, item 5): a table opened by
mail, followed in a Discord channel. The channel reads its public news and its status
message, each mail player still gets their decisions by mail, and nothing private reaches
the channel; refusals say why, in the table's language, except for a table nobody here
may know of (unknown, private, another server's), which all get the same answer."""
from __future__ import annotations

from email.message import EmailMessage

import mailworld
import pytest
import simcord
from simtable import World, custom_ids, open_table, simcord_marker

from bot.service import Actor
from bot.store import pages
from tests.mail.front_helpers import MemorySender, command_mail, reply, text_of

pytestmark = simcord_marker
ANN = "ann@example.net"


clock, sender, simcord_bot, world = mailworld.FIXTURES  # the world's fixtures


# What only Ann's decision mails say (Ginkgopolis: the characters in her hand, her moves).
PRIVATE = ("Characters you hold", "Characters passed to you", "You keep character",
           "Your moves, by number", "draft ")


async def mail_table(world: World, sender: MemorySender, line: str) -> int:
    """A table opened by Ann by mail (``line``: the rest of her ``new``); its number."""
    await world.bot.config.mail.front.handle(command_mail(ANN, f"new {line}"))
    await world.flush()
    found = text_of(sender.to(ANN)[-1])
    return int(found.split("#", 1)[1].split()[0].strip(".,:;()"))


async def start_by_mail(world: World, table: int) -> None:
    await world.bot.config.mail.front.handle(command_mail(ANN, f"start {table}"))
    await world.flush()


def decisions(sender: MemorySender) -> list[EmailMessage]:
    return [m for m in sender.history if "+t" in str(m["Reply-To"] or "")]


async def answer_mail(world: World, sender: MemorySender, move: str = "#1") -> None:
    await world.bot.config.mail.front.handle(reply(decisions(sender)[-1], ANN, move))
    await world.flush()


def said(result: simcord.InteractionResult) -> str:
    """The bot's answer to a command (there is one)."""
    assert result.response is not None
    return str(result.response.content)


def channel_text(world: World, channel: simcord.ChannelHandle | None = None) -> str:
    target = channel or world.channel
    return "\n".join(m.content for m in target.history() if m.author.id == world.bot_id())


async def test_a_mail_table_followed_here_shows_its_news_and_never_a_hand(
        world: World, sender: MemorySender) -> None:
    table = await mail_table(world, sender, "ginkgopolis players=3 bots=2")
    await start_by_mail(world, table)
    assert world.channel_messages() == []
    mails = len(decisions(sender))
    answer = await world.mod.slash(world.channel, "table follow", table=table)
    assert answer.ephemeral
    assert f"Table #{table} (Ginkgopolis) is now followed in this channel" in \
        said(answer)
    await world.flush()
    # The status message is there at once, with its button for the hand.
    assert f"urb:h:{table}" in custom_ids(world.status_message(table))
    assert "**Ginkgopolis**, table #" in channel_text(world)
    # Ann drafts by mail until the round's news is posted in the channel.
    for _ in range(6):
        await answer_mail(world, sender)
        if len(world.channel_messages()) > 1:
            break
    news = world.channel_messages()[-1].content
    assert len(world.channel_messages()) > 1 and "ann" in news
    assert f"Table #{table} is now followed on Discord, in #games (Urbanists)" in news
    assert len(decisions(sender)) > mails  # her decisions still come by mail
    mailed = "\n".join(text_of(m) for m in sender.history)
    assert "now followed on Discord, in #games (Urbanists)" in mailed
    shown = channel_text(world)
    for words in PRIVATE:
        assert words in mailed and words not in shown, words
    assert "+t" not in shown and ANN not in shown


async def test_unfollow_stops_the_posts_and_the_mail_player_goes_on(
        world: World, sender: MemorySender) -> None:
    table = await mail_table(world, sender, "skybridge players=2 bots=1")
    await start_by_mail(world, table)
    await world.mod.slash(world.channel, "table follow", table=table)
    await world.flush()
    before = len(world.channel_messages())
    await answer_mail(world, sender)
    posted = world.channel_messages()[before:]
    assert posted and "ann" in "\n".join(m.content for m in posted)  # the move's news
    status = world.status_message(table)
    refused = await world.spectator.slash(world.channel, "table unfollow")
    assert refused.ephemeral and "Only the host or a server manager" in \
        said(refused)
    answer = await world.mod.slash(world.channel, "table unfollow")
    assert answer.ephemeral
    assert f"Table #{table} (Skybridge) is no longer followed in this channel" in \
        said(answer)
    await world.flush()
    # The status message says so, and its buttons are gone.
    status = world.refresh(status)
    assert "no longer followed" in status.content and custom_ids(status) == []
    assert (await world.service.info(table)).channel_id is None
    count, mails = len(world.channel_messages()), len(decisions(sender))
    await answer_mail(world, sender)
    await answer_mail(world, sender)
    assert len(world.channel_messages()) == count  # nothing more here
    assert len(decisions(sender)) == mails + 2  # Ann plays on by mail
    mailed = "\n".join(text_of(m) for m in sender.history)
    assert "no longer followed on Discord in #games (Urbanists) (by Mo)" in mailed
    # Followed again, in another channel: its status is posted there afresh.
    other = world.guild.create_text_channel("more-games")
    again = await world.mod.slash(other, "table follow", table=table)
    assert "is now followed in this channel" in said(again)
    await world.flush()
    assert f"**Skybridge**, table #{table}" in channel_text(world, other)


async def test_who_may_follow_and_what_is_refused(world: World,
                                                  sender: MemorySender) -> None:
    table = await mail_table(world, sender, "skybridge players=2 bots=1")
    mod = world.mod
    # Not the host, no right to manage the channel: refused, nothing attached.
    refused = await world.spectator.slash(world.channel, "table follow", table=table)
    assert "Only the host or a server manager may do this." in said(refused)
    assert (await world.service.info(table)).channel_id is None
    # A number nobody has, a private table (French: still the server's English), and a
    # table of another server: one and the same answer.
    private = await mail_table(world, sender, "skybridge players=2 bots=1 locale=fr")
    await pages.set_public(world.service.store, private, False)
    elsewhere = world.env.create_guild("Elsewhere")
    room = elsewhere.create_text_channel("play")
    zoe = elsewhere.add_member(world.env.create_user("zoe", global_name="Zoe"))
    await zoe.slash(room, "table new", game="skybridge")
    theirs = await world.service.table_in_channel(str(room.id))
    assert theirs is not None
    answers = [said(await mod.slash(world.channel, "table follow", table=number))
               for number in (999, private, theirs.id)]
    assert answers == ["There is no such table here."] * 3
    assert (await world.service.info(private)).channel_id is None
    # The channel's own table, followed in a channel already, a channel with a table.
    await open_table(world, "skybridge", humans=1)
    home = await world.table_id()
    answer = await mod.slash(world.channel, "table follow", table=home)
    assert said(answer) == f"Table #{home} is followed in <#{world.channel.id}> " \
        "already."
    answer = await mod.slash(world.channel, "table follow", table=table)
    assert said(answer).startswith("This channel already has a table")
    refused = await mod.slash(world.channel, "table unfollow")
    assert "its table was opened here" in said(refused)
    other = world.guild.create_text_channel("mail-games")
    await mod.slash(other, "table follow", table=table)
    answer = await mod.slash(world.guild.create_text_channel("third"), "table follow",
                             table=table)
    assert said(answer) == f"Table #{table} is followed in <#{other.id}> already."
    # A table in another server's channel is not named.
    far = await mail_table(world, sender, "skybridge players=2 bots=1")
    await world.service.attach_channel(far, Actor("mail:" + ANN, "ann"),
                                       channel_id=str(room.id))
    answer = await mod.slash(other, "table follow", table=far)
    assert said(answer) == f"Table #{far} is followed in another server already."
    # Nothing to unfollow in a channel without a table.
    empty = await mod.slash(world.guild.create_text_channel("empty"), "table unfollow")
    assert said(empty) == "There is no such table here."


async def test_a_french_table_is_refused_and_followed_in_french(
        world: World, sender: MemorySender) -> None:
    table = await mail_table(world, sender, "skybridge players=2 bots=1 locale=fr")
    refused = await world.spectator.slash(world.channel, "table follow", table=table)
    assert said(refused).startswith("Seul l'hôte ou un gestionnaire du serveur")
    answer = await world.mod.slash(world.channel, "table follow", table=table)
    assert said(answer).startswith(
        f"La table n° {table} (Skybridge) est maintenant suivie dans ce salon")


async def test_a_lobby_followed_here_seats_a_member_and_an_ended_table_shows_its_end(
        world: World, sender: MemorySender) -> None:
    lobby = await mail_table(world, sender, "skybridge players=2")
    await world.mod.slash(world.channel, "table follow", table=lobby)
    await world.flush()
    status = world.status_message(lobby)
    assert f"urb:l:join:{lobby}" in custom_ids(status)
    await world.people[1].click(status, custom_id=f"urb:l:join:{lobby}")
    await world.flush()
    seats = (await world.service.info(lobby)).seats
    assert [s.user_id for s in seats] == ["mail:" + ANN, str(world.people[1].id)]
    assert "Bob joins table" in text_of(sender.to(ANN)[-1])  # told by mail as well
    # An aborted table can be followed: its status says so, and nothing else comes.
    ended = await mail_table(world, sender, "skybridge players=2 bots=1")
    await world.service.abort(ended, Actor("mail:" + ANN, "ann"))
    await world.flush()
    other = world.guild.create_text_channel("archive")
    await world.mod.slash(other, "table follow", table=ended)
    await world.flush()
    assert channel_text(world, other) == f"**Skybridge**, table #{ended} has ended."


async def test_tables_this_bot_cannot_show(world: World, sender: MemorySender,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # A console table: its players are neither on Discord nor by mail.
    info = await world.service.create(Actor("local:1", "Cleo"), "skybridge")
    answer = await world.mod.slash(world.channel, "table follow", table=info.id)
    assert said(answer) == "There is no such table here."
    assert (await world.service.info(info.id)).channel_id is None
    # A mail table, on a bot run without mail (``urbanist run``, another process mails).
    table = await mail_table(world, sender, "skybridge players=2 bots=1")
    monkeypatch.setattr(world.bot.config, "mail", None)
    answer = await world.mod.slash(world.channel, "table follow", table=table)
    assert said(answer).startswith(f"Table #{table} is played by email, and this bot does "
                                   "not play by email")
    assert (await world.service.info(table)).channel_id is None
