"""First contact: a table opens, fills and starts through Discord."""

from __future__ import annotations

from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import World, custom_ids, open_table, simcord_marker

pytestmark = simcord_marker


async def test_lobby_start_and_dms(world: World) -> None:
    info = await open_table(world, "ginkgopolis", humans=3)
    assert [s.name for s in info.seats] == ["Alice", "Bob", "Chloe"]
    lobby = world.status_message(info.id)
    assert set(custom_ids(lobby)) == {f"urb:l:{verb}:{info.id}"
                                      for verb in ("join", "leave", "bot", "start")} | {
        f"urb:lb:{info.id}"}  # the select that adds a bot of a chosen level
    await world.people[0].click(lobby, custom_id=f"urb:l:start:{info.id}")
    assert (await world.service.info(info.id)).status == "running"
    # The lobby message became the status message: same message, now the hand button.
    status = world.status_message(info.id)
    assert status.id == lobby.id and custom_ids(status) == [f"urb:h:{info.id}"]
    # The draft is a secret pick for all three: one deadline, and nobody named.
    assert status.content.count("<t:") == 1 and "A secret choice is being made" in status.content
    for member in world.people:
        dm = world.menu_dm(member)
        # The DM leads with what to do; the hand in words is one step away, in /hand.
        lead = dm.content.split("\n")[0]
        assert f"your turn, {member.user.global_name}: choose a character" in lead
        assert "/hand" in dm.content and custom_ids(dm)
