"""Discord faults against the durable outbox: a 500 on the game-over post or on a turn
DM, a DM refused for another reason than closed DMs, a crash between sending and
marking. Nothing owed is lost, nothing is posted twice."""

from __future__ import annotations

import pytest
from simfixtures import *  # noqa: F403 (the fixtures)
from simfixtures import logged_on_purpose
from simtable import (
    World,
    custom_ids,
    play_one,
    play_until_one_move_left,
    simcord_marker,
    started,
)

pytestmark = simcord_marker


def game_over_posts(world: World, table: int) -> list[str]:
    return [m.content for m in world.channel_messages()
            if any(a.filename == f"scores-{table}.png" for a in m.attachments)]


async def test_a_500_on_the_game_over_post_is_retried_with_everything(world: World) -> None:
    info = await started(world)
    await play_until_one_move_left(world, info.id)
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=500)
    final = await play_one(world, info.id)
    assert final.status == "finished"
    assert game_over_posts(world, info.id) == []  # Discord failed: nothing yet...
    owed = await world.service.store.load_outbox(info.id, ["pending"])
    assert "game_over" in [r.payload["template"] for r in owed]  # ...but it is owed
    world.clock.advance(120)
    await world.service.sweep()
    await world.flush()
    (post,) = [m for m in world.channel_messages()
               if any(a.filename == f"scores-{info.id}.png" for a in m.attachments)]
    names = {a.filename for a in post.attachments}
    assert {f"scores-{info.id}.png"} <= names
    assert "Game over" in "\n".join(m.content for m in world.channel_messages())
    await world.service.sweep()  # nothing is posted twice
    await world.flush()
    assert len(game_over_posts(world, info.id)) == 1


async def test_a_500_on_a_turn_dm_is_retried_and_the_player_is_told(world: World) -> None:
    info = await started(world)
    alice, bob = world.people[:2]
    seat = min(info.waiting)
    mover = alice if info.seats[seat].user_id == str(alice.id) else bob
    waiter = bob if mover is alice else alice
    dm = waiter.user.dm_channel
    assert dm is not None
    before = len(world.dms(waiter))
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=500)
    await play_one(world, info.id)
    assert len(world.dms(waiter)) == before  # the turn DM failed...
    world.clock.advance(60)
    await world.service.sweep()
    await world.flush()
    dms = world.dms(waiter)
    assert len(dms) == before + 1 and custom_ids(dms[-1])  # ...and came, with its menu
    seats = (await world.service.info(info.id)).seats
    assert all(s.dm_ok for s in seats)


async def test_a_dm_refused_for_good_marks_the_seat_and_tells_the_channel(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    info = await started(world)
    alice, bob = world.people[:2]
    seat = min(info.waiting)
    waiter = bob if info.seats[seat].user_id == str(alice.id) else alice
    dm = waiter.user.dm_channel
    assert dm is not None
    # Not 50007 (closed DMs): any refusal of a DM makes the seat play through /hand.
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50278,
                           message="Cannot send messages to this user")
    await play_one(world, info.id)
    after = await world.service.info(info.id)
    assert not next(s for s in after.seats if s.user_id == str(waiter.id)).dm_ok
    told = [m for m in world.channel_messages() if f"<@{waiter.id}>" in m.content]
    assert told and "/hand" in told[-1].content
    logged_on_purpose(caplog, "failed: 403 (code 50278)")  # not closed DMs: a warning


async def test_a_crash_between_sending_and_marking_posts_nothing_twice(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    info = await started(world)
    store = world.service.store
    real_mark = store.mark_outbox
    calls = {"n": 0}

    async def dies_once(results, now):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        raise RuntimeError("the process died here")

    store.mark_outbox = dies_once  # type: ignore[method-assign]
    await play_one(world, info.id)
    store.mark_outbox = real_mark  # type: ignore[method-assign]
    assert calls["n"] >= 1
    in_doubt = await store.load_outbox(info.id, ["sending"])
    assert in_doubt  # sent, maybe, but never marked
    posted = [m.content for m in world.channel_messages()]
    dm_counts = {m.id: len(world.dms(m)) for m in world.people[:2]}
    await world.restart()
    await world.service.sweep()
    await world.flush()
    assert [m.content for m in world.channel_messages()] == posted  # not again
    assert {m.id: len(world.dms(m)) for m in world.people[:2]} == dm_counts
    assert await world.service.store.load_outbox(info.id, ["sending", "pending"]) == []
    logged_on_purpose(caplog, "delivery failed")  # the simulated crash


async def test_when_the_game_ends_no_menu_stays_live(world: World) -> None:
    info = await started(world, "ginkgopolis", humans=3)
    while (await world.service.info(info.id)).status == "running":
        await play_one(world, info.id)
    for member in world.people:
        assert all(not custom_ids(m) for m in world.dms(member)), member.name


async def test_the_board_counts_as_posted_only_once_it_was(world: World) -> None:
    """A failed post that carried a new board: the retry carries it again (the board was
    marked as posted before the post succeeded, so the retry used to leave it out)."""
    info = await started(world)
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=500)
    await play_one(world, info.id)
    boards = [m for m in world.channel_messages()
              if any(a.filename == f"board-{info.id}.png" for a in m.attachments)]
    world.clock.advance(60)
    await world.service.sweep()
    await world.flush()
    after = [m for m in world.channel_messages()
             if any(a.filename == f"board-{info.id}.png" for a in m.attachments)]
    assert len(after) == len(boards) + 1
