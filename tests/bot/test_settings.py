"""Changing a table's settings and game options in the lobby; options typed as text;
finding a channel's ended table; the front end's status message kept with the table."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import HOST, MANAGER, PLAYERS, RenderingNotifier

from bot.clock import FakeClock
from bot.service import Refused, TableService, TableSettings
from bot.service.options import parse_options
from bot.store import SqliteStore
from bot.text import Renderer

HOUR = 3600


async def refused(code: str, coro: object) -> Refused:
    with pytest.raises(Refused) as info:
        await coro  # type: ignore[misc]
    assert info.value.code == code, info.value.message
    return info.value


async def test_the_host_configures_the_lobby(service: TableService, store: SqliteStore,
                                             notifier: RenderingNotifier,
                                             clock: FakeClock) -> None:
    info = await service.create(HOST, "fakepicks", channel_id="c1", seed=3)
    await service.join(info.id, PLAYERS[1])
    assert info.options == {"rounds": 3} == info.default_options
    assert info.reminders == (12 * HOUR, HOUR) and info.seat_order == "shuffle"
    notifier.clear()

    wanted = dataclasses.replace(info.settings, deadline_seconds=6 * HOUR, seat_order="join")
    after = await service.configure(info.id, HOST, settings=wanted, options={"rounds": 5},
                                    max_seats=3, locale="fr")

    assert after.options == {"rounds": 5} and after.default_options == {"rounds": 3}
    # The default reminders moved with the deadline: half time and one hour before.
    assert (after.deadline_seconds, after.reminders) == (6 * HOUR, (3 * HOUR, HOUR))
    assert (after.max_seats, after.locale, after.seat_order) == (3, "fr", "join")
    assert after.version == 0  # settings are not moves
    # Durable: a new service on the same database reads the same table.
    fresh = await TableService(store, RenderingNotifier(), clock=clock).info(info.id)
    assert fresh == after
    # The table is told what changed, in its new language, and the lobby is redrawn.
    assert [(n.template, n.slot) for n in notifier.notes] == [("configured", None),
                                                               ("lobby", "status")]
    changes = notifier.notes[0].context["changes"]
    assert changes == [
        {"field": "max_seats", "old": 4, "new": 3},
        {"field": "deadline_seconds", "old": 24 * HOUR, "new": 6 * HOUR},
        {"field": "reminders", "old": [12 * HOUR, HOUR], "new": [3 * HOUR, HOUR]},
        {"field": "seat_order", "old": "shuffle", "new": "join"},
        {"field": "locale", "old": "en", "new": "fr"},
        {"field": "option", "key": "rounds", "old": 3, "new": 5},
    ]
    assert notifier.texts[0].startswith("Alice a changé les réglages de la table")
    assert "- option `rounds` : 5 (au lieu de 3)" in notifier.texts[0]
    assert "`rounds=5`" in notifier.texts[1]  # the lobby shows the options in force

    # The game starts with what was configured.
    started = await service.start(info.id, HOST)
    assert [s.name for s in started.seats] == ["Alice", "Bob"]  # join order
    assert len((await service.view(info.id, HOST))["hand"]) == 5  # one card per round
    assert set(started.deadlines.values()) == {clock.now() + 6 * HOUR}


async def test_custom_reminders_and_no_change(service: TableService,
                                              notifier: RenderingNotifier) -> None:
    info = await service.create(HOST, "fakepicks")
    custom = dataclasses.replace(info.settings, reminders=(2 * HOUR, 30 * 60))
    after = await service.configure(info.id, HOST, settings=custom)
    assert after.reminders == (2 * HOUR, 30 * 60)
    # Stored reminders that are not the defaults stay when only the deadline changes.
    longer = await service.configure(
        info.id, HOST, settings=dataclasses.replace(after.settings, deadline_seconds=48 * HOUR))
    assert longer.reminders == (2 * HOUR, 30 * 60)
    notifier.clear()
    # The same values again: nothing written, nobody told.
    same = await service.configure(info.id, HOST, settings=longer.settings,
                                   options={"rounds": 3}, max_seats=4, locale="en")
    assert same == longer and notifier.notes == []


async def test_configure_refusals_change_nothing(service: TableService,
                                                 notifier: RenderingNotifier) -> None:
    info = await service.create(HOST, "fakepicks", max_seats=4)
    await service.join(info.id, PLAYERS[1])
    await service.join(info.id, PLAYERS[2])
    before = await service.info(info.id)
    notifier.clear()

    await refused("not_host", service.configure(info.id, PLAYERS[1], max_seats=3))
    bad = await refused("options", service.configure(info.id, HOST, options={"rounds": 99}))
    assert bad.message == "rounds must be between 1 and 8"  # the engine's own words
    text = Renderer().refusal(bad, locale="en", game="fakepicks")
    assert text == "These table settings are not possible: rounds must be between 1 and 8"
    too_few = await refused("options", service.configure(info.id, HOST, max_seats=2))
    assert "3 seats are taken" in too_few.message
    await refused("options", service.configure(info.id, HOST, max_seats=5))
    await refused("options", service.configure(info.id, HOST, locale="xx"))
    late = dataclasses.replace(before.settings, reminders=(30 * HOUR,))
    await refused("options", service.configure(info.id, HOST, settings=late))
    # One bad part refuses the whole call: the good parts are not applied either.
    await refused("options", service.configure(info.id, HOST, max_seats=3,
                                               options={"rounds": 0}))
    assert await service.info(info.id) == before
    assert notifier.notes == []

    # A server manager has the host's powers; after the start, nobody may.
    assert (await service.configure(info.id, MANAGER, max_seats=3)).max_seats == 3
    await service.start(info.id, HOST)
    await refused("not_lobby", service.configure(info.id, HOST, options={"rounds": 2}))
    await refused("not_lobby", service.configure(info.id, MANAGER, locale="fr"))
    await refused("no_table", service.configure(999, HOST, locale="fr"))


async def test_real_game_options_are_judged_by_the_engine(service: TableService) -> None:
    gin = await service.create(HOST, "ginkgopolis")
    typed = parse_options("characters=intro strict_screens=true", gin.default_options)
    assert typed == {"characters": "intro", "strict_screens": True}
    after = await service.configure(gin.id, HOST, options=typed)
    assert after.options == {"characters": "intro", "strict_screens": True,
                             "expert_hal": False}
    wrong = await refused("options", service.configure(
        gin.id, HOST, options=parse_options("characters=all", gin.default_options)))
    assert wrong.message == "The characters option is 'draft' or 'intro'."
    unknown = await refused("options", service.configure(gin.id, HOST, options={"speed": 2}))
    assert "speed" in unknown.message

    # Skybridge's choose_colour is for two players: judged for the seats taken (at least
    # the game's minimum), and judged again at the start.
    sky = await service.create(HOST, "skybridge")
    await service.configure(sky.id, HOST, options={"choose_colour": True})
    await service.join(sky.id, PLAYERS[1])
    await service.join(sky.id, PLAYERS[2])
    three = await refused("options", service.configure(sky.id, HOST,
                                                       options={"choose_colour": True}))
    assert "2-player" in three.message
    await refused("options", service.start(sky.id, HOST))
    await service.leave(sky.id, PLAYERS[2])
    assert (await service.start(sky.id, HOST)).status == "running"


def test_a_reminder_falls_strictly_inside_the_decision_time() -> None:
    for offset in (1, HOUR, 6 * HOUR - 1):
        TableSettings(deadline_seconds=6 * HOUR, reminders=(offset,)).validate()
    for offset in (0, 6 * HOUR, 6 * HOUR + 1, -HOUR):
        with pytest.raises(Refused) as info:
            TableSettings(deadline_seconds=6 * HOUR, reminders=(offset,)).validate()
        assert info.value.code == "options" and info.value.context["field"] == "reminders"


def test_options_typed_as_text() -> None:
    defaults = {"flag": False, "count": 3, "mode": "draft"}
    assert parse_options("", defaults) == {}
    assert parse_options("flag=true count=5 mode=intro", defaults) == {
        "flag": True, "count": 5, "mode": "intro"}
    # Commas, spaces around "=", French words; the last of a key wins.
    assert parse_options(" flag = oui, count=2; count=4 ", defaults) == {"flag": True,
                                                                         "count": 4}
    assert parse_options("flag=off", defaults) == {"flag": False}
    # What the default's type cannot read stays text, for the engine to refuse by name.
    assert parse_options("flag=maybe count=many mode=1", defaults) == {
        "flag": "maybe", "count": "many", "mode": "1"}
    assert parse_options("other=7 more=yes", defaults) == {"other": 7, "more": True}
    assert parse_options("less=non odd=maybe", defaults) == {"less": False, "odd": "maybe"}
    for bad in ("flag", "flag=", "=true", "flag true"):
        with pytest.raises(Refused) as info:
            parse_options(bad, defaults)
        assert info.value.code == "options" and "key=value" in info.value.message


async def test_an_ended_table_is_found_on_request(service: TableService) -> None:
    first = await service.create(HOST, "fakepicks", channel_id="c1")
    assert (await service.table_in_channel("c1")) == await service.info(first.id)
    await service.abort(first.id, HOST)
    assert await service.table_in_channel("c1") is None
    ended = await service.table_in_channel("c1", ended=True)
    assert ended is not None and (ended.id, ended.status) == (first.id, "aborted")
    assert await service.table_in_channel("c2", ended=True) is None
    # A table in play wins over any ended one.
    second = await service.create(HOST, "fakepicks", channel_id="c1")
    for ended_too in (False, True):
        found = await service.table_in_channel("c1", ended=ended_too)
        assert found is not None and found.id == second.id


async def test_the_status_message_is_kept_with_the_table(
        service: TableService, store: SqliteStore, notifier: RenderingNotifier,
        clock: FakeClock) -> None:
    info = await service.create(HOST, "fakepicks", channel_id="c1",
                                settings=TableSettings(seat_order="join"))
    assert (info.status_channel_id, info.status_message_id) == (None, None)
    await service.join(info.id, PLAYERS[1])
    await service.start(info.id, HOST)
    before = await service.info(info.id)
    notifier.clear()
    await service.set_status_message(info.id, "c1", "555")
    after = await service.info(info.id)
    assert (after.status_channel_id, after.status_message_id) == ("c1", "555")
    assert after.version == before.version and notifier.notes == []
    fresh = await TableService(store, RenderingNotifier(), clock=clock).info(info.id)
    assert (fresh.status_channel_id, fresh.status_message_id) == ("c1", "555")
    # Ended tables keep theirs too (their last status message says who won).
    await service.abort(info.id, HOST)
    await service.set_status_message(info.id, "c1", "556")
    assert (await service.info(info.id)).status_message_id == "556"
