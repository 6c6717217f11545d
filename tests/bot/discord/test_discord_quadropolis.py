"""A whole 4-seat Quadropolis table through Discord (simcord): the slash command, lobby
buttons, DM menus built from the legal moves (never more than 25 options in a select),
typed DM moves and a typed mistake, a spectator who sees only public content, a late
seat played by the AI at its deadline, a restart mid-round, and the game-over post with
the scores image drawn by ``engine/quadropolis/render``."""

from __future__ import annotations

import random
from typing import Any

import discord
import simcord
from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import (
    DAY,
    World,
    custom_ids,
    label,
    open_table,
    selects,
    simcord_marker,
    texts_of,
)

from bot.service import TableInfo
from engine.quadropolis.render import render_board, render_final, render_private

pytestmark = simcord_marker

SELECT_LIMIT = 25


async def open_four(world: World, **options: Any) -> TableInfo:
    """``/table new game:quadropolis``; Bob, Chloe and Mo join through the lobby's button;
    Alice starts. (The shared ``open_table`` seats at most the three ``people``.)"""
    alice = world.people[0]
    result = await alice.slash(world.channel, "table new", game="quadropolis", **options)
    assert result.ephemeral
    table = await world.table_id()
    for member in [*world.people[1:], world.mod]:
        lobby = world.status_message(table)
        await member.click(lobby, label=label(lobby, "urb:l:join"))
    lobby = world.status_message(table)
    assert "4/4" in lobby.content and "Mo" in lobby.content
    await alice.click(lobby, custom_id=f"urb:l:start:{table}")
    info = await world.service.info(table)
    assert info.status == "running" and len(info.seats) == 4
    assert not any(s.is_bot for s in info.seats)
    return info


def assert_menu_within_limits(message: discord.Message, table: int) -> None:
    assert custom_ids(message), "a DM without a menu"
    assert all(c.startswith(("urb:a:", "urb:s:", "urb:g:", "urb:b:")) and f":{table}:" in c
               for c in custom_ids(message))
    for select in selects(message):
        assert 1 <= len(select.options) <= SELECT_LIMIT


def public_attachments(world: World, viewer: simcord.MemberActor) -> set[str]:
    return {a.filename for m in world.channel.history(viewer=viewer) for a in m.attachments}


async def test_a_whole_quadropolis_table_for_four(world: World) -> None:
    info = await open_four(world)
    table = info.id
    # The seat to play got a DM: its private image and a menu for this table.
    (first,) = info.waiting
    member = world.member_of(info.seats[first].user_id)
    dm = world.menu_dm(member)
    assert [a.filename for a in dm.attachments] == [f"hand-{table}.png"]
    seat_view = await world.service.view(table, world.actor(member))
    assert await dm.attachments[0].read() == render_private(seat_view, names=info.names)

    rng = random.Random(8)
    counts = {"menu": 0, "typed": 0, "refused": 0, "timeout": 0, "grouped": 0}
    restarted = False
    for move in range(400):
        current = await world.service.info(table)
        if current.status != "running":
            break
        view = await world.service.view(table, None)
        (seat,) = current.waiting
        member = world.member_of(current.seats[seat].user_id)

        if not restarted and view["round"] == 2 and view["turn"] == 2:
            # A new bot process mid-round: the menu sent before still plays.
            old_menu = world.menu_dm(member)
            await world.restart()
            restarted = True
            prompt = await world.service.prompt(table, world.actor(member))
            await world.pick(member, world.refresh(old_menu), prompt.options[0].text)
            assert (await world.service.info(table)).version > current.version
            continue

        if not counts["timeout"] and view["round"] == 3 and view["phase"] == "take":
            # This seat lets its deadline pass: the AI plays for it, and says so.
            world.clock.advance(DAY)
            await world.run_deadline(table)
            after = await world.service.info(table)
            assert after.version > current.version
            log = await world.service.log(table)
            assert log[-1].seat == seat and log[-1].source == "timeout"
            late = (current.seats[seat].name, member)
            result = await world.people[0].slash(world.channel, "table log")
            assert "time ran out, the AI played" in result.response.content
            counts["timeout"] += 1
            continue

        prompt = await world.service.prompt(table, world.actor(member))
        texts = [o.text for o in prompt.options]
        # The menu offers exactly the seat's legal moves.
        mine = await world.service.view(table, world.actor(member))
        assert set(texts) == set(mine["me"]["legal"])
        menu = world.menu_dm(member)
        assert_menu_within_limits(menu, table)
        if any(c.startswith(f"urb:g:{table}:") for c in custom_ids(menu)):
            counts["grouped"] += 1
        text = rng.choice(texts)
        if move == 3:
            # The spectator has no seat, hence no hand and no menu.
            result = await world.spectator.slash(world.channel, "hand")
            assert result.ephemeral and "no seat" in result.response.content
        if move == 5:
            # A typed mistake: refused politely, nothing changes.
            before = len(world.dms(member))
            bad = await member.send_dm("9@Z9")
            assert [str(r.emoji) for r in world.refresh(bad).reactions] != ["✅"]
            assert (await world.service.info(table)).version == current.version
            answer = world.dms(member)[before:]
            assert answer and "9@Z9" in answer[-1].content
            counts["refused"] += 1
        if move % 5 == 4:
            sent = await member.send_dm(text)
            assert [str(r.emoji) for r in world.refresh(sent).reactions] == ["✅"], text
            counts["typed"] += 1
        else:
            await world.pick(member, menu, text)
            counts["menu"] += 1
        assert (await world.service.info(table)).version > current.version, text
    assert restarted and counts["timeout"] == 1 and counts["refused"] == 1
    # The table and the late player were told (round news reach the channel in one post).
    await world.flush()
    name, member = late
    assert any(f"Time ran out for {name}" in m.content for m in world.channel_messages())
    assert any("Time ran out at table" in m.content for m in world.dms(member))
    assert counts["menu"] > 60 and counts["typed"] > 15
    assert counts["grouped"] > 20  # 80 takes: first the architect, then the slot

    final = await world.service.info(table)
    assert final.status == "finished" and final.outcome is not None
    messages = world.channel_messages()
    scores = [m for m in messages if any(a.filename == f"scores-{table}.png"
                                         for a in m.attachments)]
    assert len(scores) == 1
    winners = [final.seats[s["seat"]].name for s in final.outcome["standings"]
               if s["rank"] == 1]
    # The post may take several messages (the breakdown is long); the image ends it.
    end = messages.index(scores[0])
    start = max(i for i, m in enumerate(messages[:end + 1]) if "Game over" in m.content)
    post = "\n".join(m.content for m in messages[start:end + 1])
    assert all(w in post for w in winners)
    # The scores image is the renderer's, from the public final view, with the names.
    public = await world.service.view(table, None)
    image = next(a for a in scores[0].attachments if a.filename == f"scores-{table}.png")
    assert await image.read() == render_final(public, final.outcome, names=final.names)
    movie = next(a for a in scores[0].attachments if a.filename == f"timelapse-{table}.gif")
    assert (await movie.read()).startswith(b"GIF8")
    boards = [m for m in messages if any(a.filename == f"board-{table}.png"
                                         for a in m.attachments)]
    assert len(boards) > 3

    # The spectator sees the boards and scores, never a seat's DM image or menu.
    sam = world.spectator
    seen = public_attachments(world, sam)
    assert seen and all(n.startswith(("board-", "scores-", "timelapse-")) for n in seen)
    assert not any(custom_ids(m) and any(c.startswith("urb:a:") for c in custom_ids(m))
                   for m in world.channel.history(viewer=sam))
    result = await sam.slash(world.channel, "table board")
    assert not result.ephemeral
    board = next(a for a in result.response.attachments if a.filename == f"board-{table}.png")
    assert await board.read() == render_board(public, names=final.names)
    # The log names every move's source.
    log = await world.service.log(table)
    assert {e.source for e in log} >= {"timeout"} and all(e.text for e in log)
    assert texts_of(world.channel.history(viewer=sam))


async def test_an_expert_table_with_squares_and_bots(world: World) -> None:
    """The expert mode's shared architects 1-5 make up to 100 takes: the DM offers the
    architect first, then the slot; two AI seats play their turns on their own."""
    info = await open_table(world, "quadropolis", humans=2, bots=2,
                            options="mode=expert squares=true")
    table = info.id
    assert info.options == {"mode": "expert", "squares": True}
    await world.people[0].click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    rng = random.Random(3)
    widest = 0
    for _ in range(300):
        current = await world.service.info(table)
        if current.status != "running":
            break
        humans = [s for s in sorted(current.waiting) if not current.seats[s].is_bot]
        assert humans, "the table waits for nobody"
        member = world.member_of(current.seats[humans[0]].user_id)
        assert_menu_within_limits(world.menu_dm(member), table)
        prompt = await world.service.prompt(table, world.actor(member))
        widest = max(widest, len(prompt.options))
        await world.play_by_dm(table, member, choose=rng.choice)
        assert (await world.service.info(table)).version > current.version
    final = await world.service.info(table)
    assert final.status == "finished" and final.outcome is not None
    assert widest > 25  # the grouped menu was needed, and the game still went through
    public = await world.service.view(table, None)
    assert public["mode"] == "expert" and public["rounds"] == 5
    scores = next(a for m in world.channel_messages() for a in m.attachments
                  if a.filename == f"scores-{table}.png")
    assert await scores.read() == render_final(public, final.outcome, names=final.names)
