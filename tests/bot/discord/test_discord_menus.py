"""Menu navigation (a group, Back) is not a move, so the service never sees it: the
handler itself must refuse a menu the table has moved past."""

from __future__ import annotations

import copy

import discord
from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import World, custom_ids, open_table, simcord_marker

pytestmark = simcord_marker


def add_button(world: World, message: discord.Message, custom_id: str) -> None:
    """Put back on the stored message a button it showed before: what a client that never
    refreshed still displays. (The test is the narrator: simcord's backend is mutated.)"""
    stored = world.env.backend.get_message(message.channel.id, message.id)
    rows = copy.deepcopy(stored.components)
    assert len(rows) < 5
    rows.append({"type": 1, "components": [
        {"type": 2, "style": 2, "label": "Back", "custom_id": custom_id}]})
    stored.components = rows


async def test_a_stale_menu_cannot_be_navigated(world: World) -> None:
    info = await open_table(world, "ginkgopolis", humans=2)
    table = info.id
    await world.people[0].click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    for _ in range(60):
        current = await world.service.info(table)
        seat = min(current.waiting)
        member = world.member_of(current.seats[seat].user_id)
        prompt = await world.service.prompt(table, world.actor(member))
        if len(prompt.options) > 25 and len(current.waiting) == 2:
            break
        await world.play_by_dm(table, member)
    else:
        raise AssertionError("no simultaneous decision with more than 25 options came up")
    old_version = prompt.version
    dm = world.menu_dm(member)
    group = next(s for s in dm.components[0].children if isinstance(s, discord.SelectMenu))
    card = next(o.text for o in prompt.options if "+" in o.text).split("+")[0]
    await member.user.select(dm, [card], custom_id=group.custom_id)
    back = next(c for c in custom_ids(world.refresh(dm)) if c.startswith("urb:b:"))
    assert back == f"urb:b:{table}:{old_version}"
    # Both players decide: the round moves on and a new menu is sent.
    for s in sorted(current.waiting):
        await world.play_by_dm(table, world.member_of(current.seats[s].user_id))
    await world.flush()
    assert (await world.service.prompt(table, world.actor(member))).version > old_version
    # A client that never refreshed clicks the old Back: refused, and the menu shown
    # stays the newest one (navigating would have redrawn the old decision's menu).
    newest = world.menu_dm(member)
    before = custom_ids(newest)
    add_button(world, newest, back)
    result = await member.user.click(world.refresh(newest), custom_id=back)
    assert any("moved on" in m.content for m in result.followups), result
    assert custom_ids(world.refresh(newest)) == [*before, back]
