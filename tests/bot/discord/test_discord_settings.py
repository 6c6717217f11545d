"""``/table settings`` shows a table's settings and game options to anyone, and lets the
host (or a moderator) change them in the lobby; ``/table new`` takes game options too;
an ended table's settings, status and log stay readable."""

from __future__ import annotations

from simfixtures import *  # noqa: F403 (the fixtures)
from simtable import HOUR, World, open_table, simcord_marker

pytestmark = simcord_marker


async def test_the_host_changes_the_settings_in_the_lobby(world: World) -> None:
    info = await open_table(world, "ginkgopolis", humans=2, options="characters=intro")
    table = info.id
    alice, bob = world.people[:2]
    assert info.options == {"characters": "intro", "strict_screens": False,
                            "expert_hal": False}

    # Anyone reads the settings, with every option of the game and its default.
    shown = await world.spectator.slash(world.channel, "table settings")
    text = shown.response.content
    assert shown.ephemeral
    assert "`characters` = intro (default: draft)" in text
    assert "`strict_screens` = false (default)" in text
    assert "Reminders: 12 h, 1 h before the deadline." in text

    # Only the host or a moderator changes them; a refusal changes nothing.
    before = await world.service.info(table)
    refused = await bob.slash(world.channel, "table settings", deadline_hours=6)
    assert "Only the host" in refused.response.content
    refused = await alice.slash(world.channel, "table settings", options="characters=all")
    assert refused.response.content == ("These table settings are not possible: "
                                        "The characters option is 'draft' or 'intro'.")
    refused = await alice.slash(world.channel, "table settings", options="strict_screens")
    assert "key=value" in refused.response.content
    refused = await alice.slash(world.channel, "table settings", reminder_hours="soon")
    assert "hours before the deadline" in refused.response.content
    assert await world.service.info(table) == before
    channel_count = len(world.channel_messages())

    result = await alice.slash(world.channel, "table settings", deadline_hours=6,
                               reminder_hours="2 0.5", seats=3, seat_order="join",
                               options="strict_screens=true")
    after = await world.service.info(table)
    assert (after.deadline_seconds, after.reminders, after.max_seats, after.seat_order) == (
        6 * HOUR, (2 * HOUR, HOUR // 2), 3, "join")
    assert after.options["strict_screens"] is True
    # The host sees the new settings; the channel reads what changed, once.
    assert result.ephemeral
    assert "`strict_screens` = true (default: false)" in result.response.content
    assert "Reminders: 2 h, 30 min before the deadline." in result.response.content
    news = world.channel_messages()[channel_count:]
    assert len(news) == 1 and news[0].content.startswith("Alice changed the settings")
    assert "- option `strict_screens`: true (was false)" in news[0].content
    assert "- seats: 3 at most (was 5)" in news[0].content
    lobby = world.status_message(table)
    assert "2/3 seats taken" in lobby.content and "`strict_screens=true`" in lobby.content

    # A moderator may too; the table now speaks French, its lobby message as well.
    await world.mod.slash(world.channel, "table settings", locale="fr")
    assert world.channel_messages()[-1].content.startswith("Mo a changé les réglages")
    assert "places prises" in world.status_message(table).content

    # The game starts with them; after that, the settings are only read.
    await alice.click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    running = await world.service.info(table)
    assert set(running.deadlines.values()) == {world.clock.now() + 6 * HOUR}
    refused = await alice.slash(world.channel, "table settings", deadline_hours=1)
    assert "a déjà commencé" in refused.response.content
    assert (await world.service.info(table)).deadline_seconds == 6 * HOUR
    shown = await alice.slash(world.channel, "table settings")
    assert "`characters` = intro (par défaut : draft)" in shown.response.content


async def test_new_table_options_are_judged_by_the_game(world: World) -> None:
    alice = world.people[0]
    result = await alice.slash(world.channel, "table new", game="skybridge",
                               options="elimination=maybe")
    assert "elimination is on or off" in result.response.content
    assert await world.service.table_in_channel(str(world.channel.id)) is None
    result = await alice.slash(world.channel, "table new", game="skybridge",
                               options="elimination=yes")
    assert "is open" in result.response.content
    info = await world.service.table_in_channel(str(world.channel.id))
    assert info is not None and info.options == {"choose_colour": False, "elimination": True}


async def test_an_ended_table_stays_readable(world: World) -> None:
    info = await open_table(world, "skybridge", humans=2)
    table = info.id
    alice = world.people[0]
    await alice.click(world.status_message(table), custom_id=f"urb:l:start:{table}")
    await alice.slash(world.channel, "table abort")
    assert await world.service.table_in_channel(str(world.channel.id)) is None

    shown = await world.spectator.slash(world.channel, "table settings")
    assert f"table #{table} (aborted)" in shown.response.content
    status = await world.spectator.slash(world.channel, "table status")
    assert "has ended" in status.response.content
    log = await world.spectator.slash(world.channel, "table log")
    assert f"Log of table #{table}" in log.response.content
    refused = await alice.slash(world.channel, "table settings", seats=2)
    assert "already started" in refused.response.content
