"""A Quadropolis take aimed at an empty or face-down site space (issue 24, item 8) is
legal, and says so wherever it is offered or echoed: the menu's select (its option's
description), the clicked message's answer and the table's news, in both languages. The
words come from the game's ``option_note`` template, not from bot code."""

from __future__ import annotations

import pytest
from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import World, open_table, selects, simcord_marker

from bot.discord.menus import group_key

pytestmark = simcord_marker

WORDS = {"en": "takes nothing", "fr": "ne prend rien"}
NEWS = {"en": "so nothing is taken", "fr": "rien n'est pris"}


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_a_take_of_nothing_is_marked_in_the_menu_and_the_answer(
        world: World, locale: str) -> None:
    # Two seats: the first site has face-down tiles, so some takes take nothing.
    info = await open_table(world, "quadropolis", humans=2, locale=locale)
    table = info.id
    await world.people[0].click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    current = await world.service.info(table)
    seat = min(current.waiting)
    member = world.member_of(current.seats[seat].user_id)
    prompt = await world.service.prompt(table, world.actor(member))
    empty = [o.text for o in prompt.options if o.note == "takes_nothing"]
    full = [o.text for o in prompt.options if o.note is None]
    assert empty and full
    dm = world.menu_dm(member)
    group = next(s for s in selects(dm) if s.custom_id.startswith("urb:g:"))
    await member.user.select(dm, [group_key(empty[0])], custom_id=group.custom_id)
    opened = world.refresh(dm)
    described = {o.value: o.description for s in selects(opened) for o in s.options}
    assert described[empty[0]] == WORDS[locale]
    assert all(described[t] is None for t in full if t in described)
    await world.pick(member, opened, empty[0])
    await world.flush()
    answer = world.refresh(dm).content
    assert f"`{empty[0]}` ({WORDS[locale]})" in answer
    # The table's news tells it too: in the move's line, or in the take's own sentence.
    news = "\n".join(m.content for m in world.channel_messages())
    assert f"`{empty[0]}` ({WORDS[locale]})" in news or NEWS[locale] in news


async def test_a_typed_take_of_nothing_is_echoed_in_words(world: World) -> None:
    info = await open_table(world, "quadropolis", humans=2)
    table = info.id
    await world.people[0].click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    current = await world.service.info(table)
    member = world.member_of(current.seats[min(current.waiting)].user_id)
    prompt = await world.service.prompt(table, world.actor(member))
    empty = next(o.text for o in prompt.options if o.note == "takes_nothing")
    await member.send_dm(empty)
    await world.flush()
    assert any(f"`{empty}` (takes nothing)" in m.content for m in world.dms(member))
