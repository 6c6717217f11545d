"""What must hold whatever players, Discord or the process do: restarts, closed DMs,
stale and forged components, strangers clicking, double clicks, deadlines, reminders,
and private content that never reaches the channel."""

from __future__ import annotations

import re

from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import (
    DAY,
    World,
    custom_ids,
    emit_click,
    open_table,
    simcord_marker,
    tamper,
    texts_of,
)

from bot.service import TableInfo

pytestmark = simcord_marker

HAND_LINE = re.compile(r"^Hand: .*$", re.MULTILINE)


async def started(world: World, game: str = "ginkgopolis", *, humans: int = 3,
                  bots: int = 0) -> TableInfo:
    info = await open_table(world, game, humans=humans, bots=bots)
    await world.people[0].click(world.status_message(info.id),
                                custom_id=f"urb:l:start:{info.id}")
    return await world.service.info(info.id)


async def snapshot(world: World, table: int) -> tuple[int, str | None, int]:
    record = await world.service.store.load_table(table)
    assert record is not None
    return record.version, record.snapshot, len(await world.service.store.load_actions(table))


def seat_member(world: World, info: TableInfo, seat: int) -> object:
    return world.member_of(info.seats[seat].user_id)


async def test_restart_mid_round_keeps_buttons_and_deadlines(world: World) -> None:
    info = await started(world)
    table = info.id
    first, second, third = (world.member_of(s.user_id) for s in info.seats)
    await world.play_by_dm(table, first)
    old_menu = world.menu_dm(second)  # built by the bot that is about to go
    status_id = world.status_message(table).id

    await world.restart()

    # Deadlines come back from the database, for the version the table is at.
    current = await world.service.info(table)
    planned = world.service.deadlines.planned[table]
    assert planned["deadline"].version == current.version
    assert planned["deadline"].due_at == current.deadlines[2]
    # A button sent before the restart still plays.
    prompt = await world.service.prompt(table, world.actor(second))
    await world.pick(second, world.refresh(old_menu), prompt.options[-1].text)
    assert (await world.service.info(table)).version > current.version
    # The status message found again and edited in place: still one, still the same.
    assert world.status_message(table).id == status_id
    # A secret pick names nobody in the channel: the message does not change at each pick.
    status = world.status_message(table).content
    assert "A secret choice is being made (deadline <t:" in status
    assert third.user.global_name not in status.split("\n", 1)[1]
    # The deadline passes: the AI plays for the late seat, and the log says so.
    world.clock.advance(DAY)
    await world.run_deadline(table)
    log = await world.service.log(table)
    assert [e.source for e in log if e.seat == 2] == ["timeout"]
    result = await world.people[0].slash(world.channel, "table log")
    assert "time ran out, the AI played" in result.response.content
    assert any(f"Time ran out for {third.user.global_name}" in m.content
               for m in world.channel_messages())
    late_dm = world.dms(third)[-2:]
    assert any("Time ran out at table" in m.content for m in late_dm)


async def test_closed_dms_fall_back_to_hand(world: World) -> None:
    info = await open_table(world, "ginkgopolis", humans=3)
    table = info.id
    bob = world.people[1]
    world.env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", status=403,
                           code=50007, message="Cannot send messages to this user",
                           times=None)
    await world.people[0].click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    info = await world.service.info(table)
    bob_seat = info.seat_of(str(bob.id))
    assert bob_seat is not None and info.seats[bob_seat].dm_ok is False
    assert world.dms(bob) == []
    notice = [m for m in world.channel_messages() if bob.mention in m.content]
    assert len(notice) == 1 and "/hand" in notice[0].content
    assert "Hand:" not in notice[0].content

    # /hand answers only Bob, with his DM's content, image and menu.
    result = await bob.slash(world.channel, "hand")
    assert result.ephemeral
    hand = result.response.message
    assert "Hand:" in hand.content and "Bob" in hand.content
    assert [a.filename for a in hand.attachments] == [f"hand-{table}.png"]
    assert all(c.startswith(f"urb:a:{table}:") for c in custom_ids(hand))
    # His own characters, nobody else's.
    packets = {m.id: ", ".join(str(c) for c in (await world.service.view(
        table, world.actor(m)))["me"]["packet"]) for m in world.people}
    assert f"Characters you hold: {packets[bob.id]}." in hand.content
    assert all(packets[m.id] not in hand.content for m in world.people if m is not bob)
    assert hand not in world.channel_messages(viewer=world.spectator)

    # Bob plays from the ephemeral menu; the others by DM; the game goes on.
    prompt = await world.service.prompt(table, world.actor(bob))
    await world.pick(bob, hand, prompt.options[0].text, clicker=bob)
    for member in (world.people[0], world.people[2]):
        await world.play_by_dm(table, member)
    after = await world.service.info(table)
    assert bob_seat in after.waiting  # the next draft pass: Bob is awaited again
    pings = [m for m in world.channel_messages() if bob.mention in m.content]
    assert len(pings) == 2 and "waiting for you" in pings[-1].content
    # The bot no longer tries DMs that are known to fail.
    dm_posts = [r for r in world.env.http_requests
                if r.method == "POST" and r.path == f"/channels/{bob.user.dm_channel.id}/messages"]
    assert len(dm_posts) == 1
    # The status message's "My hand" button gives the same ephemeral answer.
    clicked = await bob.click(world.status_message(table), custom_id=f"urb:h:{table}")
    answer = clicked.response
    assert clicked.ephemeral and answer is not None and "Hand:" in answer.content


async def test_stale_and_forged_components_are_refused_politely(world: World) -> None:
    info = await started(world)
    table = info.id
    alice = world.people[0]
    await world.play_by_dm(table, alice)
    submitted = world.menu_dm(alice)  # "your choice is in", with a menu to change it
    old = custom_ids(submitted)[0]
    for member in world.people[1:]:
        await world.play_by_dm(table, member)
    # The round moved on: the menu to change the first choice was disabled (edited)...
    await world.flush()
    assert custom_ids(world.refresh(submitted)) == []
    # ... and a click on it anyway (a client that had not refreshed) is refused politely.
    before = await snapshot(world, table)
    current = world.menu_dm(alice)
    fresh = custom_ids(current)[0]
    tamper(world, current, fresh, old)
    result = await alice.user.click(world.refresh(current), custom_id=old)
    tamper(world, world.refresh(current), old, fresh)
    refusal = result.followups[-1]
    assert "moved on" in refusal.content
    assert any(c.startswith(f"urb:a:{table}:") and c != old for c in custom_ids(refusal.message))
    assert await snapshot(world, table) == before

    menu = world.menu_dm(alice)
    target = custom_ids(menu)[0]
    version = target.split(":")[3]
    forgeries = {
        f"urb:a:{table}:{version}:draft 999": "is not possible now",
        f"urb:a:{table}:{version}:xyz!": "did not understand",
        f"urb:a:99999:{version}:draft 1": "no such table",
        f"urb:a:{table}:{int(version) + 50}:draft 1": "moved on",
        "urb:zz:1": "does not belong to any table",
    }
    for forged, expected in forgeries.items():
        tamper(world, menu, target, forged)
        menu = world.refresh(menu)
        result = await alice.user.click(menu, custom_id=forged)
        answers = [result.response, *result.followups]
        assert any(a is not None and expected in a.content for a in answers), forged
        assert await snapshot(world, table) == before
        target = forged


async def test_non_players_are_refused(world: World) -> None:
    info = await open_table(world, "ginkgopolis", humans=2)
    table = info.id
    sam = world.spectator
    lobby = world.status_message(table)
    result = await sam.click(lobby, custom_id=f"urb:l:start:{table}")
    assert "Only the host" in result.followups[-1].content
    result = await sam.click(lobby, custom_id=f"urb:l:leave:{table}")
    assert "no seat" in result.followups[-1].content
    await world.people[0].click(lobby, custom_id=f"urb:l:start:{table}")
    before = await snapshot(world, table)
    status = world.status_message(table)
    result = await sam.click(status, custom_id=f"urb:h:{table}")
    assert result.ephemeral and "no seat" in result.response.content
    result = await sam.slash(world.channel, "hand")
    assert result.ephemeral and "no seat" in result.response.content
    # A forged action button in the channel, clicked by a stranger.
    tamper(world, status, f"urb:h:{table}", f"urb:a:{table}:1:draft 1")
    result = await sam.click(world.refresh(status), custom_id=f"urb:a:{table}:1:draft 1")
    assert "no seat" in result.followups[-1].content
    assert await snapshot(world, table) == before
    # Only the host or a moderator ends a table.
    result = await world.people[1].slash(world.channel, "table abort")
    assert "Only the host" in result.response.content
    result = await world.mod.slash(world.channel, "table abort")
    assert result.ephemeral and (await world.service.info(table)).status == "aborted"
    assert not custom_ids(next(m for m in world.channel_messages() if "has ended" in m.content))


async def test_two_clicks_at_once_apply_once(world: World) -> None:
    info = await started(world)
    table = info.id
    alice = world.people[0]
    menu = world.menu_dm(alice)
    one, two = custom_ids(menu)[:2]
    emit_click(world, alice.user, menu, one)
    emit_click(world, alice.user, menu, two)
    emit_click(world, alice.user, menu, one)
    await world.env.settle()
    await world.flush()
    mine = [a for a in await world.service.store.load_actions(table)
            if a.actor_id == str(alice.id)]
    assert len(mine) == 1
    # The two late clicks were told, in ephemeral answers, that the table moved on.
    stored = world.env.backend.messages.get(alice.user.dm_channel.id, {}).values()
    assert len([m for m in stored if "moved on" in m.content]) == 2
    assert world.refresh(menu).content.count("Chosen:") == 1


async def test_reminders_reach_only_the_late_seats(world: World) -> None:
    info = await started(world)
    table = info.id
    early = world.member_of(info.seats[0].user_id)
    await world.play_by_dm(table, early)
    counts = {m.id: len(world.dms(m)) for m in world.people}
    world.clock.advance(DAY / 2)
    await world.run_reminder(table)
    for member in world.people:
        new = world.dms(member)[counts[member.id]:]
        if member is early:
            assert new == []
        else:
            assert len(new) == 1 and new[0].content.startswith("Reminder")
            assert custom_ids(new[0])  # with the menu, ready to play
    assert not any("Reminder" in m.content for m in world.channel_messages())


async def test_spectators_never_see_private_content(world: World) -> None:
    info = await started(world, humans=2, bots=1)
    table = info.id
    for _ in range(12):
        current = await world.service.info(table)
        humans = [s for s in sorted(current.waiting) if not current.seats[s].is_bot]
        if current.status != "running" or not humans:
            break
        await world.play_by_dm(table, world.member_of(current.seats[humans[0]].user_id),
                               choose=lambda texts: texts[-1])
    # Ephemeral answers in the channel; a DM no longer spells the hand (its image does).
    answers = [await member.slash(world.channel, "hand") for member in world.people[:2]]
    hands = {line for answer in answers
             for line in HAND_LINE.findall(answer.response.content)}
    assert len(hands) >= 2  # private content enough to look for
    assert "Hand:" in texts_of(world.channel.history(viewer=world.people[1]))  # Bob's own
    seen = world.channel.history(viewer=world.spectator)
    public = texts_of(seen)
    assert "Hand:" not in public and "Tiles:" not in public
    assert not any(line in public for line in hands)
    names = {a.filename for m in seen for a in m.attachments}
    assert names and all(n.startswith(("board-", "scores-")) for n in names)
    result = await world.spectator.slash(world.channel, "table board")
    assert not result.ephemeral
    assert [a.filename for a in result.response.attachments] == [f"board-{table}.png"]
