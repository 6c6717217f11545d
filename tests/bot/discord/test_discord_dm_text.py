"""A decision's DM leads with what to do and its menu; the long text stays one step away
(issue 24, item 19): ``/hand`` shows the hand in words and how to type each move, for
those who read rather than look, and the DM's image keeps its alt text."""

from __future__ import annotations

from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import World, custom_ids, open_table, simcord_marker

pytestmark = simcord_marker

DM_CHARS = 400  # as tests/bot/test_discord_text.py


async def test_the_dm_is_short_and_hand_holds_the_details(world: World) -> None:
    info = await open_table(world, "ginkgopolis", humans=3)
    alice = world.people[0]
    await alice.click(world.status_message(info.id), custom_id=f"urb:l:start:{info.id}")
    await world.flush()
    dm = world.menu_dm(alice)
    prompt = await world.service.prompt(info.id, world.actor(alice))
    assert custom_ids(dm)  # the options are in the menu...
    assert len(dm.content) <= DM_CHARS, dm.content
    assert not any(f"`{o.text}`" in dm.content for o in prompt.options)  # ...not the text
    assert "Options (" not in dm.content and "/hand" in dm.content
    assert dm.attachments and all(a.description for a in dm.attachments)
    result = await alice.user.slash("hand", table=info.id)
    details = "\n".join(m.content for m in [result.response, *result.followups]
                        if m is not None)
    # What the DM left out is one command away: the characters held, and how to type.
    assert "Characters you hold" in details and "Type draft N" in details
    assert "Characters you hold" not in dm.content
