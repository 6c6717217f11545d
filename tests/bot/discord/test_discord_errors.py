"""Discord's errors on the paths test_discord_faults.py leaves out (a 429, a 404 or a 5xx
on the status edit, a 404 on a menu being disabled, a failed interaction answer), a
table id from another server, and the bot with its real APScheduler on simcord's
virtual clock: a deadline fires because time passes, not because a test calls the job."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import World, custom_ids, play_one, simcord_marker, started

pytestmark = simcord_marker

SIMCORD_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)  # simcord's clock at elapsed 0


# ----------------------------------------------------------------- the status message


@pytest.mark.parametrize("status", [500, 503, 429])
async def test_a_failed_status_edit_is_retried_until_the_status_is_right(
        world: World, status: int) -> None:
    info = await started(world)
    status_message = world.status_message(info.id)
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/*",
                           status=status, times=None)
    after = await play_one(world, info.id)
    world.env.backend.faults.clear()
    owed = await world.service.store.load_outbox(info.id, ["pending"])
    assert owed, "the status edit failed, so its notes are still owed"
    world.clock.advance(600)
    await world.service.sweep()
    await world.flush()
    # The same message now shows the new decision (edited, not posted anew).
    assert world.status_message(info.id).id == status_message.id
    assert await world.service.store.load_outbox(info.id, ["pending"]) == []
    assert after.version == (await world.service.info(info.id)).version


async def test_a_deleted_status_message_is_posted_anew(world: World) -> None:
    info = await started(world)
    old = world.status_message(info.id)
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{old.id}",
                           status=404, code=10008, message="Unknown Message", times=None)
    await play_one(world, info.id)
    new = world.status_message(info.id)
    assert new.id != old.id and custom_ids(new)
    stored = await world.service.info(info.id)
    assert stored.status_message_id == str(new.id)


# --------------------------------------------------------------------- menus and clicks


async def test_a_menu_that_cannot_be_disabled_is_left_and_the_game_goes_on(
        world: World) -> None:
    info = await started(world)
    seat = min(info.waiting)
    member = world.member_of(info.seats[seat].user_id)
    dm = member.user.dm_channel
    assert dm is not None
    world.env.inject_error("PATCH", f"/channels/{dm.id}/messages/*", status=404,
                           code=10008, message="Unknown Message", times=None)
    after = await play_one(world, info.id)
    assert after.version > info.version and after.status == "running"
    assert await world.service.store.load_outbox(info.id, ["pending"]) == []


async def test_a_failed_interaction_answer_leaves_the_table_untouched(world: World) -> None:
    info = await started(world)
    seat = min(info.waiting)
    member = world.member_of(info.seats[seat].user_id)
    menu = world.menu_dm(member)
    prompt = await world.service.prompt(info.id, world.actor(member))
    world.env.inject_error("POST", "/interactions/*/*/callback", status=500)
    result = await world.pick(member, menu, prompt.options[0].text)
    # The click could not be acknowledged, so nothing was played: the player sees the
    # click fail and clicks again.
    assert not result.acknowledged
    assert (await world.service.info(info.id)).version == info.version
    again = await world.pick(member, world.refresh(menu), prompt.options[0].text)
    assert again.acknowledged
    assert (await world.service.info(info.id)).version > info.version


# --------------------------------------------------------------- another server's table


async def test_a_table_of_another_server_is_refused_by_id(world: World) -> None:
    info = await started(world)
    elsewhere = world.env.create_guild("Elsewhere")
    channel = elsewhere.create_text_channel("games")
    stranger = elsewhere.add_member(world.env.create_user("eve", global_name="Eve"))
    for command in ("table status", "table log", "table board"):
        result = await stranger.slash(channel, command, table=info.id)
        answer = result.response
        assert answer is not None and result.ephemeral
        assert "no such table here" in answer.content.lower(), (command, answer.content)
        assert world.people[0].name not in answer.content


# ------------------------------------------------------------------- posts and DMs


async def test_a_post_forbidden_for_good_is_not_retried(world: World,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    info = await started(world)
    posts = len(world.channel_messages())
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=403,
                           code=50013, message="Missing Permissions", times=None)
    await play_one(world, info.id)
    failed = await world.service.store.load_outbox(info.id, ["failed"])
    assert failed and not await world.service.store.load_outbox(info.id, ["pending"])
    # The failure is logged once per message, as a warning; nothing is tried again.
    warned = [r for r in caplog.records if "failed" in r.getMessage()
              and r.name == "bot.service.delivery"]
    assert len(warned) == len(failed)
    world.clock.advance(3600)
    await world.service.sweep()
    await world.flush()
    assert len(world.channel_messages()) == posts
    caplog.clear()  # the warnings were the point of this test


async def test_a_failed_dm_channel_opening_is_retried(world: World) -> None:
    info = await started(world)
    seat = min(info.waiting)
    waiter_seat = next(s for s in range(2) if s != seat)
    waiter = world.member_of(info.seats[waiter_seat].user_id)
    before = len(world.dms(waiter))
    world.env.inject_error("POST", "/users/@me/channels", status=502, times=None)
    await play_one(world, info.id)
    assert len(world.dms(waiter)) == before
    assert await world.service.store.load_outbox(info.id, ["pending"])
    world.env.backend.faults.clear()
    world.clock.advance(120)
    await world.service.sweep()
    await world.flush()
    assert len(world.dms(waiter)) == before + 1
    assert await world.service.store.load_outbox(info.id, ["pending"]) == []


async def test_a_click_whose_message_cannot_be_edited_still_plays(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    info = await started(world)
    seat = min(info.waiting)
    member = world.member_of(info.seats[seat].user_id)
    menu = world.menu_dm(member)
    prompt = await world.service.prompt(info.id, world.actor(member))
    world.env.inject_error("PATCH", "/webhooks/*/*/messages/@original", status=404,
                           code=10015, message="Unknown Webhook")
    await world.pick(member, menu, prompt.options[0].text)
    await world.flush()
    assert (await world.service.info(info.id)).version == info.version + 1
    assert any("could not mark the menu as used" in r.getMessage() for r in caplog.records)
    caplog.clear()  # that warning is the handled error this test is about
