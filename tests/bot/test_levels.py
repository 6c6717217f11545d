"""Bot levels (issue 12, item 6): easy, normal and hard over the AI kinds random, greedy
and search; the table keeps its level (stored), bots keep their kind, the log names the
level, an unknown level is refused politely in the table's language."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from conftest import HOST, RENDERERS, RenderingNotifier, new_table

from bot.cli import main
from bot.clock import FakeClock
from bot.service import Notification, Refused, TableService, TableSettings
from bot.service.levels import LEVEL_VARIABLE, check_level, default_level, kind_for
from bot.store import SqliteStore
from bot.store.migrations import MIGRATIONS_DIR
from engine.core import get_game

DAY = 24 * 3600


def fr(note: Notification) -> str:
    return RENDERERS["fr"].render_template(note.template, note.context, locale="fr",
                                           game=note.game, fallback=note.fallback)


def test_the_product_default_level_is_hard(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(LEVEL_VARIABLE, raising=False)
    assert default_level() == "hard"
    monkeypatch.setenv(LEVEL_VARIABLE, "nonsense")  # ignored, not a crash
    assert default_level() == "hard"
    monkeypatch.setenv(LEVEL_VARIABLE, "easy")
    assert default_level() == "easy"


async def test_a_new_table_and_its_bots_are_hard_by_default(
        service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(LEVEL_VARIABLE, raising=False)
    info = await service.create(HOST, "ginkgopolis")
    assert info.ai_level == "hard" and info.settings.ai_level == "hard"
    info = await service.add_bot(info.id, HOST)
    assert info.seats[1].is_bot and info.seats[1].level == "hard"
    live = await service._load(info.id)
    assert live.seats[1].ai_kind == "search"
    assert service._timeout_ai(live) == "search"


async def test_a_game_may_name_another_default_and_the_process_overrides_it(
        service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(LEVEL_VARIABLE, raising=False)
    skybridge = type(get_game("skybridge"))
    monkeypatch.setattr(skybridge, "default_ai", "greedy", raising=False)
    info = await service.create(HOST, "skybridge")
    assert info.ai_level == "normal"
    info = await service.add_bot(info.id, HOST)
    assert (await service._load(info.id)).seats[1].ai_kind == "greedy"
    assert (await service.create(HOST, "ginkgopolis")).ai_level == "hard"  # the others
    asked = await service.create(HOST, "skybridge", settings=TableSettings(ai_level="hard"))
    assert asked.ai_level == "hard"  # a host's choice is the table's
    monkeypatch.setenv(LEVEL_VARIABLE, "easy")
    assert default_level(skybridge()) == "easy"


async def test_the_tests_play_normal_bots(service: TableService) -> None:
    # tests/bot/conftest.py: whole games with bots stay fast.
    info = await service.create(HOST, "ginkgopolis")
    assert info.ai_level == "normal"
    info = await service.add_bot(info.id, HOST)
    assert (await service._load(info.id)).seats[1].ai_kind == "greedy"


def test_levels_name_the_ai_kinds_and_a_game_without_search_plays_hard_greedily() -> None:
    assert [check_level(w) for w in ("easy", "Normal", " hard", "random", "greedy",
                                     "search")] == ["easy", "normal", "hard", "easy",
                                                    "normal", "hard"]
    assert [kind_for(get_game("skybridge"), lv) for lv in ("easy", "normal", "hard")] == [
        "random", "greedy", "search"]
    assert kind_for(get_game("fakepicks"), "hard") == "greedy"  # it has no search
    assert kind_for(get_game("fakepicks"), "easy") == "random"


@pytest.mark.parametrize(("locale", "says"), [
    ("en", "There is no bot level `expert`. The levels are: easy"),
    ("fr", "Il n'y a pas de niveau de bot `expert`. Les niveaux sont : facile"),
])
async def test_an_unknown_level_is_refused_with_the_levels_in_the_tables_language(
        service: TableService, locale: str, says: str) -> None:
    with pytest.raises(Refused) as refused:
        await service.create(HOST, "fakepicks", settings=TableSettings(ai_level="expert"))
    assert refused.value.code == "level"
    assert refused.value.context["levels"] == ["easy", "normal", "hard"]
    text = RENDERERS[locale].refusal(refused.value, locale=locale)
    assert text.startswith(says) and ("hard" in text if locale == "en" else "difficile" in text)
    table = await new_table(service, humans=1, start=False)
    with pytest.raises(Refused) as refused:
        await service.add_bot(table, HOST, level="expert")
    assert refused.value.code == "level"
    with pytest.raises(Refused) as refused:
        await service.configure(table, HOST, settings=TableSettings(ai_level="expert"))
    assert refused.value.code == "level"
    assert (await service.info(table)).ai_level == "normal"


async def test_each_bot_keeps_its_level_and_the_lobby_says_it(
        service: TableService, notifier: RenderingNotifier) -> None:
    table = await new_table(service, humans=1, start=False)
    await service.add_bot(table, HOST, level="easy")
    await service.add_bot(table, HOST, ai_kind="greedy")
    info = await service.info(table)
    assert [s.level for s in info.seats] == [None, "easy", "normal"]
    assert [s.ai_kind for s in (await service._load(table)).seats] == [None, "random", "greedy"]
    added = [n for n in notifier.notes if n.template == "bot_added"]
    assert [n.context["level"] for n in added] == ["easy", "normal"]
    lobby = [n for n in notifier.notes if n.template == "lobby"][-1]
    assert "- Bot 1 (bot, easy)\n- Bot 2 (bot, normal)" in notifier.texts[-1]
    assert "- Bot 1 (bot, facile)\n- Bot 2 (bot, normal)" in fr(lobby)


async def test_the_host_changes_the_level_in_the_lobby_and_it_is_stored(
        service: TableService, notifier: RenderingNotifier, store: SqliteStore,
        clock: FakeClock) -> None:
    table = await new_table(service, humans=1, start=False)
    info = await service.info(table)
    await service.configure(table, HOST, settings=TableSettings.stored(
        deadline_seconds=info.deadline_seconds, reminders=info.reminders,
        timeout_policy=info.timeout_policy, locale=info.locale, seat_order=info.seat_order,
        ai_level="easy"))
    configured = [n for n in notifier.notes if n.template == "configured"][-1]
    assert configured.context["changes"] == [{"field": "ai_level", "old": "normal",
                                              "new": "easy"}]
    assert "- bot level: easy (was normal)" in RENDERERS["en"].render(configured)
    assert "- niveau des bots : facile (au lieu de normal)" in fr(configured)
    # Settings without a level keep the table's.
    await service.configure(table, HOST, settings=TableSettings(seat_order="join"))
    fresh = TableService(store, RenderingNotifier(), clock=clock)
    assert (await fresh.info(table)).ai_level == "easy"
    info = await fresh.add_bot(table, HOST)  # a new bot gets the table's level
    assert info.seats[-1].level == "easy"


async def test_the_log_names_the_level_that_played(
        service: TableService, notifier: RenderingNotifier, clock: FakeClock) -> None:
    table = await new_table(service, humans=2, settings=TableSettings(
        seat_order="join", ai_level="easy"))
    await service.act_text(table, HOST, (await service.prompt(table, HOST)).options[0].text)
    clock.advance(DAY)
    await service.on_deadline(table, (await service.info(table)).version)
    late = next(n for n in notifier.notes if n.template == "timeout_played")
    assert late.context["level"] == "easy"
    assert "the AI (easy) played" in RENDERERS["en"].render(late)
    assert "l'IA (facile) a joué" in fr(late)
    acted = next(n for n in notifier.notes if n.template == "acted"
                 and n.context["source"] == "timeout")
    assert "the AI (easy) played for them" in RENDERERS["en"].render(acted)
    # The host has the AI play: the level is named too.
    info = await service.info(table)
    seat = min(info.waiting)
    await service.play_for(table, HOST, seat)
    admin = [n for n in notifier.notes if n.template == "acted"
             and n.context["source"] == "admin"][-1]
    assert "The host had the AI (easy) play for" in RENDERERS["en"].render(admin)
    # /table log names the level too.
    entries = await service.log(table)
    assert [(e.source, e.level) for e in entries][:3] == [
        ("player", None), ("timeout", "easy"), ("admin", "easy")]
    lines = [{"version": e.version, "name": e.name, "source": e.source, "text": e.text,
              "at": e.at, "level": e.level} for e in entries]
    context = {"table_id": table, "entries": lines, "total": len(lines)}
    en = RENDERERS["en"].render_template("discord/log", context, locale="en")
    assert "time ran out, the AI played (easy)" in en
    french = RENDERERS["fr"].render_template("discord/log", context, locale="fr")
    assert "temps écoulé, l'IA a joué (facile)" in french


async def test_a_bots_public_move_names_its_level(service: TableService,
                                                   notifier: RenderingNotifier) -> None:
    table = await new_table(service, humans=1, bots=1)
    await service.act_text(table, HOST, (await service.prompt(table, HOST)).options[0].text)
    # The human played their lowest card, the greedy bot its highest: the bot won the
    # round, and its bonus is a public move.
    public = [n for n in notifier.notes if n.template == "acted"
              and n.context["source"] == "bot" and n.context["text"]]
    assert public and public[0].context["level"] == "normal"
    assert f"Bot 1 (normal) plays `{public[0].context['text']}`" in RENDERERS["en"].render(
        public[0])
    assert "Bot 1 (normal) joue" in fr(public[0])
    assert {e.level for e in await service.log(table) if e.source == "bot"} == {"normal"}


async def test_a_database_from_before_levels_keeps_its_tables_normal(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    for name in sorted(p.name for p in MIGRATIONS_DIR.glob("000[1-5]_*.sql")):
        conn.executescript((MIGRATIONS_DIR / name).read_text("utf-8"))
    conn.execute("PRAGMA user_version = 5")
    conn.execute(
        "INSERT INTO tables (game, options, seed, status, version, channel_id, locale, "
        "host_id, deadline_seconds, reminders, timeout_policy, seat_order, max_seats, "
        "created_at, updated_at) VALUES ('fakepicks', '{}', 5, 'lobby', 0, 'c', 'en', "
        "'u0', 3600, '[]', 'ai', 'join', 4, 1.0, 2.0)")
    conn.close()

    store = await SqliteStore.open(path)
    try:
        record = await store.load_table(1)
        assert record is not None and record.ai_level == "normal"
    finally:
        await store.close()


def test_simulate_takes_levels_and_shows_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "skybridge", "--players", "2", "--ai", "easy,greedy"]) == 0
    out = capsys.readouterr().out
    assert "Seat 1 (easy)" in out or "Seat 2 (easy)" in out
    assert "(normal)" in out and "(greedy)" not in out


async def test_every_game_s_bots_search_by_default(
        service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    # benchmarks/README.md, "Search AI strength": in every game the search wins at least
    # twice a greedy seat's share, so no game names another default with ``default_ai``.
    monkeypatch.delenv(LEVEL_VARIABLE, raising=False)
    for name in ("ginkgopolis", "skybridge", "quadropolis", "neotopia"):
        assert default_level(get_game(name)) == "hard"
    assert (await service.create(HOST, "neotopia")).ai_level == "hard"
