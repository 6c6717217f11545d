"""Messages made at send time (issue 25): the outbox stores what identifies a message's
view and moves, not their bytes, and the delivery worker makes them from the state at the
message's version, whether the table moved on meanwhile (bots reply at once) or the
process restarted (the log is replayed)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import HOST, PLAYERS

from bot.clock import FakeClock
from bot.service import MemoryNotifier, Notification, TableService, TableSettings
from bot.service.fill import Filler, RecentStates
from bot.service.notifications import Delivery, FileSpec, Retry
from bot.store import SqliteStore, Store
from engine.core import Rng, get_game


@dataclass
class Switch(MemoryNotifier):
    """A transport that is down (every message retried) until switched on."""

    up: bool = True
    inline: bool = False
    offered: list[Notification] = field(default_factory=list)

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        self.offered.extend(notes)
        if not self.up:
            return {n.outbox_id: Retry(1.0, "down") for n in notes}
        return await super().deliver(notes)


async def table_with_bots(service: TableService, game: str) -> int:
    info = await service.create(HOST, game, settings=TableSettings(seat_order="join"), seed=3)
    await service.join(info.id, PLAYERS[1])
    await service.add_bot(info.id, HOST)
    await service.start(info.id, HOST)
    await service.settle(info.id)
    return info.id


async def play(service: TableService, table: int, moves: int) -> None:
    rng = Rng.from_seed(5)
    for _ in range(moves):
        info = await service.info(table)
        humans = [s for s in sorted(info.waiting) if s < 2]
        if info.status != "running" or not humans:
            break
        actor = PLAYERS[humans[0]]
        prompt = await service.prompt(table, actor)
        option = prompt.options[rng.randbelow(len(prompt.options))]
        await service.act(table, actor, option.json, version=prompt.version)
        await service.settle(table)
        await service.delivery.idle()


async def states_by_version(store: Store, table: int) -> dict[int, Any]:
    """Every version's state, replayed from the seed: what each message must show."""
    record = await store.load_table(table)
    assert record is not None
    game = get_game(record.game)
    seats = await store.load_seats(table)
    state = game.setup(len(seats), record.options, record.seed)
    states = {1: game.state_from_json(game.state_to_json(state))}
    for action in await store.load_actions(table):
        game.apply(state, action.seat, game.action_from_json(action.action))
        states[action.version] = game.state_from_json(game.state_to_json(state))
    return states


def expected_parts(game_name: str, state: Any, note: Notification) -> dict[str, Any]:
    game = get_game(game_name)
    parts: dict[str, Any] = {"view": game.view(state, note.seat)}
    if "options" in note.context:
        assert note.seat is not None
        parts["options"] = [
            {"text": a.text(), "json": dict(a.to_json()), "note": _note(game, state, note.seat, a)}
            for a in game.legal_actions(state, note.seat)]
    return parts


def _note(game: Any, state: Any, seat: int, action: Any) -> str | None:
    hook = getattr(game, "action_note", None)
    return None if hook is None else hook(state, seat, action)


def assert_made_from_their_version(notes: Sequence[Notification],
                                   states: Mapping[int, Any]) -> int:
    checked = 0
    for note in notes:
        assert not note.fill, note.template  # a transport never gets a part left to make
        if "view" not in note.context:
            continue
        assert note.context["names"] == ["Alice", "Bob", "Bot 1"]
        expected = expected_parts(note.game, states[note.version], note)
        made = {k: note.context[k] for k in expected}
        # Options go through JSON in the row; compare in the same form.
        assert json.loads(json.dumps(made)) == json.loads(json.dumps(expected)), (
            note.template, note.version)
        checked += 1
    return checked


@pytest.mark.parametrize("game", ["ginkgopolis", "quadropolis"])
async def test_a_message_shows_its_own_version_though_bots_moved_the_table_on(
        db_path: Path, clock: FakeClock, game: str) -> None:
    store = await SqliteStore.open(db_path)
    notifier = Switch()
    service = TableService(store, notifier, clock=clock)
    try:
        table = await table_with_bots(service, game)
        await play(service, table, 12)
        states = await states_by_version(store, table)
        made = [n for n in notifier.notes if "view" in n.context]
        # Some message was sent while the table was already further on: the case at stake.
        final = max(states)
        assert any(n.version < final for n in made)
        assert assert_made_from_their_version(notifier.notes, states) == len(made) > 5
    finally:
        await service.close()
        await store.close()


async def test_after_a_restart_the_owed_messages_are_made_from_the_replayed_log(
        db_path: Path, clock: FakeClock) -> None:
    store = await SqliteStore.open(db_path)
    down = Switch(up=False)
    service = TableService(store, down, clock=clock)
    try:
        table = await table_with_bots(service, "ginkgopolis")
        await play(service, table, 8)
        assert down.offered and not down.notes
        owed = await store.load_outbox(table, ["pending"])
        # The rows hold no view, no moves and no table facts: those are made when sent.
        assert owed and all("names" not in r.payload["context"] for r in owed)
        made_later = [r for r in owed if r.payload.get("fill")]
        assert made_later and all(not {"view", "options"} & set(r.payload["context"])
                                  for r in made_later)
    finally:
        await service.close()
        await store.close()

    store = await SqliteStore.open(db_path)
    up = Switch()
    service = TableService(store, up, clock=clock)  # nothing in memory: a new process
    try:
        clock.advance(3600)
        await service.delivery.sweep()
        await service.delivery.idle()
        states = await states_by_version(store, table)
        # The first decisions of the game were owed since: only a replay can make them.
        assert any(n.version < max(states) for n in up.notes if "view" in n.context)
        assert assert_made_from_their_version(up.notes, states) > 5
    finally:
        await service.close()
        await store.close()


def test_recent_states_stay_within_their_bounds() -> None:
    recent = RecentStates(tables=2, versions=3)
    for version in range(1, 6):
        recent.remember(1, version, f"s{version}")
    assert [recent.get(1, v) for v in range(1, 6)] == [None, None, "s3", "s4", "s5"]
    recent.remember(2, 1, "t1")
    recent.remember(3, 1, "u1")  # a third table pushes out the least recent
    assert recent.get(1, 5) is None and recent.get(2, 1) == "t1" and recent.get(3, 1) == "u1"


def test_recent_states_go_once_their_messages_are_made() -> None:
    recent = RecentStates()
    for version in (3, 4, 5):
        recent.remember(1, version, f"s{version}")
    recent.made(1, 4)
    assert (recent.get(1, 3), recent.get(1, 4), recent.get(1, 5)) == (None, None, "s5")
    assert len(recent) == 1
    recent.made(1, 5)
    assert len(recent) == 0


class CountedViews:
    """A game whose views are counted (the Filler's only use of it here)."""

    def __init__(self) -> None:
        self.views = 0

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        self.views += 1
        return {"seat": seat, "state": state}


async def test_only_news_a_transport_may_hold_is_kept_past_its_batch() -> None:
    """A round's news (``defer``), held and offered again, is made once; any other
    message's parts are made per batch and not kept (kept views pile up young objects
    that the collector then walks all at once)."""
    game = CountedViews()

    async def load(table_id: int, version: int) -> tuple[Any, Any]:
        return game, f"state {version}"

    async def facts(table_id: int) -> dict[str, Any]:
        return {}

    filler = Filler(RecentStates(), lambda name: game, load, facts)  # type: ignore[arg-type]
    news = note_with({}, fill=("view",), defer=True)
    prompt = note_with({}, fill=("view",), template="your_turn", seat=2)
    made = await filler([news, prompt, prompt])  # the same parts twice: made once
    assert game.views == 2
    assert made[0].context["view"] == {"seat": 1, "state": "state 9"}
    assert made[2].context["view"] == {"seat": 2, "state": "state 9"}
    await filler([news])
    assert game.views == 2  # offered again: kept
    await filler([prompt])
    assert game.views == 3  # not kept past its batch


def note_with(context: dict[str, Any], **fields: Any) -> Notification:
    base: dict[str, Any] = {"table_id": 4, "seat": 1, "template": "event_drew", "game": "g",
                            "locale": "fr", "version": 9}
    base.update(fields)
    return Notification(context=context, **base)


@pytest.mark.parametrize("context", [
    # An event: its data spread beside ``data``, the row's own keys.
    {"table_id": 4, "game": "g", "seat": 1, "version": 9, "card": "C", "data": {"card": "C"},
     "event": "drew", "to_seat": 1},
    # An event whose own seat is not the recipient's.
    {"table_id": 4, "game": "g", "seat": 2, "version": 9, "data": {"seat": 2, "n": 1}, "n": 1,
     "event": "drew", "to_seat": 1},
    # Data that is not spread, a tuple (JSON gives it back as a list): stored whole.
    {"table_id": 4, "game": "g", "seat": 1, "version": 9, "data": {"a": 1}, "pair": (1, 2)},
    # A key the row disagrees with is kept.
    {"table_id": 4, "game": "other", "seat": 1, "version": 9, "event": "other"},
])
def test_the_lean_stored_form_reads_back_the_same_context(context: dict[str, Any]) -> None:
    note = note_with(context)
    stored = json.loads(json.dumps(note.to_json()))
    back = Notification.from_json(stored)
    assert back.context == json.loads(json.dumps(context))
    assert (back.table_id, back.seat, back.game, back.locale, back.version) == (4, 1, "g", "fr", 9)


def test_the_lean_form_leaves_out_what_the_row_says() -> None:
    context = {"table_id": 4, "game": "g", "seat": 1, "version": 9, "card": "C",
               "data": {"card": "C"}, "event": "drew", "to_seat": 1}
    stored = note_with(context, files=(FileSpec("board", 1),), fallback="event").to_json()
    assert stored["context"] == {"data": {"card": "C"}}  # an event's data is spread
    assert "fallback" not in stored  # an event's fallback is ``event`` by default
    assert stored["files"] == [["board", 1]] and "slot" not in stored and "defer" not in stored


@pytest.mark.parametrize(("template", "fallback"), [
    ("event_drew", "event"), ("event_drew", None), ("event_drew", "other"),
    ("acted", None), ("acted", "event")])
def test_the_stored_form_reads_back_the_same_fallback(template: str,
                                                      fallback: str | None) -> None:
    context = {"table_id": 4, "game": "g", "seat": 1, "version": 9, "n": 2,
               "data": {"n": 2}, **({"event": "drew", "to_seat": 1}
                                    if template.startswith("event_") else {})}
    note = note_with(context, template=template, fallback=fallback)
    back = Notification.from_json(json.loads(json.dumps(note.to_json())))
    assert (back.fallback, back.context) == (fallback, context)
