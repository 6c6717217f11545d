"""The real games, played to the end in the console by a human typing menu numbers."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.console import run_local
from bot.store import SqliteStore


@pytest.mark.parametrize(("game", "players", "bots"), [("skybridge", 2, 1), ("ginkgopolis", 3, 2)])
async def test_a_human_plays_a_whole_game_in_the_console(
    game: str, players: int, bots: int, tmp_path: Path
) -> None:
    out = io.StringIO()
    db = tmp_path / "local.sqlite3"
    code = await run_local(
        game, players, bots, db=db, seed=5, stdin=io.StringIO("#1\n" * 600), out=out
    )
    text = out.getvalue()
    assert code == 0, text[-2000:]
    assert "Game over" in text
    store = await SqliteStore.open(db)
    try:
        (table,) = await store.find_tables()
        assert table.status == "finished"
        actions = await store.load_actions(table.id)
        assert {a.source for a in actions} == {"player", "bot"}
    finally:
        await store.close()
