"""A round reads short on Discord (issue 24, item 19): the channel's news post has one
line per player's move (plus headers), and a decision's DM leads with what to do, under
a bound, without the option list its menu holds. Measured on whole 4-player tables of
every game, in both languages, with the Discord transport's text path as played by
``benchmarks/discord_text.py`` (the measure and this test read the same texts)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bot.discord.news import header
from bot.discord.notifier import news_of

ROOT = Path(__file__).resolve().parents[2]
# Measured after the change: the longest DM was 274 characters (en) and 330 (fr),
# against 1,024 and 1,061 before; the bound leaves room for a longer name or event.
DM_CHARS = 400


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("discord_text", ROOT / "benchmarks" /
                                                  "discord_text.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("discord_text", module)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


@pytest.fixture(scope="module", params=[(g, loc) for g in BENCH.GAMES for loc in ("en", "fr")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def reader(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> object:
    import asyncio

    game, locale = request.param
    db = tmp_path_factory.mktemp("text") / "urbanist.sqlite3"
    return asyncio.run(BENCH.play(game, 3, locale, db))


def test_the_news_has_one_line_per_move(reader: object) -> None:
    posts: list[str] = reader.posts  # type: ignore[attr-defined]
    notes = reader.post_notes  # type: ignore[attr-defined]
    assert len(posts) >= 5
    version = 0
    for text, public in zip(posts, notes, strict=True):
        news = news_of(public)
        # Every accepted action raises the table's version: the moves since the last post.
        now = max(n.version for n in public)
        moves, version = now - version, now
        headers = sum(1 for n in news if header(n))
        other = sum(1 for n in news if not n.template.startswith(("event_", "acted")))
        # A turn the game passes for a player (Skybridge) is a move without an action.
        passed = sum(1 for n in news if n.template.endswith("_skipped"))
        lines = [line for line in text.splitlines() if line.strip()]
        assert len(lines) <= moves + passed + headers + other, text


def test_a_decision_dm_is_short_and_lists_no_option(reader: object) -> None:
    dms: list[str] = reader.dms  # type: ignore[attr-defined]
    assert dms
    for text, notes in zip(dms, reader.dm_notes, strict=True):  # type: ignore[attr-defined]
        assert len(text) <= DM_CHARS, text
        options = [o["text"] for n in notes for o in n.context.get("options") or []]
        assert options
        # The menu holds them: the text names none (codes are written in backticks).
        assert not any(f"`{o}`" in text for o in options), text
        assert "/hand" in text or "/main" in text
