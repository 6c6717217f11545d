"""Typed input reaching the bot: an action over the length limit is refused in a short
message in both locales, a long unreadable text is never echoed whole (a Discord message
holds 2,000 characters), and the console's ``#N`` takes ASCII digits only."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.console import run_local
from bot.service import Refused
from bot.store import SqliteStore
from bot.text import Renderer
from engine.core import MAX_TYPED, ParseError, get_game

OPTIONS = [{"text": "3@1", "json": {}}]


def _too_long(text: str) -> ParseError:
    game = get_game("skybridge")
    with pytest.raises(ParseError) as info:
        game.parse_action(game.setup(2, {}, 1), 0, text)
    return info.value


@pytest.mark.parametrize(("locale", "words"), [("en", "at most"), ("fr", "au plus")])
def test_the_refusal_names_the_limit_in_the_reader_s_language(locale: str, words: str) -> None:
    text = "red" + " " * 2000 + "!"
    error = _too_long(text)
    refused = Refused("parse", error.message, typed=text, options=OPTIONS, legal=["3@1"],
                      reason=error.code, **{k: v for k, v in error.params.items()
                                            if k != "legal"})
    shown = Renderer().refusal(refused, locale=locale)
    assert f"{words} {MAX_TYPED}" in shown and str(len(text)) in shown
    assert len(shown) < 400


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_without_the_reason_the_typed_text_is_cut_short(locale: str) -> None:
    text = "x" * 1500
    refused = Refused("parse", "Unreadable.", typed=text, options=OPTIONS, legal=["3@1"])
    shown = Renderer().refusal(refused, locale=locale)
    assert "x" * 79 + "…" in shown and "x" * 80 not in shown


@pytest.mark.parametrize("typed", ["#²", "#①", "#٣", "#1²", "#" + "9" * 5000, "#-1"])
async def test_the_console_refuses_odd_numbers_and_goes_on(typed: str, tmp_path: Path) -> None:
    # str.isdigit() is true for "²" and "①", which int() then rejects; 5,000 digits pass
    # isdigit() too and overflow int()'s limit: none of them may end the session.
    out = io.StringIO()
    db = tmp_path / "local.sqlite3"
    code = await run_local("skybridge", 2, 0, db=db, seed=4,
                           stdin=io.StringIO(f"{typed}\n#1\nquit\n"), out=out)
    text = out.getvalue()
    assert code == 0, text
    # Refused with a reason: not understood, out of range, or too long to read.
    assert any(why in text for why in ("I did not understand", "choose #1 to #",
                                       f"an action is at most {MAX_TYPED}"))
    store = await SqliteStore.open(db)
    try:
        (table,) = await store.find_tables()
        # Only the #1 that followed was played.
        assert [a.source for a in await store.load_actions(table.id)] == ["player"]
    finally:
        await store.close()
