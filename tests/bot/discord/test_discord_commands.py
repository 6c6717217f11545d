"""The slash commands around a game: hosting powers, settings, status, board, rules,
locales, typed DMs, and one table per channel."""

from __future__ import annotations

import discord
import simcord
from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import DAY, HOUR, World, custom_ids, label, open_table, simcord_marker

pytestmark = simcord_marker


async def test_host_powers_pause_resume_extend_kick(world: World) -> None:
    info = await open_table(world, "ginkgopolis", humans=3)
    table = info.id
    alice, bob, chloe = world.people
    await alice.click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    before = await world.service.info(table)

    result = await bob.slash(world.channel, "table pause")
    assert "Only the host" in result.response.content
    result = await alice.slash(world.channel, "table pause")
    assert result.ephemeral and (await world.service.info(table)).status == "paused"
    assert "paused" in world.status_message(table).content
    world.clock.advance(2 * HOUR)
    await alice.slash(world.channel, "table resume")
    resumed = await world.service.info(table)
    assert resumed.status == "running"
    # Nobody lost the two hours spent paused.
    assert all(resumed.deadlines[s] == before.deadlines[s] + 2 * HOUR for s in before.deadlines)

    await alice.slash(world.channel, "table extend", hours=5, member=chloe)
    extended = await world.service.info(table)
    chloe_seat = extended.seat_of(str(chloe.id))
    assert extended.deadlines[chloe_seat] == resumed.deadlines[chloe_seat] + 5 * HOUR
    assert any("5 h more" in m.content for m in world.channel_messages())

    result = await alice.slash(world.channel, "table kick", member=bob)
    assert "Bob no longer plays" in result.response.content
    kicked = await world.service.info(table)
    assert kicked.seats[kicked.seat_of(str(bob.id)) or 0].user_id != str(bob.id)
    assert any(s.is_bot and s.name == "Bob" for s in kicked.seats)

    result = await world.spectator.slash(world.channel, "table settings")
    assert result.ephemeral and "Each decision has 1 d" in result.response.content
    assert "Host: Alice" in result.response.content


async def test_status_board_rules_and_one_table_per_channel(world: World) -> None:
    info = await open_table(world, "skybridge", humans=2, deadline_hours=6)
    table = info.id
    alice = world.people[0]
    result = await alice.slash(world.channel, "table new", game="ginkgopolis")
    assert "already has a table" in result.response.content
    result = await alice.slash(world.channel, "table board")
    assert "not being played" in result.response.content  # still in the lobby
    await alice.click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    current = await world.service.info(table)
    result = await world.spectator.slash(world.channel, "table status")
    assert result.ephemeral and "Waiting for" in result.response.content
    assert not custom_ids(result.response.message)  # no "my hand" for a spectator
    waiting = next(iter(current.waiting))
    assert f"<t:{int(current.deadlines[waiting])}:R>" in result.response.content
    assert current.deadlines[waiting] == world.clock.now() + 6 * HOUR
    result = await world.spectator.slash(world.channel, "table board")
    assert [a.filename for a in result.response.attachments] == [f"board-{table}.png"]
    result = await world.spectator.slash(world.channel, "rules")
    assert "Skybridge" in result.response.content and "roof 5" in result.response.content
    result = await world.spectator.slash(world.channel, "rules", game="ginkgopolis")
    assert "R7+B12" in result.response.content



async def test_a_thread_holds_a_table_of_its_own(world: World) -> None:
    await open_table(world, "skybridge", humans=2)
    alice, bob = world.people[:2]
    # The test as narrator opens a thread under the channel (simcord's backend).
    made = world.env.backend.create_thread(world.channel.id, "second table", alice.id)
    await world.env.settle()
    thread = simcord.ChannelHandle(world.env, world.guild, made)
    result = await alice.slash(thread, "table new", game="skybridge")
    assert "is open" in result.response.content
    in_thread = await world.service.table_in_channel(str(thread.id))
    in_channel = await world.service.table_in_channel(str(world.channel.id))
    assert in_thread is not None and in_channel is not None and in_thread.id != in_channel.id
    assert in_thread.thread_id == str(thread.id)
    lobby = [m for m in thread.history() if custom_ids(m)][-1]
    await bob.click(lobby, custom_id=f"urb:l:join:{in_thread.id}")
    await alice.click(lobby, custom_id=f"urb:l:start:{in_thread.id}")
    thread_texts = [m.content for m in thread.history()]
    assert any("starts at table" in t for t in thread_texts)
    assert not any(f"table #{in_thread.id}" in m.content for m in world.channel.history())


async def test_a_french_server_gets_a_french_table(world: World) -> None:
    guild = world.env.create_guild("Urbanistes", preferred_locale="fr")
    salon = guild.create_text_channel("jeux")
    gens = [guild.add_member(world.env.create_user(n, global_name=n.capitalize()))
            for n in ("amelie", "bruno")]
    result = await gens[0].slash(salon, "table new", game="skybridge")
    assert "est ouverte" in result.response.content
    lobby = [m for m in salon.history() if custom_ids(m)][-1]
    assert "places prises" in lobby.content
    assert label(lobby, "urb:l:join") == "Rejoindre"
    await gens[1].click(lobby, label="Rejoindre")
    await gens[0].click(lobby, label="Commencer")
    assert "On attend" in [m for m in salon.history() if custom_ids(m)][-1].content
    dms = [m for g in gens for m in g.user.dm_channel.history() if custom_ids(m)]
    assert dms and dms[-1].content.startswith("Table n°")
    assert "à vous" in dms[-1].content and "`/main`" in dms[-1].content


async def test_typed_moves_in_dms(world: World) -> None:
    info = await open_table(world, "ginkgopolis", humans=2, bots=1)
    table = info.id
    alice = world.people[0]
    await alice.click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    sent = await alice.send_dm("help")
    answer = world.dms(alice)[-1]
    assert answer.id > sent.id and "Your tables: #" in answer.content
    await alice.send_dm("R99+Q1")
    refusal = world.dms(alice)[-1]
    assert "did not understand" in refusal.content and custom_ids(refusal)
    prompt = await world.service.prompt(table, world.actor(alice))
    version = (await world.service.info(table)).version
    sent = await alice.send_dm(f"#{table} {prompt.options[1].text}")
    assert [str(r.emoji) for r in world.refresh(sent).reactions] == ["✅"]
    assert (await world.service.info(table)).version > version


async def test_a_dm_reopened_is_used_again(world: World) -> None:
    info = await open_table(world, "ginkgopolis", humans=2)
    table = info.id
    alice, bob = world.people[:2]
    world.env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", status=403,
                           code=50007, message="Cannot send messages to this user", times=1)
    await alice.click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    info = await world.service.info(table)
    assert not info.seats[info.seat_of(str(bob.id)) or 0].dm_ok
    # Bob opens his DMs and writes to the bot: his seat is reachable again.
    await bob.send_dm("help")
    info = await world.service.info(table)
    assert info.seats[info.seat_of(str(bob.id)) or 0].dm_ok
    world.clock.advance(DAY / 2)
    await world.run_reminder(table)
    assert world.dms(bob)[-1].content.startswith("Reminder")


async def test_unknown_game_and_missing_table(world: World) -> None:
    alice = world.people[0]
    result = await alice.slash(world.channel, "table new", game="monopoly")
    assert "do not know the game monopoly" in result.response.content
    result = await alice.slash(world.channel, "table join")
    assert "no such table" in result.response.content.lower()
    result = await alice.slash(world.channel, "hand")
    assert result.ephemeral
    assert isinstance(result.response.message, discord.Message)


def said(result: simcord.InteractionResult) -> str:
    messages = [result.response, *result.followups]
    return "\n".join(m.content for m in messages if m is not None)


async def test_hand_in_dms_takes_a_table_number_and_lets_the_player_choose(
        world: World) -> None:
    first = await open_table(world, "ginkgopolis", humans=2, bots=0)
    alice = world.people[0]
    await alice.click(world.status_message(first.id), custom_id=f"urb:l:start:{first.id}")
    # A DM belongs to no server: the number names the player's own table.
    result = await alice.user.slash("hand", table=first.id)
    text = said(result)
    assert "There is no such table here" not in text
    assert f"Table #{first.id}" in text
    # A table where the player holds no seat is refused.
    result = await world.people[2].user.slash("hand", table=first.id)
    refused = said(result)
    assert "Hand:" not in refused and "no such table" in refused
    # A second table, in another channel, waiting for Alice too: /hand without a number
    # lists both for her to choose.
    service = world.service
    me, bob = world.actor(alice), world.actor(world.people[1])
    second = await service.create(me, "skybridge", channel_id="424242", guild_id=first.guild_id)
    await service.join(second.id, bob)
    await service.start(second.id, me)
    waiting = [t.id for t in await service.tables_of(me.user_id)
               if t.seat_of(me.user_id) in t.waiting]
    assert first.id in waiting
    if second.id not in waiting:  # Bob moves first at Skybridge: let him
        prompt = await service.prompt(second.id, bob)
        await service.act(second.id, bob, prompt.options[0].json, version=prompt.version)
    result = await alice.user.slash("hand")
    listing = said(result)
    assert "Several tables wait for you" in listing
    assert f"#{first.id} (Ginkgopolis)" in listing and f"#{second.id} (Skybridge)" in listing
