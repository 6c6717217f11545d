"""Export -> replay round trips for every game; secrets withheld until the game is over;
a tampered export refused; the command line (export, replay, ratings --rebuild)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import HOST, PLAYERS

from bot.cli import main
from bot.clock import FakeClock
from bot.history.export import ExportError, export_table, replay
from bot.service import MemoryNotifier, TableService, TableSettings
from bot.store import SqliteStore
from bot.store.records import ActionRecord, SeatRecord, TableRecord, canonical
from engine.core import Rng, get_game

GAMES = ("ginkgopolis", "skybridge", "quadropolis", "neotopia")


def played(name: str, seats: int, seed: int, stop: int | None = None
           ) -> tuple[TableRecord, list[SeatRecord], list[ActionRecord]]:
    """A table of ``name`` played by random AIs (to the end, or ``stop`` actions), as the
    store would hold it."""
    game = get_game(name)
    state = game.setup(seats, {}, seed)
    ais = [game.ai("random") for _ in range(seats)]
    rng = Rng.from_seed(seed)
    actions: list[ActionRecord] = []
    version = 1
    while game.outcome(state) is None and (stop is None or len(actions) < stop):
        pending = game.pending(state)
        seat = min(pending.waiting)
        action = ais[seat].choose(state, seat, rng)
        game.apply(state, seat, action)
        version += 1
        actions.append(ActionRecord(7, version, seat, dict(action.to_json()), "player",
                                    float(version), f"u{seat}",
                                    None if pending.simultaneous else action.text()))
    outcome = game.outcome(state)
    table = TableRecord(game=name, options={}, seed=seed, host_id="u0", max_seats=seats,
                        status="finished" if outcome else "running", version=version,
                        snapshot=canonical(game.state_to_json(state)),
                        outcome=outcome.to_json() if outcome else None, guild_id="g1", id=7)
    seat_rows = [SeatRecord(s, f"P{s}", f"u{s}") for s in range(seats)]
    return table, seat_rows, actions


@pytest.mark.parametrize("name", GAMES)
def test_an_exported_game_replays_to_its_final_state(name: str) -> None:
    table, seats, actions = played(name, 2, seed=11)
    document = json.loads(json.dumps(export_table(table, seats, actions)))
    result = replay(document, get_game)
    assert result.game == name and result.actions == len(actions)
    assert canonical(result.outcome) == canonical(table.outcome)

    broken = copy.deepcopy(document)
    broken["outcome"]["standings"][0]["total"] += 1
    with pytest.raises(ExportError, match="outcome differs"):
        replay(broken, get_game)
    shortened = copy.deepcopy(document)
    shortened["actions"].pop()
    with pytest.raises(ExportError):
        replay(shortened, get_game)


def test_a_running_table_exports_no_seed_no_secret_choice_and_cannot_replay() -> None:
    # The fake game's picks are simultaneous (secret) choices.
    table, seats, actions = played("fakepicks", 3, seed=5, stop=4)
    assert any(a.public_text is None for a in actions)
    document = export_table(table, seats, actions)
    text = json.dumps(document)
    assert document["table"]["seed"] is None and document["final_state_sha256"] is None
    assert document["outcome"] is None
    for entry, action in zip(document["actions"], actions, strict=True):
        assert ("action" in entry) == (action.public_text is not None)
    assert str(table.snapshot) not in text
    with pytest.raises(ExportError, match="not over"):
        replay(document, get_game)
    # Over, the same table tells all.
    finished, seats, actions = played("fakepicks", 3, seed=5)
    document = export_table(finished, seats, actions)
    assert document["table"]["seed"] == 5
    assert all("action" in e for e in document["actions"])


def test_not_an_export() -> None:
    for document in ({}, [], {"format": "urbanist-table", "format_version": 99}):
        with pytest.raises(ExportError):
            replay(document, get_game)


async def _finished_table_in(db: Path) -> int:
    store = await SqliteStore.open(db)
    try:
        service = TableService(store, MemoryNotifier(), clock=FakeClock())
        info = await service.create(HOST, "fakepicks", options={"rounds": 2}, seed=3,
                                    settings=TableSettings(seat_order="join"),
                                    channel_id="c1", guild_id="g1")
        await service.join(info.id, PLAYERS[1])
        await service.start(info.id, HOST)
        while (t := await service.info(info.id)).status == "running":
            actor = PLAYERS[min(t.waiting)]
            prompt = await service.prompt(info.id, actor)
            await service.act(info.id, actor, prompt.options[0].json, version=prompt.version)
        return info.id
    finally:
        await store.close()


async def test_the_command_line_exports_replays_and_rebuilds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "u.sqlite3"
    table = await _finished_table_in(db)
    out = tmp_path / "t.json"
    assert await _cli(["export", str(table), "--db", str(db), "-o", str(out)]) == 0
    document: dict[str, Any] = json.loads(out.read_text("utf-8"))
    assert document["table"]["game"] == "fakepicks" and document["table"]["seed"] == 3
    assert await _cli(["replay", str(out)]) == 0
    said = capsys.readouterr().out
    assert "actions replayed; final state and outcome match" in said
    document["actions"][-1]["action"] = document["actions"][0]["action"]
    out.write_text(json.dumps(document), "utf-8")
    assert await _cli(["replay", str(out)]) == 1
    assert "urbanist replay: " in capsys.readouterr().err  # one line saying why, no traceback
    assert await _cli(["ratings", "--rebuild", "--db", str(db)]) == 0
    assert "from 1 finished table.\n" in capsys.readouterr().out
    assert await _cli(["export", "99", "--db", str(db)]) == 1


async def _cli(argv: list[str]) -> int:
    # The commands run their own event loop: keep them off this test's.
    import asyncio
    return await asyncio.to_thread(main, argv)


def test_a_solitaire_game_rates_the_player_against_the_automaton_and_replays() -> None:
    from bot.history.ratings import game_of, settle

    table, seats, actions = played("ginkgopolis", 1, seed=12)
    assert table.outcome is not None
    game = game_of(table, seats, finished_at=1.0)
    assert game is not None
    hal = next(c for c in game.competitors if c.slot < 0)
    assert (hal.player, hal.is_bot) == ("bot:hal", True)
    done = settle(game, {0: {"player": len(actions)}}, {})
    assert {r.player for r in done.ratings} == {"u0", "bot:hal"}
    assert next(r for r in done.ratings if r.player == "bot:hal").is_bot
    assert replay(export_table(table, seats, actions), get_game).actions == len(actions)
