"""What an operator reads in the logs when a DM cannot be sent: a player who closed their
DMs is an expected, handled condition (the seat plays through /hand), logged as
information; any other refusal stays a warning."""

from __future__ import annotations

import logging

import pytest
from simfixtures import *  # noqa: F403 (the fixtures)
from simfixtures import logged_on_purpose
from simtable import World, open_table, simcord_marker

pytestmark = simcord_marker


def delivery_failures(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records
            if r.name == "bot.service.delivery" and " failed: " in r.getMessage()]


async def start_with_bob_refused(world: World, code: int) -> None:
    info = await open_table(world, "ginkgopolis", humans=2)
    bob = world.people[1]
    assert bob.user.dm_channel is not None
    world.env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages",
                           status=403, code=code, message="Cannot send messages to this user")
    await world.people[0].click(world.status_message(info.id),
                                custom_id=f"urb:l:start:{info.id}")
    await world.flush()
    after = await world.service.info(info.id)
    assert not after.seats[after.seat_of(str(bob.id)) or 0].dm_ok  # handled: /hand


async def test_closed_dms_are_logged_as_information(world: World,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    await start_with_bob_refused(world, 50007)
    (record,) = delivery_failures(caplog)
    assert "403 (code 50007)" in record.getMessage()
    assert record.levelno == logging.INFO


async def test_another_refusal_of_a_dm_is_still_a_warning(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    await start_with_bob_refused(world, 50278)
    (record,) = delivery_failures(caplog)
    assert "403 (code 50278)" in record.getMessage()
    assert record.levelno == logging.WARNING
    logged_on_purpose(caplog, "failed: 403 (code 50278)")
