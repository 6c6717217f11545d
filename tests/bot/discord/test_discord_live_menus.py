"""Only the current decision's menus stay clickable: every message the bot ever showed a
menu in (the DM per decision, the answer to a stale click, a typed move's refusal,
/hand's ephemeral answer, a group opened from a menu, a DM found in doubt after a crash)
is closed when its decision closes. Whole 4-player games through DM menus, with the
clicks real players make (twice at once, two players at once), are checked after every
move, and at the end no menu is left."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
import simcord
from simcord.results import to_discord_message
from simfixtures import *  # noqa: F403 (the fixtures)
from simfixtures import logged_on_purpose
from simtable import (
    World,
    buttons,
    custom_ids,
    emit_click,
    label,
    open_table,
    selects,
    simcord_marker,
)

from bot.discord import ids
from bot.discord.livemenus import TOKEN_LIFE
from bot.service import Refused, TableInfo

pytestmark = simcord_marker


@dataclass(frozen=True)
class Live:
    """A message of the bot with a menu still clickable: where, for whom, which version."""

    channel_id: int
    message_id: int
    user_id: int | None
    version: int


def live_menus(world: World, table: int) -> list[Live]:
    """Every message the bot sent, in any channel (ephemeral answers included), that has
    a menu component of ``table`` still enabled."""
    members = [*world.people, world.spectator, world.mod]
    owner = {m.user.dm_channel.id: m.id for m in members if m.user.dm_channel is not None}
    found = []
    for channel_id, messages in world.env.backend.messages.items():
        for message in messages.values():
            if message.author_id != world.bot_id():
                continue
            versions = {ids.menu_version(child.get("custom_id") or "", table)
                        for row in message.components
                        for child in row.get("components", [row])
                        if not child.get("disabled")} - {None}
            user = owner.get(channel_id)
            if user is None and message.interaction_metadata:
                user = int(message.interaction_metadata["user"]["id"])
            found += [Live(channel_id, message.id, user, v) for v in versions if v is not None]
    return found


async def stale_menus(world: World, table: int) -> list[tuple[Live, int | None]]:
    """The live menus that are not their reader's current decision's (with the version
    of that decision, None when they have none)."""
    stale = []
    for live in live_menus(world, table):
        try:
            member = world.member_of(str(live.user_id))
            prompt = await world.service.prompt(table, world.actor(member))
        except (Refused, StopIteration):
            stale.append((live, None))
            continue
        if prompt.decision is None or not prompt.options or prompt.version != live.version:
            stale.append((live, prompt.version if prompt.decision else None))
    return stale


def current_menu(world: World, table: int, member: simcord.MemberActor,
                 version: int) -> Any | None:
    """The newest message that shows ``member`` the menu of their current decision: a DM,
    or an ephemeral answer in the channel (played from /hand, the next step of a
    decision is shown in place there)."""
    found = [m for m in live_menus(world, table)
             if m.user_id == member.id and m.version == version]
    if not found:
        return None
    newest = max(found, key=lambda m: m.message_id)
    stored = world.env.backend.get_message(newest.channel_id, newest.message_id)
    return to_discord_message(world.env, stored)


def direct(message: Any, text: str) -> tuple[str, list[str] | None] | None:
    """The component that plays ``text`` in one click (a button or an action select)."""
    for button in buttons(message):
        cid = button.custom_id or ""
        if cid.startswith("urb:a:") and cid.split(":", 4)[4] == text:
            return cid, None
    for select in selects(message):
        if select.custom_id.startswith("urb:s:") and text in [o.value for o in select.options]:
            return select.custom_id, [text]
    return None


def clicker(member: simcord.MemberActor, message: Any) -> Any:
    # A DM is clicked by the user; an ephemeral answer in the channel by the member.
    return member.user if message.guild is None else member


def choose(rng: random.Random, texts: list[str]) -> str:
    # Never Neotopia's "back" while something else is possible: a turn must end.
    return rng.choice([t for t in texts if t != "back"] or texts)


async def four_players(world: World, game: str) -> TableInfo:
    alice, bob, chloe = world.people
    await alice.slash(world.channel, "table new", game=game)
    table = await world.table_id()
    for member in (bob, chloe, world.mod):
        lobby = world.status_message(table)
        await member.click(lobby, label=label(lobby, "urb:l:join"))
    await alice.click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    await world.flush()
    world.people.append(world.mod)  # a seated player like the others from here on
    return await world.service.info(table)


async def one_move(world: World, table: int, rng: random.Random, counts: Counter[str]) -> None:
    """One decision played through Discord the way real players do it, now and then
    clicking twice at once, two players clicking at once, typing a mistake first, or
    playing from /hand's ephemeral answer."""
    info = await world.service.info(table)
    waiting = sorted(info.waiting)
    seat = rng.choice(waiting)
    member = world.member_of(info.seats[seat].user_id)
    prompt = await world.service.prompt(table, world.actor(member))
    texts = [o.text for o in prompt.options]
    menu = current_menu(world, table, member, prompt.version)
    if menu is None:  # more options than a menu holds: typed
        await member.send_dm(choose(rng, texts))
        counts["typed"] += 1
        await world.flush()
        return
    quick = [d for d in (direct(menu, t) for t in texts if t != "back") if d]
    roll = rng.random()
    if roll < 0.12 and len(quick) >= 2:
        # A double click: one pick is played, the other is stale and refused with a menu.
        (one, one_values), (two, two_values) = rng.sample(quick, 2)
        emit_click(world, clicker(member, menu), menu, one, one_values)
        emit_click(world, clicker(member, menu), menu, two, two_values)
        await world.env.settle()
        counts["double"] += 1
    elif roll < 0.22 and len(waiting) >= 2 and quick:
        # Two players at once (a simultaneous decision).
        other_seat = rng.choice([s for s in waiting if s != seat])
        other = world.member_of(info.seats[other_seat].user_id)
        other_prompt = await world.service.prompt(table, world.actor(other))
        other_menu = current_menu(world, table, other, other_prompt.version)
        theirs = [d for d in (direct(other_menu, o.text) for o in other_prompt.options)
                  if d] if other_menu is not None else []
        cid, values = rng.choice(quick)
        emit_click(world, clicker(member, menu), menu, cid, values)
        if theirs:
            their_cid, their_values = rng.choice(theirs)
            emit_click(world, clicker(other, other_menu), other_menu, their_cid, their_values)
        await world.env.settle()
        counts["together"] += 1
    elif roll < 0.27:
        # A typed mistake: refused in the DM, with the menu of what is possible.
        await member.send_dm("zz9")
        counts["typed_refused"] += 1
    elif roll < 0.32:
        # Played from /hand's ephemeral answer in the channel.
        result = await member.slash(world.channel, "hand")
        answer = result.response.message
        if custom_ids(answer):
            await world.pick(member, answer, choose(rng, texts), clicker=member)
            counts["hand"] += 1
    else:
        await world.pick(member, menu, choose(rng, texts), clicker=clicker(member, menu))
        counts["menu"] += 1
    await world.flush()


async def play_and_check(world: World, table: int, seed: int) -> Counter[str]:
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    for _ in range(900):
        if (await world.service.info(table)).status != "running":
            break
        await one_move(world, table, rng, counts)
        stale = await stale_menus(world, table)
        assert stale == [], (dict(counts), stale)
    else:
        raise AssertionError("the game did not end")
    assert live_menus(world, table) == []
    return counts


@pytest.mark.timeout(900)  # a bound against a hang, on a loaded machine; no timing
async def test_a_whole_ginkgopolis_game_for_four_leaves_no_menu_live(world: World) -> None:
    info = await four_players(world, "ginkgopolis")
    counts = await play_and_check(world, info.id, seed=4)
    assert min(counts["double"], counts["together"], counts["typed_refused"],
               counts["hand"]) >= 2, counts


@pytest.mark.timeout(900)
async def test_a_whole_neotopia_game_for_four_leaves_no_menu_live(world: World) -> None:
    info = await four_players(world, "neotopia")
    counts = await play_and_check(world, info.id, seed=8)
    assert min(counts["double"], counts["typed_refused"], counts["hand"]) >= 2, counts


async def started(world: World, game: str = "ginkgopolis", humans: int = 3) -> TableInfo:
    info = await open_table(world, game, humans=humans)
    await world.people[0].click(world.status_message(info.id),
                                custom_id=f"urb:l:start:{info.id}")
    await world.flush()
    return await world.service.info(info.id)


async def test_the_menu_of_a_stale_click_refusal_closes_with_its_decision(
        world: World) -> None:
    info = await started(world)
    table = info.id
    alice = world.people[0]
    menu = world.menu_dm(alice)
    one, two = custom_ids(menu)[:2]
    emit_click(world, alice.user, menu, one)
    emit_click(world, alice.user, menu, two)  # stale by then: refused, with a menu
    await world.env.settle()
    await world.flush()
    refusals = [m for m in world.env.backend.messages[alice.user.dm_channel.id].values()
                if "moved on" in m.content]
    assert len(refusals) == 1 and any(
        ids.menu_version(c, table) for c in custom_ids(world.refresh(menu)))
    assert await stale_menus(world, table) == []
    for member in world.people[1:]:  # the round's picks are in: Alice's decision closes
        await world.play_by_dm(table, member)
    await world.flush()
    assert await stale_menus(world, table) == []
    assert all(live.message_id != refusals[0].id for live in live_menus(world, table))


def live_dms(world: World, table: int, member: simcord.MemberActor, version: int) -> int:
    return sum(1 for m in world.dms(member)
               if version in {ids.menu_version(c, table) for c in custom_ids(m)})


async def test_a_dm_sent_before_a_failure_is_found_not_sent_again_and_closes(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    """The transport fails right after a DM went out, before its menu was recorded: the
    retry finds the DM in doubt (it is not sent twice) and tracks its menu, which then
    closes with its decision."""
    info = await started(world)
    table = info.id
    store = world.service.store
    real = store.record_menu
    last = world.people[-1]
    failed: list[object] = []

    async def record_menu(menu: Any) -> None:
        # The record of a DM the transport just sent (the last picker's own menu is
        # answered in place, in their DM: that record goes through).
        if menu.channel_id != str(last.user.dm_channel.id) and not failed:
            failed.append(menu)
            raise RuntimeError("the transport failed here")
        await real(menu)

    for member in world.people[:-1]:
        await world.play_by_dm(table, member)
    store.record_menu = record_menu  # type: ignore[method-assign]
    await world.play_by_dm(table, last)  # the round ends: new DMs to the others
    await world.flush()
    store.record_menu = real  # type: ignore[method-assign]
    assert failed
    logged_on_purpose(caplog, "the transport failed")
    world.clock.advance(60)
    await world.service.sweep()
    await world.flush()
    for member in world.people:
        prompt = await world.service.prompt(table, world.actor(member))
        assert live_dms(world, table, member, prompt.version) == 1, member.name
    for member in world.people:  # the next picks close those decisions
        await world.play_by_dm(table, member)
    await world.flush()
    assert await stale_menus(world, table) == []


async def test_an_ephemeral_menu_closes_with_its_decision_or_before_its_token_expires(
        world: World, simcord_env: simcord.Env) -> None:
    info = await started(world)
    table = info.id
    alice, bob = world.people[:2]
    hand = (await bob.slash(world.channel, "hand")).response.message
    assert custom_ids(hand)
    await world.play_by_dm(table, bob)  # his pick, from his DM: the /hand menu is stale
    await world.flush()
    assert custom_ids(world.refresh(hand)) == []
    # A menu still current is closed while its token can still edit it.
    again = (await alice.slash(world.channel, "hand")).response.message
    assert custom_ids(again)
    await simcord_env.advance_time(TOKEN_LIFE)
    assert custom_ids(world.refresh(again)) == []
