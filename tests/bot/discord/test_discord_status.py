"""The status message of a table is kept with the table: a restarted bot edits it straight
away; a deleted one is replaced (and the new one kept); a table without a kept message
(from before the ids were stored) finds its message in the channel's history."""

from __future__ import annotations

from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import World, custom_ids, open_table, simcord_marker

pytestmark = simcord_marker


def history_reads(world: World, since: int) -> list[str]:
    """The channel-history requests the bot made after request number ``since``."""
    path = f"/channels/{world.channel.id}/messages"
    return [r.path for r in world.env.http_requests[since:]
            if r.method == "GET" and r.path == path]


def status_messages(world: World, table: int) -> list[int]:
    return [m.id for m in world.channel_messages()
            if any(c.endswith(f":{table}") and c.startswith(("urb:l:", "urb:h:"))
                   for c in custom_ids(m))]


async def test_after_a_restart_the_kept_message_is_edited(world: World) -> None:
    info = await open_table(world, "skybridge", humans=2)
    table = info.id
    alice = world.people[0]
    status = world.status_message(table)
    kept = await world.service.info(table)
    assert (kept.status_channel_id, kept.status_message_id) == (str(world.channel.id),
                                                                str(status.id))
    await alice.click(status, custom_id=f"urb:l:start:{table}")

    await world.restart()
    since = len(world.env.http_requests)
    await alice.slash(world.channel, "table pause")

    assert "paused" in world.refresh(status).content  # the same message, edited
    assert status_messages(world, table) == [status.id]
    assert history_reads(world, since) == []  # found without searching the channel
    edits = [r for r in world.env.http_requests[since:] if r.method == "PATCH"
             and r.path == f"/channels/{world.channel.id}/messages/{status.id}"]
    assert len(edits) == 1


async def test_a_deleted_status_message_is_posted_again_and_kept(world: World) -> None:
    info = await open_table(world, "skybridge", humans=1)
    table = info.id
    old = world.status_message(table)
    # Someone deletes the lobby message (the test as narrator, through simcord's backend).
    world.env.backend.delete_message(world.channel.id, old.id)
    await world.env.settle()

    result = await world.people[1].slash(world.channel, "table join")
    assert result.ephemeral

    new = world.status_message(table)
    assert new.id != old.id and "2/4" in new.content
    assert status_messages(world, table) == [new.id]
    kept = await world.service.info(table)
    assert kept.status_message_id == str(new.id)
    # And the new one is the one edited from then on, after a restart too.
    await world.restart()
    await world.people[0].click(new, custom_id=f"urb:l:start:{table}")
    assert status_messages(world, table) == [new.id]
    assert "Waiting for" in world.refresh(new).content


async def test_a_table_without_a_kept_message_finds_it_in_the_history(world: World) -> None:
    info = await open_table(world, "skybridge", humans=1)
    table = info.id
    status = world.status_message(table)
    # As a database upgraded from before the ids were kept: none stored.
    await world.service.set_status_message(table, None, None)
    await world.restart()
    since = len(world.env.http_requests)

    await world.people[1].slash(world.channel, "table join")

    assert history_reads(world, since)  # searched, as the only way to find it
    assert status_messages(world, table) == [status.id]
    assert "2/4" in world.refresh(status).content
    assert (await world.service.info(table)).status_message_id == str(status.id)
