"""A post that goes out in several Discord messages (a long game-over breakdown) and
fails half-way: the retry, in this process or after a restart, sends only the parts
that did not go out, so every part is in the channel exactly once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest
from simfixtures import *  # noqa: F403 (the fixtures)
from simfixtures import logged_on_purpose
from simtable import World, label, play_one, play_until_one_move_left, simcord_marker

from bot.service import TableInfo

pytestmark = simcord_marker


LONG_NAMES = ("Dana of the Seven Bridges Guild", "Ezra who builds the highest towers",
              "Fatou, architect of the new town", "Gaspard the patient urbanist")


async def five_player_ginkgopolis(world: World) -> TableInfo:
    """Alice and four players with long names: a game-over breakdown longer than one
    Discord message."""
    alice = world.people[0]
    world.people[1:] = [world.guild.add_member(world.env.create_user(
        f"long{i}", global_name=name[:32])) for i, name in enumerate(LONG_NAMES)]
    await alice.slash(world.channel, "table new", game="ginkgopolis")
    table = await world.table_id()
    for member in world.people[1:]:
        lobby = world.status_message(table)
        await member.click(lobby, label=label(lobby, "urb:l:join"))
    await alice.click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    await world.flush()
    return await world.service.info(table)


@pytest.fixture
def fail_the_scores_part(world: World, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Discord answers 503 to the part of a post that carries the scores image, once.
    Yields the count of such parts tried."""
    tried: list[int] = []
    real = discord.abc.Messageable.send

    async def send(self: Any, content: Any = None, **kwargs: Any) -> Any:
        files = kwargs.get("files") or []
        if any(f.filename.startswith("scores-") for f in files):
            tried.append(1)
            if len(tried) == 1:
                world.env.inject_error("POST", f"/channels/{world.channel.id}/messages",
                                       status=503, message="Service Unavailable")
        return await real(self, content, **kwargs)

    monkeypatch.setattr(discord.abc.Messageable, "send", send)
    yield tried


async def test_a_503_on_the_last_part_sends_only_that_part_again(
        world: World, fail_the_scores_part: list[int]) -> None:
    info = await five_player_ginkgopolis(world)
    await play_until_one_move_left(world, info.id)
    before = {m.id for m in world.channel_messages()}
    final = await play_one(world, info.id)
    assert final.status == "finished" and fail_the_scores_part == [1]
    world.clock.advance(120)
    await world.service.sweep()
    await world.flush()
    assert fail_the_scores_part == [1, 1]
    posted = [m for m in world.channel_messages() if m.id not in before]
    texts = [m.content for m in posted]
    assert len(posted) >= 2, [len(t) for t in texts]
    assert sum("Game over" in t for t in texts) == 1, texts
    assert len(set(texts)) == len(texts), texts
    # The scores image came once, with the last part.
    assert [m.id for m in posted if any(a.filename == f"scores-{info.id}.png"
                                        for a in m.attachments)] == [posted[-1].id]
    await world.service.sweep()
    await world.flush()
    assert [m.content for m in world.channel_messages() if m.id not in before] == texts


def posted_since(world: World, before: set[int]) -> list[str]:
    return [m.content for m in world.channel_messages() if m.id not in before]


async def test_after_a_restart_the_retry_sends_only_the_missing_part(
        world: World, fail_the_scores_part: list[int]) -> None:
    info = await five_player_ginkgopolis(world)
    await play_until_one_move_left(world, info.id)
    before = {m.id for m in world.channel_messages()}
    await play_one(world, info.id)
    first = posted_since(world, before)
    assert first and "Game over" in first[0]
    owed = await world.service.store.load_outbox(info.id, ["pending"])
    assert any(r.sent for r in owed)  # the parts that went out, recorded
    await world.restart()
    world.clock.advance(120)
    await world.service.sweep()
    await world.flush()
    texts = posted_since(world, before)
    assert texts[:len(first)] == first and len(texts) == len(first) + 1
    assert sum("Game over" in t for t in texts) == 1 and len(set(texts)) == len(texts)
    assert await world.service.store.load_outbox(info.id, ["pending", "sending"]) == []


async def test_a_part_sent_just_before_a_crash_is_found_not_sent_again(
        world: World, fail_the_scores_part: list[int],
        caplog: pytest.LogCaptureFixture) -> None:
    """The process dies after a part went out and before it was recorded: the rows are
    in doubt, and the parts found in the channel are not sent again."""
    info = await five_player_ginkgopolis(world)
    await play_until_one_move_left(world, info.id)
    before = {m.id for m in world.channel_messages()}
    delivery, store = world.service.delivery, world.service.store

    async def lost(outbox_ids: object, sent: object) -> None:
        return None  # the record of the parts sent never made it

    async def dies(results: object, now: object) -> None:
        raise RuntimeError("the process died here")

    real_progress, real_mark = delivery.progress, store.mark_outbox
    delivery.progress = lost  # type: ignore[method-assign,assignment]
    store.mark_outbox = dies  # type: ignore[method-assign,assignment]
    await play_one(world, info.id)
    delivery.progress = real_progress  # type: ignore[method-assign]
    store.mark_outbox = real_mark  # type: ignore[method-assign]
    logged_on_purpose(caplog, "delivery failed")  # the simulated crash
    first = posted_since(world, before)
    assert first and "Game over" in first[0]
    in_doubt = await store.load_outbox(info.id, ["sending"])
    assert in_doubt and not any(r.sent for r in in_doubt)
    await world.restart()
    await world.service.sweep()
    await world.flush()
    texts = posted_since(world, before)
    assert texts[:len(first)] == first and len(texts) == len(first) + 1
    assert sum("Game over" in t for t in texts) == 1 and len(set(texts)) == len(texts)
