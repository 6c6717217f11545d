"""A message's parts made from the live table's state (issue 25).

The delivery makes a message's view and menu from the state of the message's version.
When the cached table still holds that very state in memory, it is used as it is, not
parsed again from the snapshot; the seat's menu is made once for the message and the
prompt that show the same moves. Neither may change a byte of what a player reads, and a
state an action is being applied to (in place, before its commit) is never used."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import HOST, PLAYERS
from test_delivery_claims import task_world

from bot.clock import FakeClock
from bot.service import TableService, TableSettings, fill, turns
from bot.service.fill import TABLE_KEYS, Filler, options_of
from bot.service.live import LiveTable
from bot.store.records import TableRecord
from engine.core.registry import get_game

GAMES = ["ginkgopolis", "quadropolis", "neotopia", "skybridge"]
recent_left: list[int] = []  # the states kept by the last game ``offered`` played


def count_copies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each copy of a state the service keeps before an action changes it in place."""
    copied: list[int] = []
    real = fill.copy_of

    def counted(engine: Any, state: Any) -> Any:
        copied.append(1)
        return real(engine, state)

    monkeypatch.setattr(turns, "copy_of", counted)
    return copied


def spy_on_current(filler: Filler) -> list[bool]:
    """Each lookup of the live state: whether it was found."""
    found: list[bool] = []
    current = filler.current
    assert current is not None

    def spied(table_id: int, version: int) -> LiveTable | None:
        live = current(table_id, version)
        found.append(live is not None)
        return live

    filler.current = spied
    return found


async def play(service: TableService, game: str, *, actions: int, seed: int) -> int:
    """Two players and two bots; the delivery now and then lags several actions behind,
    so that some messages are made after their table moved on."""
    info = await service.create(HOST, game, settings=TableSettings(seat_order="join"),
                                seed=seed, channel_id="c1")
    await service.join(info.id, PLAYERS[1])
    for _ in range(2):
        await service.add_bot(info.id, HOST, ai_kind="random")
    await service.start(info.id, HOST)
    rng = random.Random(seed)
    for _ in range(actions):
        now = await service.info(info.id)
        humans = [s for s in now.waiting if s < 2]
        if now.status != "running" or not humans:
            break
        seat = min(humans)
        prompt = await service.prompt(info.id, PLAYERS[seat])
        option = prompt.options[rng.randrange(len(prompt.options))]
        await service.act(info.id, PLAYERS[seat], option.json, version=prompt.version)
        if rng.random() < 0.6:
            await service.delivery.idle()
    await service.delivery.idle()
    return info.id


async def offered(db: Path, game: str, *, live_states: bool,
                  copies: bool = True) -> tuple[list[Any], list[bool]]:
    """``live_states``: made from the live table's state when it is of the message's
    version; ``copies``: else from a copy kept before the state changed in place (else
    read back from the database: the snapshot and the log)."""
    async with task_world(db, FakeClock()) as (_, service, notifier):
        found = spy_on_current(service._filler)
        if not live_states:
            service._filler.current = None
        if not copies:
            service._recent.remember = lambda table_id, version, state: None  # type: ignore
        await play(service, game, actions=40, seed=11)
        recent_left[:] = [len(service._recent)]
        await service.close()
    # The table's facts (``TABLE_KEYS``) are read as they are when a message goes out,
    # which depends on when the delivery task ran; all else is of the message's version.
    return [(n.outbox_id, n.seat, n.template,
             {k: v for k, v in n.context.items() if k not in TABLE_KEYS})
            for n in notifier.offered], found


@pytest.mark.parametrize("game", GAMES)
async def test_messages_made_from_the_live_state_read_as_from_the_snapshot(
        tmp_path: Path, game: str) -> None:
    live, found = await offered(tmp_path / "live.sqlite3", game, live_states=True)
    parsed, unused = await offered(tmp_path / "parsed.sqlite3", game, live_states=False)
    assert not unused
    assert len(live) > 20
    # Both paths were taken: the live state mostly, the snapshot once the table moved on.
    assert found.count(True) > 10
    assert live == parsed


@pytest.mark.parametrize("game", ["ginkgopolis", "neotopia"])
async def test_messages_made_from_a_kept_copy_or_read_back_read_the_same(
        tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    copied = count_copies(monkeypatch)
    kept, _ = await offered(tmp_path / "kept.sqlite3", game, live_states=False)
    assert copied  # the delivery lagged: states were copied before changing in place
    assert recent_left == [0]  # and none was kept once its messages were made
    read, _ = await offered(tmp_path / "read.sqlite3", game, live_states=False, copies=False)
    live, _ = await offered(tmp_path / "live.sqlite3", game, live_states=True)
    assert len(kept) > 20
    assert kept == read == live


def _live(game: str = "skybridge") -> LiveTable:
    engine = get_game(game)
    record = TableRecord(game=game, options={}, seed=3, host_id="u0", max_seats=2,
                         created_at=1.0, updated_at=1.0, version=5, status="running")
    return LiveTable(record, [], [], engine, engine.setup(2, {}, 3))


def test_a_state_being_changed_or_of_another_version_is_not_the_versions_state() -> None:
    live = _live()
    assert live.state_at(5) is live.state
    assert live.state_at(4) is None
    live.moving = True  # an action applied in place, its commit not yet landed
    assert live.state_at(5) is None


def test_a_seats_menu_is_made_once_per_version_and_never_outlives_it() -> None:
    from bot.service.fill import options_at

    live = _live()
    seat = min(live.game.pending(live.state).waiting)
    menu = options_at(live, seat)
    assert menu == options_of(live.game, live.state, seat) and menu
    assert options_at(live, seat) is menu  # the same list: made once
    # The table moves on: the next menu is made from the new state, not the memo.
    action = live.game.legal_actions(live.state, seat)[0]
    live.game.apply(live.state, seat, action)
    live.moving = True
    waiting = min(live.game.pending(live.state).waiting)
    assert options_at(live, waiting) == options_of(live.game, live.state, waiting)
    live.moving = False
    live.record.version = 6
    fresh = options_at(live, waiting)
    assert fresh is not menu and fresh == options_of(live.game, live.state, waiting)


async def test_no_copy_is_kept_of_a_state_whose_messages_are_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The transport is still sending (the table's delivery is busy) but the messages
    of the version were made already: the next action keeps no copy of the state."""
    copied = count_copies(monkeypatch)
    async with task_world(tmp_path / "db.sqlite3", FakeClock()) as (_, service, notifier):
        gate = asyncio.Event()
        deliver = notifier.deliver
        made = asyncio.Event()

        async def slow(notes: Any) -> Any:
            made.set()  # the parts were made before the transport is called
            await gate.wait()
            return await deliver(notes)

        notifier.deliver = slow  # type: ignore[method-assign]
        info = await service.create(HOST, "skybridge", settings=TableSettings(seat_order="join"),
                                    seed=3, channel_id="c1")
        await service.join(info.id, PLAYERS[1])
        gate.set()
        await service.start(info.id, HOST)
        await service.delivery.idle()
        gate.clear()
        for step in range(2):
            now = await service.info(info.id)
            seat = min(now.waiting)
            prompt = await service.prompt(info.id, PLAYERS[seat])
            made.clear()
            await service.act(info.id, PLAYERS[seat], prompt.options[0].json,
                              version=prompt.version)
            if step == 0:
                # The first action's messages are made; the transport holds them.
                await made.wait()
                assert service.delivery.busy(info.id)
        # The second action changed the state in place while its delivery was busy, and
        # kept no copy: the first action's messages were made already.
        assert not copied
        gate.set()
        await service.delivery.idle()
        await service.close()

