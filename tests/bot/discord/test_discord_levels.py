"""Bot levels on Discord: ``/table new level:``, ``/table settings level:``, and the
lobby's select that adds a bot of a chosen level (the bot button adds one at the
table's level)."""

from __future__ import annotations

from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import World, open_table, simcord_marker

pytestmark = simcord_marker


async def test_the_level_is_chosen_at_new_changed_in_settings_and_per_bot(world: World) -> None:
    info = await open_table(world, "skybridge", humans=1, level="easy")
    table = info.id
    alice = world.people[0]
    assert info.ai_level == "easy"
    shown = await alice.slash(world.channel, "table settings")
    assert "Bot level: easy (plays at random): new bots get it" in shown.response.content

    result = await alice.slash(world.channel, "table settings", level="normal")
    assert "Bot level: normal (the best move now)" in result.response.content
    assert (await world.service.info(table)).ai_level == "normal"
    assert "- bot level: normal (was easy)" in world.channel_messages()[-1].content

    # The bot button adds a bot at the table's level; the select, at the level chosen.
    lobby = world.status_message(table)
    await alice.click(lobby, custom_id=f"urb:l:bot:{table}")
    await alice.select(world.status_message(table), ["hard"], custom_id=f"urb:lb:{table}")
    info = await world.service.info(table)
    assert [(s.is_bot, s.level) for s in info.seats] == [
        (False, None), (True, "normal"), (True, "hard")]
    assert "- Bot 2 (bot, hard)" in world.status_message(table).content

    # Only the host adds bots, whatever the level.
    refused = await world.spectator.select(world.status_message(table), ["easy"],
                                           custom_id=f"urb:lb:{table}")
    assert "Only the host" in refused.followups[-1].content
    assert len((await world.service.info(table)).seats) == 3


async def test_the_level_select_speaks_french_at_a_french_table(world: World) -> None:
    info = await open_table(world, "skybridge", humans=1, locale="fr")
    lobby = world.status_message(info.id)
    select = next(c for row in lobby.components for c in getattr(row, "children", [])
                  if getattr(c, "custom_id", None) == f"urb:lb:{info.id}")
    assert [o.label for o in select.options] == [
        "Bot facile (joue au hasard)", "Bot normal (le meilleur coup immédiat)",
        "Bot difficile (réfléchit à l'avance)"]
    assert select.placeholder == "Ajouter un bot d'un autre niveau…"


async def test_a_hard_bot_plays_from_its_worker_pool_and_the_channel_names_its_level(
        world: World) -> None:
    # Real worker processes think here: on a loaded machine a search move and the
    # pool's start take longer than simcord's default 5 s wait for the bot to settle.
    world.env.settle_timeout = 120.0
    info = await open_table(world, "skybridge", humans=1)
    table = info.id
    alice = world.people[0]
    await alice.select(world.status_message(table), ["hard"], custom_id=f"urb:lb:{table}")
    await alice.click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    for _ in range(2):
        await world.service.settle(table)
        await world.play_by_dm(table, alice)
    await world.service.settle(table)
    await world.flush()
    assert world.service.thinker.started  # the search ran in worker processes
    log = await world.service.log(table)
    assert len([e for e in log if e.source == "bot"]) >= 2
    assert {e.level for e in log if e.source == "bot"} == {"hard"}
    assert any("Bot 1 (hard) plays" in m.content for m in world.channel_messages())
    report = await world.service.verify(table)
    assert report.ok, report.problem
