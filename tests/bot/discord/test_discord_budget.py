"""The request budget of a round, counted on simcord's record of every REST call: a
4-player Ginkgopolis game played to the end through DM menus. Per round, at most 3
requests to the table's channel (the round's news with the board, the status edit);
per deciding seat, one DM sent and at most one edited (its menu disabled once the
decision closes). Answers to clicks are interaction responses, not messages."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import World, label, simcord_marker

pytestmark = simcord_marker

CHANNEL_BUDGET = 3


@dataclass
class RoundCost:
    channel: int = 0
    dm_sent: int = 0
    dm_edited: int = 0
    decisions: set[tuple[int, int]] = field(default_factory=set)  # (seat, prompt version)


def tally(world: World, since: int, cost: RoundCost) -> int:
    """Add the REST calls made since index ``since`` to ``cost``; the new index."""
    calls = world.env.http_requests
    channel = str(world.channel.id)
    for call in calls[since:]:
        parts = call.path.strip("/").split("/")
        if parts[:1] != ["channels"] or len(parts) < 3 or parts[2] != "messages":
            continue  # interaction responses, DM channel creation, commands...
        if parts[1] == channel:
            cost.channel += 1
        elif call.method == "POST":
            cost.dm_sent += 1
        elif call.method == "PATCH":
            cost.dm_edited += 1
    return len(calls)


async def test_a_round_costs_at_most_three_channel_requests_and_one_dm_per_decision(
        world: World) -> None:
    alice, bob, chloe = world.people
    mo = world.mod
    result = await alice.slash(world.channel, "table new", game="ginkgopolis")
    assert result.ephemeral
    table = await world.table_id()
    for member in (bob, chloe, mo):
        lobby = world.status_message(table)
        await member.click(lobby, label=label(lobby, "urb:l:join"))
    await alice.click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    await world.flush()
    members = {str(m.id): m for m in (alice, bob, chloe, mo)}
    rng = random.Random(5)
    costs: Counter[int] = Counter()
    rounds: dict[int, RoundCost] = {}
    index = len(world.env.http_requests)
    current = (await world.service.view(table))["round"]
    moves = 0
    while (info := await world.service.info(table)).status == "running":
        seat = sorted(info.waiting)[0]
        member = members[info.seats[seat].user_id or ""]
        prompt = await world.service.prompt(table, world.actor(member))
        text = rng.choice([o.text for o in prompt.options])
        cost = rounds.setdefault(current, RoundCost())
        cost.decisions.add((seat, prompt.version))
        await world.pick(member, world.menu_dm(member), text)
        await world.flush()
        index = tally(world, index, cost)
        view = await world.service.view(table)
        if view["round"] != current and (await world.service.info(table)).status == "running":
            current = view["round"]
        moves += 1
        assert moves < 600, "the game must end"
    costs.update({"rounds": len(rounds)})
    assert len(rounds) >= 5
    for number, cost in sorted(rounds.items()):
        assert cost.channel <= CHANNEL_BUDGET, (number, cost)
        assert cost.dm_sent <= len(cost.decisions), (number, cost)
        assert cost.dm_edited <= len(cost.decisions), (number, cost)
    # No secret step was announced: the channel never says that someone chose.
    said = "\n".join(m.content for m in world.channel_messages())
    assert "has made their choice" not in said
