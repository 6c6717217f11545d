"""Actions through the service: refusals leave everything untouched, stale versions,
concurrent double submits, typed actions, privacy of notifications and logs."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from conftest import HOST, PLAYERS, STRANGER, RenderingNotifier, new_table

from bot.service import Refused, TableService
from bot.store import SqliteStore


async def stored(store: SqliteStore, table: int) -> tuple[Any, ...]:
    record = await store.load_table(table)
    assert record is not None
    actions = await store.load_actions(table)
    return record.version, record.snapshot, len(actions), tuple(await store.load_timers(table))


async def expect_refusal(service: TableService, store: SqliteStore, table: int, code: str,
                         coro: Any) -> Refused:
    before = await stored(store, table)
    view_before = await service.view(table)
    with pytest.raises(Refused) as info:
        await coro
    assert info.value.code == code, info.value.message
    assert await stored(store, table) == before, "a refusal changed the database"
    assert await service.view(table) == view_before, "a refusal changed the live state"
    return info.value


async def test_refusals_leave_the_table_untouched(service: TableService,
                                                  store: SqliteStore) -> None:
    table = await new_table(service, humans=3)
    alice, bob = PLAYERS[0], PLAYERS[1]
    prompt = await service.prompt(table, alice)
    assert prompt.decision == "pick" and prompt.options
    hand = (await service.view(table, alice))["hand"]
    bob_hand = (await service.view(table, bob))["hand"]
    # A non-player.
    await expect_refusal(service, store, table, "not_player",
                         service.act(table, STRANGER, prompt.options[0].json,
                                     version=prompt.version))
    # A forged action: not even an action of this game, or nonsense.
    for forged in ({"t": "teleport"}, {"nonsense": True}, {"t": "pick", "card": "x"}):
        refusal = await expect_refusal(service, store, table, "forged",
                                       service.act(table, alice, forged, version=None))
        assert refusal.context["options"] == [o.to_json() for o in prompt.options]
    # A well-formed action that the rules forbid: a card from Bob's hand.
    stolen = next(c for c in bob_hand if c not in hand)
    refusal = await expect_refusal(service, store, table, "illegal",
                                   service.act(table, alice, {"t": "pick", "card": stolen},
                                               version=prompt.version))
    assert refusal.context["legal"] == [f"p{c}" for c in hand]
    # A wrong-phase action: a bonus while everyone picks.
    await expect_refusal(service, store, table, "illegal",
                         service.act(table, alice, {"t": "bonus", "n": 2}, version=None))
    # Typed text the game cannot parse, and typed text that is illegal.
    refusal = await expect_refusal(service, store, table, "parse",
                                   service.act_text(table, alice, "hello"))
    assert "legal now" in refusal.message
    await expect_refusal(service, store, table, "illegal",
                         service.act_text(table, alice, f"p{stolen}"))
    # A version from the future is as wrong as one from the past.
    await expect_refusal(service, store, table, "stale",
                         service.act(table, alice, prompt.options[0].json, version=99))


async def test_not_your_turn_in_a_sequential_decision(service: TableService,
                                                      store: SqliteStore) -> None:
    table = await new_table(service, humans=2)
    for actor in PLAYERS[:2]:
        await service.act_text(table, actor, (await service.prompt(table, actor)).options[0].text)
    info = await service.info(table)
    (winner, kind), = info.waiting.items()
    assert kind == "bonus"
    loser = PLAYERS[1 - winner]
    await expect_refusal(service, store, table, "not_your_turn",
                         service.act(table, loser, {"t": "bonus", "n": 1}, version=None))
    await expect_refusal(service, store, table, "not_your_turn",
                         service.act_text(table, loser, "b1"))
    result = await service.act_text(table, PLAYERS[winner], "b2")
    assert result.text == "b2"


async def test_stale_version_is_refused_with_current_options(service: TableService,
                                                             store: SqliteStore) -> None:
    table = await new_table(service, humans=2)
    alice, bob = PLAYERS[0], PLAYERS[1]
    old = await service.prompt(table, alice)
    # Bob's pick moves the table on, but Alice's decision continues: her buttons stay valid.
    await service.act(table, bob, (await service.prompt(table, bob)).options[0].json,
                      version=(await service.prompt(table, bob)).version)
    assert (await service.info(table)).version > old.version
    await service.act(table, alice, old.options[0].json, version=old.version)
    # Now the round resolved: Alice's old pick buttons are stale.
    info = await service.info(table)
    refusal = await expect_refusal(service, store, table, "stale",
                                   service.act(table, alice, old.options[1].json,
                                               version=old.version))
    assert refusal.context["current_version"] == info.version
    now = await service.prompt(table, alice)
    assert refusal.context["options"] == [o.to_json() for o in now.options]


async def test_double_submit_applies_once(service: TableService, store: SqliteStore) -> None:
    table = await new_table(service, humans=3)
    alice = PLAYERS[0]
    prompt = await service.prompt(table, alice)
    version_before = (await service.info(table)).version
    results = await asyncio.gather(
        *[service.act(table, alice, prompt.options[0].json, version=prompt.version)
          for _ in range(5)],
        return_exceptions=True,
    )
    accepted = [r for r in results if not isinstance(r, BaseException)]
    refusals = [r for r in results if isinstance(r, Refused)]
    assert len(accepted) == 1 and len(refusals) == 4
    assert {r.code for r in refusals} == {"stale"}
    assert (await service.info(table)).version == version_before + 1
    actions = await store.load_actions(table)
    assert [(a.seat, a.source) for a in actions] == [(0, "player")]


async def test_a_submitted_pick_may_change_until_the_last(service: TableService,
                                                          store: SqliteStore) -> None:
    table = await new_table(service, humans=2)
    alice, bob = PLAYERS[0], PLAYERS[1]
    first = await service.prompt(table, alice)
    await service.act(table, alice, first.options[0].json, version=first.version)
    again = await service.prompt(table, alice)
    assert again.decision == "changeable" and again.version > first.version
    await service.act(table, alice, again.options[-1].json, version=again.version)
    assert (await service.view(table, alice))["my_pick"] == int(again.options[-1].text[1:])
    last = await service.prompt(table, bob)
    await service.act(table, bob, last.options[0].json, version=last.version)
    view = await service.view(table)
    assert view["history"][0][0] == int(again.options[-1].text[1:])


async def test_private_information_stays_private(service: TableService, store: SqliteStore,
                                                 notifier: RenderingNotifier,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    table = await new_table(service, humans=3, bots=1)
    hands = {s: (await service.view(table, PLAYERS[s]))["hand"] for s in range(3)}
    alice_pick = hands[0][1]
    await service.act_text(table, PLAYERS[0], f"p{alice_pick}")
    # Table notifications carry only the public view; seat notifications only their own.
    public_view = await service.view(table)
    for n in notifier.notes:
        blob = json.dumps(n.context)
        if n.seat is None:
            assert '"hand"' not in blob and '"my_pick"' not in blob, n.template
            assert n.user_id is None
        else:
            assert n.user_id == PLAYERS[n.seat].user_id
            for other, hand in hands.items():
                if other != n.seat:
                    assert json.dumps(hand) not in blob, (n.template, other)
        if "view" in n.context and n.seat is None:
            assert set(n.context["view"]) == set(public_view)
    private_picks = [n for n in notifier.notes if n.template == "event_you_picked"]
    assert [(n.seat, n.context["card"]) for n in private_picks] == [(0, alice_pick)]
    # The bot seat receives nothing (nobody would read it).
    assert not notifier.to_seat(3)
    # The public log and every log line keep Alice's secret pick secret.
    log = await service.log(table)
    assert [(e.seat, e.text) for e in log] == [(3, None), (0, None)]
    assert not any(f"p{alice_pick}" in r.getMessage() or f"'card': {alice_pick}"
                   in r.getMessage() for r in caplog.records)
    # A sequential, public decision does appear in the log.
    for s in (1, 2):
        await service.act_text(table, PLAYERS[s], f"p{hands[s][0]}")
    waiting = (await service.info(table)).waiting
    for seat, kind in waiting.items():  # unless the bot won and chose its bonus already
        if kind == "bonus":
            await service.act_text(table, PLAYERS[seat], "b1")
    assert any(e.text in ("b1", "b2") for e in await service.log(table))


async def test_hand_serves_the_private_situation(service: TableService) -> None:
    table = await new_table(service, humans=2)
    note = await service.hand(table, PLAYERS[1])
    assert note.seat == 1 and note.template == "hand"
    assert note.context["view"]["hand"] == (await service.view(table, PLAYERS[1]))["hand"]
    with pytest.raises(Refused) as info:
        await service.hand(table, STRANGER)
    assert info.value.code == "not_player"


async def test_bots_play_a_whole_game_and_the_end_has_a_breakdown(
        service: TableService, notifier: RenderingNotifier, store: SqliteStore) -> None:
    table = await new_table(service, humans=1, bots=3)
    while (info := await service.info(table)).status == "running":
        prompt = await service.prompt(table, HOST)
        await service.act(table, HOST, prompt.options[0].json, version=prompt.version)
    assert info.status == "finished" and info.outcome is not None
    over = notifier.to_table(table)[-1]
    assert over.template == "game_over"
    assert [s["name"] for s in over.context["standings"]] and all(
        s["lines"] for s in over.context["standings"])
    assert "Game over" in notifier.texts[-1] and "bonus" in notifier.texts[-1]
    sources = {a.source for a in await store.load_actions(table)}
    assert sources == {"player", "bot"}
    assert await store.load_timers(table) == []
    assert (await service.verify(table)).ok
    with pytest.raises(Refused) as refused:
        await service.act_text(table, HOST, "p1")
    assert refused.value.code == "not_running"


async def test_a_second_process_writing_the_table_gets_busy_not_a_fork(
        service: TableService, store: SqliteStore, db_path: Any) -> None:
    """Two services on one database (two processes): the lock is per process, so the
    version check in the store is what stops a fork of the history."""
    table = await new_table(service, humans=2)
    other_store = await SqliteStore.open(db_path)
    try:
        other = TableService(other_store, RenderingNotifier())
        await other.info(table)  # cached at the current version
        await service.act_text(table, PLAYERS[0], (await service.prompt(table, HOST))
                               .options[0].text)
        bob_pick = (await other.prompt(table, PLAYERS[1])).options[0].text
        with pytest.raises(Refused) as refused:
            await other.act_text(table, PLAYERS[1], bob_pick)
        assert refused.value.code == "busy"
        assert [a.seat for a in await store.load_actions(table)] == [0]
        await other.act_text(table, PLAYERS[1], bob_pick)  # a retry sees the new state
        assert [a.seat for a in await store.load_actions(table)] == [0, 1]
        assert (await other.verify(table)).ok
    finally:
        await other_store.close()


async def test_a_secret_step_answered_in_place_is_told_back_quietly(
        service: TableService, notifier: RenderingNotifier) -> None:
    # The front end answered the click itself: the actor's own notes of that secret step
    # may be skipped (quiet); nobody else's, and not when the front end did not answer.
    table = await new_table(service, humans=2)
    for actor, in_place in ((HOST, True), (PLAYERS[1], False)):
        notifier.clear()
        prompt = await service.prompt(table, actor)
        await service.act(table, actor, prompt.options[0].json, version=prompt.version,
                          in_place=in_place)
        seat = PLAYERS.index(actor)
        told = [n for n in notifier.notes if n.template == "event_you_picked"]
        assert [n.seat for n in told] == [seat]
        assert bool(told[0].context.get("quiet")) is in_place
        assert not any(n.context.get("quiet") for n in notifier.notes if n.seat != seat)
