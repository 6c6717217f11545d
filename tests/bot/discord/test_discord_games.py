"""Whole games through Discord: slash commands, lobby buttons, DM menus (buttons, selects,
card-then-tile groups), typed DM moves, the status message, board and score images."""

from __future__ import annotations

import random
import re

import discord
from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import World, custom_ids, open_table, simcord_marker, texts_of

from bot.service import Prompt

pytestmark = simcord_marker

HAND_LINE = re.compile(r"^Hand: .*$", re.MULTILINE)


def channel_snapshot(world: World) -> dict[int, str]:
    return {m.id: m.content for m in world.channel_messages()}


def changed_since(world: World, before: dict[int, str]) -> str:
    return texts_of(m for m in world.channel_messages() if before.get(m.id) != m.content)


async def play_to_the_end(world: World, table: int, *, seed: int, typed_every: int,
                          max_moves: int = 400) -> dict[str, int]:
    """Every human decision through Discord: mostly menus, every ``typed_every``-th one
    typed in the DM. Returns how many moves went each way."""
    rng = random.Random(seed)
    counts = {"menu": 0, "typed": 0, "secret_checked": 0}
    for move in range(max_moves):
        info = await world.service.info(table)
        if info.status != "running":
            break
        humans = [s for s in sorted(info.waiting) if not info.seats[s].is_bot]
        assert humans, "the table waits for nobody"
        seat = humans[0]
        member = world.member_of(info.seats[seat].user_id)
        prompt: Prompt = await world.service.prompt(table, world.actor(member))
        texts = [o.text for o in prompt.options]
        text = rng.choice(texts)
        before = channel_snapshot(world)
        if move % typed_every == typed_every - 1:
            sent = await member.send_dm(text)
            reacted = world.refresh(sent)
            assert [str(r.emoji) for r in reacted.reactions] == ["✅"], text
            counts["typed"] += 1
        else:
            await world.pick(member, world.menu_dm(member), text)
            counts["menu"] += 1
        after = await world.service.info(table)
        assert after.version > info.version, f"{member.name}'s {text} was not applied"
        mine = await world.service.prompt(table, world.actor(member))
        if mine.decision == "changeable":
            # A secret choice, not yet revealed: nothing the channel shows may say it.
            assert f"`{text}`" not in changed_since(world, before)
            counts["secret_checked"] += 1
    return counts


async def test_a_whole_ginkgopolis_game_for_three(world: World) -> None:
    info = await open_table(world, "ginkgopolis", humans=3)
    table = info.id
    lobby = world.status_message(table)
    assert "3/5" in lobby.content and "Chloe" in lobby.content
    await world.people[0].click(lobby, custom_id=f"urb:l:start:{table}")

    # Each seat got its own DM: the private image and a menu built for this table.
    for member in world.people:
        dm = world.menu_dm(member)
        assert [a.filename for a in dm.attachments] == [f"hand-{table}.png"]
        assert all(c.startswith(f"urb:a:{table}:") for c in custom_ids(dm))
    counts = await play_to_the_end(world, table, seed=11, typed_every=4)
    assert counts["menu"] > 20 and counts["typed"] > 5 and counts["secret_checked"] > 5

    final = await world.service.info(table)
    assert final.status == "finished"
    messages = world.channel_messages()
    scores = [m for m in messages if any(a.filename == f"scores-{table}.png"
                                         for a in m.attachments)]
    assert len(scores) == 1
    winners = [final.seats[s["seat"]].name for s in final.outcome["standings"]
               if s["rank"] == 1 and s["seat"] is not None]
    assert "Game over" in scores[0].content and winners[0] in scores[0].content
    # With the city's timelapse, replayed from the log: a GIF, one frame per round.
    movie = next(a for a in scores[0].attachments if a.filename == f"timelapse-{table}.gif")
    assert (await movie.read()).startswith(b"GIF8")
    # Boards were posted along the way, only when the board had changed.
    boards = [m for m in messages if any(a.filename == f"board-{table}.png"
                                         for a in m.attachments)]
    assert len(boards) > 5
    status = next(m for m in messages if "is over" in m.content)
    assert not custom_ids(status)  # nothing left to click on a finished table
    # The log names every move's source; secret picks stay secret in it.
    result = await world.people[1].slash(world.channel, "table log")
    assert result.ephemeral and "Log of table" in result.response.content


async def test_a_group_menu_picks_a_card_then_a_tile(world: World) -> None:
    """More than 25 options: the DM offers the cards first, then that card's tiles."""
    info = await open_table(world, "ginkgopolis", humans=2, bots=1)
    table = info.id
    await world.people[0].click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    for _ in range(60):
        current = await world.service.info(table)
        humans = [s for s in sorted(current.waiting) if not current.seats[s].is_bot]
        seat = humans[0]
        member = world.member_of(current.seats[seat].user_id)
        prompt = await world.service.prompt(table, world.actor(member))
        if len(prompt.options) > 25:
            break
        await world.play_by_dm(table, member)
    else:
        raise AssertionError("no decision with more than 25 options came up")
    dm = world.menu_dm(member)
    assert any(c.startswith(f"urb:g:{table}:") for c in custom_ids(dm))
    text = next(o.text for o in prompt.options if "+" in o.text)
    card = text.split("+")[0]
    group = next(s for s in dm.components[0].children if isinstance(s, discord.SelectMenu))
    await member.user.select(dm, [card], custom_id=group.custom_id)
    opened = world.refresh(dm)
    assert any(c.startswith(f"urb:b:{table}:") for c in custom_ids(opened))  # Back
    offered = [o.value for c in opened.components for s in c.children
               if isinstance(s, discord.SelectMenu) for o in s.options]
    offered += [c.split(":", 4)[4] for c in custom_ids(opened) if c.startswith("urb:a:")]
    assert text in offered and all(t.startswith(card) for t in offered)
    # Back shows the cards again; then the pick goes through.
    await member.user.click(opened, custom_id=next(c for c in custom_ids(opened)
                                                   if c.startswith("urb:b:")))
    assert any(c.startswith("urb:g:") for c in custom_ids(world.refresh(dm)))
    version = (await world.service.info(table)).version
    await world.pick(member, world.refresh(dm), text)
    assert (await world.service.info(table)).version > version
    assert "Chosen: `" + text + "`" in world.refresh(dm).content


async def test_a_whole_skybridge_game_for_two(world: World) -> None:
    info = await open_table(world, "skybridge", humans=2)
    table = info.id
    await world.people[0].click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    counts = await play_to_the_end(world, table, seed=5, typed_every=3)
    assert counts["menu"] > 10 and counts["typed"] > 5
    final = await world.service.info(table)
    assert final.status == "finished"
    messages = world.channel_messages()
    assert any(a.filename == f"scores-{table}.png" for m in messages for a in m.attachments)
    # Sequential moves are public: the channel tells each one in words (every Skybridge
    # move names its foundation), and the log keeps their codes.
    log = await world.service.log(table)
    assert all(entry.text for entry in log)
    assert texts_of(messages).count("foundation") >= len(log) - 1
