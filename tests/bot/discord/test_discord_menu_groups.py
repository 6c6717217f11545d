"""Menus through Discord (simcord): a group (a card) opened from a menu older than the
seat's current decision is refused, and nothing of the old decision is redrawn; when a
game is over, no private news is left held in the outbox."""

from __future__ import annotations

import copy

from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import World, custom_ids, open_table, simcord_marker

from bot.service import Notification, Prompt
from bot.service.notifications import HELD

pytestmark = simcord_marker


async def many_options_for_both(world: World, table: int) -> tuple[int, Prompt]:
    """Play (first options) until both seats of a 2-player Ginkgopolis table pick at once
    from more than 25 options: (the seat to look at, its prompt)."""
    for _ in range(60):
        current = await world.service.info(table)
        seat = min(current.waiting)
        member = world.member_of(current.seats[seat].user_id)
        prompt = await world.service.prompt(table, world.actor(member))
        if len(prompt.options) > 25 and len(current.waiting) == 2:
            return seat, prompt
        await world.play_by_dm(table, member)
    raise AssertionError("no simultaneous decision with more than 25 options came up")


async def test_a_group_opened_from_an_older_menu_is_refused(world: World) -> None:
    info = await open_table(world, "ginkgopolis", humans=2)
    table = info.id
    await world.people[0].click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    seat, prompt = await many_options_for_both(world, table)
    member = world.member_of((await world.service.info(table)).seats[seat].user_id)
    old = world.menu_dm(member)
    old_version = prompt.version
    group_select = next(c for c in custom_ids(old) if c.startswith("urb:g:"))
    assert group_select.split(":")[3] == str(old_version)
    shown = copy.deepcopy(world.env.backend.get_message(old.channel.id, old.id).components)
    card = next(o.text for o in prompt.options if "+" in o.text).split("+")[0]
    # Both seats decide (through the service): the round moves on, a new menu is sent.
    waiting = (await world.service.info(table)).waiting
    for s in sorted(waiting):
        who = world.member_of((await world.service.info(table)).seats[s].user_id)
        now = await world.service.prompt(table, world.actor(who))
        await world.service.act(table, world.actor(who), now.options[0].json,
                                version=now.version)
    await world.flush()
    newest = await world.service.prompt(table, world.actor(member))
    assert newest.version > old_version
    version = (await world.service.info(table)).version
    # A client that never refreshed still shows the old menu, and opens a card from it.
    world.env.backend.get_message(old.channel.id, old.id).components = shown
    result = await member.user.select(world.refresh(old), [card], custom_id=group_select)
    assert any("moved on" in m.content for m in result.followups), result
    # Nothing of the old decision is drawn: no action of its version, in any message.
    for message in world.dms(member):
        redrawn = [c for c in custom_ids(world.refresh(message))
                   if c.startswith((f"urb:a:{table}:{old_version}:",
                                    f"urb:s:{table}:{old_version}:"))]
        assert redrawn == [], message.id
    assert (await world.service.info(table)).version == version  # and nothing played
    # The current menu still opens its own groups.
    current = world.menu_dm(member)
    fresh_group = next(c for c in custom_ids(current) if c.startswith("urb:g:"))
    assert fresh_group.split(":")[3] == str(newest.version)


def private_news(table: int, seat: int, user_id: str | None, outbox_id: int) -> Notification:
    """A seat's private news of a round going on (its own secret pick, told back)."""
    return Notification(table, seat, "event_your_pick", {"action": "B16", "seat": seat},
                        "ginkgopolis", "en", user_id=user_id, defer=True,
                        outbox_id=outbox_id, fallback="event")


async def test_no_private_news_stays_held_once_the_game_is_over(world: World) -> None:
    """Private news of a round going on waits for the seat's next message (held); once
    the game is over there is none to come, and the final post tells the rest: the
    transport lets it go (sent, nothing posted) instead of holding it for ever."""
    info = await open_table(world, "ginkgopolis", humans=2, bots=1)
    table = info.id
    await world.people[0].click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    notifier = world.bot.notifier
    seats = (await world.service.info(table)).seats
    users = [seats[s].user_id for s in (0, 1)]
    during = await notifier.deliver([private_news(table, s, users[s], 9000 + s)
                                     for s in (0, 1)])
    assert during == {9000: HELD, 9001: HELD}
    for _ in range(2000):
        now = await world.service.info(table)
        if now.status != "running":
            break
        seat = min(s for s in now.waiting if not now.seats[s].is_bot)
        who = world.actor(world.member_of(now.seats[seat].user_id))
        prompt = await world.service.prompt(table, who)
        await world.service.act(table, who, prompt.options[0].json, version=prompt.version)
    await world.flush()
    assert (await world.service.info(table)).status == "finished"
    dms = [len(world.dms(world.member_of(u))) for u in users]
    after = await notifier.deliver([private_news(table, s, users[s], 9100 + s)
                                    for s in (0, 1)])
    assert after == {9100: "sent", 9101: "sent"}
    await world.env.settle()
    assert [len(world.dms(world.member_of(u))) for u in users] == dms  # nothing posted
    # And the game's own outbox ends with nothing held nor owed.
    store = world.service.store
    assert await store.load_outbox(table, ["held", "pending", "sending"]) == []
