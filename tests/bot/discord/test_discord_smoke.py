"""First contact: a table opens, fills and starts through Discord."""

from __future__ import annotations

from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import World, open_table, simcord_marker

pytestmark = simcord_marker


async def test_lobby_start_and_dms(world: World) -> None:
    info = await open_table(world, "ginkgopolis", humans=3)
    assert [s.name for s in info.seats] == ["Alice", "Bob", "Chloe"]
    host = world.people[0]
    await host.click(world.status_message(info.id), custom_id=f"urb:l:start:{info.id}")
    for m in world.channel_messages():
        print("CHANNEL", repr(m.content[:300]), [a.filename for a in m.attachments])
    for p in world.people:
        for m in world.dms(p):
            print("DM", p.name, repr(m.content[:400]), [a.filename for a in m.attachments])
    assert (await world.service.info(info.id)).status == "running"
