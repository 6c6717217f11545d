"""/stats, /leaderboard, /history and /table export through simcord, after a dozen
finished tables on one server (and one on another server, which nobody here sees)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1] / "discord"))

import simcord
from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import World, simcord_marker

from bot.service import TableSettings

pytestmark = simcord_marker
GAME = "skybridge"


async def play_table(world: World, seed: int, players: list[simcord.MemberActor],
                     bots: int, guild: Any = None, channel: Any = None) -> int:
    service = world.service
    host = world.actor(players[0])
    info = await service.create(host, GAME, settings=TableSettings(seat_order="join"),
                                seed=seed, channel_id=str((channel or world.channel).id),
                                guild_id=str((guild or world.guild).id))
    for member in players[1:]:
        await service.join(info.id, world.actor(member))
    for _ in range(bots):
        await service.add_bot(info.id, host)
    await service.start(info.id, host)
    actors = {str(m.id): world.actor(m) for m in players}
    while (table := await service.info(info.id)).status == "running":
        seat = min(table.waiting)
        actor = actors[table.seats[seat].user_id or ""]
        prompt = await service.prompt(info.id, actor)
        await service.act(info.id, actor, prompt.options[0].json, version=prompt.version)
        world.clock.advance(60)
    await world.flush()
    return info.id


async def test_a_dozen_games_then_stats_leaderboard_history(world: World) -> None:
    alice, bob, chloe = world.people
    sam = world.spectator
    line_ups = [[alice, bob], [alice, bob, chloe], [bob, chloe], [alice, chloe]]
    tables = [await play_table(world, 100 + i, line_ups[i % 4], bots=i % 2)
              for i in range(12)]
    tables.append(await play_table(world, 200, [sam, alice], bots=0))
    # A French server's table, with its own members.
    guild = world.env.create_guild("Urbanistes", preferred_locale="fr")
    salon = guild.create_text_channel("jeux")
    amelie = guild.add_member(world.env.create_user("amelie", global_name="Amelie"))
    bruno = guild.add_member(world.env.create_user("bruno", global_name="Bruno"))
    elsewhere = await play_table(world, 300, [amelie, bruno], bots=1, guild=guild,
                                 channel=salon)

    result = await alice.slash(world.channel, "stats")
    assert result.ephemeral
    stats_text = result.response.content
    print("\n--- /stats (alice)\n" + stats_text)
    assert "Games: 10" in stats_text and "Rating at Skybridge" in stats_text
    assert [a.filename for a in result.response.attachments] == ["rating.png"]

    result = await alice.slash(world.channel, "leaderboard", game=GAME)
    board = result.response.content
    print("--- /leaderboard game:skybridge\n" + board)
    assert result.ephemeral and "greedy (bot)" in board and "bob" in board
    assert "Fewer than 3 games: sam (1)" in board  # too few games: listed apart
    assert "amelie" not in board  # another server's player

    result = await bob.slash(world.channel, "history", member=chloe)
    history = result.response.content
    print("--- /history member:chloe\n" + history)
    assert result.ephemeral and f"#{tables[-2]}" in history and "(page 1 of 2)" in history
    assert f"#{elsewhere}" not in history
    message = result.response.message
    await bob.click(message, label="Next")
    page_two = world.refresh(message).content
    assert "(page 2 of 2)" in page_two and f"#{tables[1]}" in page_two

    # The French server sees its own table only, in French.
    result = await amelie.slash(salon, "stats")
    print("--- /stats (amelie, French server)\n" + result.response.content)
    assert "Parties : 1" in result.response.content
    result = await amelie.slash(salon, "history")
    print("--- /history (amelie, French server)\n" + result.response.content)
    assert f"n° {elsewhere} Skybridge" in result.response.content
    assert all(f"n° {t} " not in result.response.content for t in tables)
    result = await bruno.slash(salon, "stats", game="quadropolis")
    assert "Aucune partie terminée ici" in result.response.content
    result = await amelie.slash(salon, "leaderboard", game=GAME)
    assert "le classement du serveur" in result.response.content
    assert "alice" not in result.response.content and "amelie" in result.response.content

    result = await alice.slash(world.channel, "table export", table=tables[0])
    assert result.ephemeral and result.response.attachments
    result = await alice.slash(world.channel, "table export", table=elsewhere)
    assert "no such table" in result.response.content.lower()
