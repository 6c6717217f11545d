"""The counter of benchmarks/requests.py counts every REST call the bot makes, each under
its kind: a click's interaction response and the edit of its original response, a
command's deferral and its follow-up, DM channel opens, DMs, channel posts and edits,
reactions; and it notices a call that reached simcord's log without passing it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from simcord.http import router
from simcord.types import HttpLogEntry
from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import World, simcord_marker, started

ROOT = Path(__file__).resolve().parents[3]


def bench() -> ModuleType:
    # Not imported as "requests": that name is the HTTP library's.
    spec = importlib.util.spec_from_file_location("bench_requests",
                                                  ROOT / "benchmarks" / "requests.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_requests"] = module
    spec.loader.exec_module(module)
    return module


class Channel:
    def __init__(self, guild_id: int | None) -> None:
        self.guild_id = guild_id


class Backend:
    """Channel 1 is in a guild, channel 2 is a DM."""

    def get_channel(self, channel_id: int) -> Channel:
        return Channel(10 if channel_id == 1 else None)


def test_each_route_has_its_kind() -> None:
    kind_of = bench().kind_of
    backend = Backend()
    routes = {
        ("POST", "/channels/1/messages"): "ch_post",
        ("PATCH", "/channels/1/messages/5"): "ch_edit",
        ("POST", "/channels/2/messages"): "dm_post",
        ("PATCH", "/channels/2/messages/5"): "dm_edit",
        ("POST", "/users/@me/channels"): "dm_open",
        ("POST", "/interactions/7/tok/callback"): "callback",
        ("POST", "/webhooks/9/tok"): "followup",
        ("PATCH", "/webhooks/9/tok/messages/@original"): "orig_edit",
        ("PATCH", "/webhooks/9/tok/messages/8"): "fu_edit",
        ("DELETE", "/webhooks/9/tok/messages/@original"): "delete",
        ("DELETE", "/channels/2/messages/5"): "delete",
        ("POST", "/channels/1/messages/bulk-delete"): "delete",
        ("PUT", "/channels/2/messages/5/reactions/%E2%9C%85/@me"): "reaction",
        ("GET", "/channels/1/messages/5"): "read",
        ("PUT", "/channels/1/permissions/3"): "other",
    }
    assert {r: kind_of(backend, *r) for r in routes} == routes


@simcord_marker
async def test_every_call_of_a_game_is_counted_under_its_kind(world: World) -> None:
    module = bench()
    real = router.dispatch
    hook = module.Hook(world.env.backend)
    try:
        info = await started(world)
        table = info.id
        opening = hook.take()
        kinds = {c.kind for c in opening}
        assert {"dm_open", "dm_post", "ch_post", "ch_edit", "callback"} <= kinds, kinds

        # A click in a DM menu: one interaction response, and the clicked message edited
        # through the interaction's token (its original response).
        member = world.member_of(info.seats[min(info.waiting)].user_id)
        await world.play_by_dm(table, member)
        await world.flush()
        click = hook.take()
        assert [c.callback for c in click if c.kind == "callback"] == ["defer_update"]
        assert [c.kind for c in click].count("orig_edit") == 1, click

        # A command answered after thinking: the deferral and its follow-up.
        hand = await member.slash(world.channel, "hand")
        assert hand.ephemeral
        answer = hook.take()
        assert [c.callback for c in answer if c.kind == "callback"] == ["thinking"]
        assert [c.kind for c in answer].count("followup") >= 1, answer

        # A move typed in a DM: answered with a reaction.
        info = await world.service.info(table)
        member = world.member_of(info.seats[min(info.waiting)].user_id)
        prompt = await world.service.prompt(table, world.actor(member))
        await member.send_dm(prompt.options[0].text)
        await world.flush()
        typed = hook.take()
        assert "reaction" in {c.kind for c in typed}, typed
        assert (await world.service.info(table)).version > info.version

        counted = [*opening, *click, *answer, *typed]
        assert all(c.kind != "other" for c in counted), [c for c in counted
                                                         if c.kind == "other"]
    finally:
        hook.remove()
    assert router.dispatch is real


def test_a_call_around_the_router_is_noticed() -> None:
    module = bench()
    backend: Any = Backend()
    backend.http_requests = []
    real = router.dispatch
    hook = module.Hook(backend)
    try:
        assert hook.take() == []
        # Logged as simcord's router logs a call, but never dispatched through the hook.
        backend.http_requests.append(HttpLogEntry("POST", "/channels/1/messages", {}, None,
                                                  None))
        try:
            hook.take()
        except AssertionError as exc:
            assert "1 calls logged, 0 counted: POST /channels/1/messages" in str(exc)
        else:
            raise AssertionError("a call the counter did not see went unnoticed")
    finally:
        hook.remove()
    assert router.dispatch is real

