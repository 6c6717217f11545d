"""The Discord front end's pure parts, and ``urbanist run``: menus within Discord's limits,
message splitting, custom ids, images from the games' renderers, the CLI's help, and the
production start-up (the bot opening its own database and scheduling its jobs)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main
from bot.clock import FakeClock
from bot.discord import BotConfig, UrbanistBot, ids
from bot.discord.limits import MESSAGE_CHARS, split_message, truncate
from bot.discord.menus import MAX_BUTTONS, group_key, plan, plan_group
from bot.discord.timelapse import MAX_FRAMES, round_views, timelapse
from bot.images import render_png
from bot.service import Actor, FileSpec, MemoryNotifier, TableService, TableSettings, job_id
from bot.store import SqliteStore
from engine.core import Rng, get_game

GINKGO_PICKS = ["L:res", "L:tile", *[f"L+{t}" for t in ("B4", "R11", "R19", "R9", "Y11")],
                "H:res", "H:tile", *[f"H+{t}" for t in ("B4", "R11", "R19", "R9", "Y11")],
                "J:res", "J:tile", *[f"J+{t}" for t in ("B4", "R11", "R19", "R9", "Y11")],
                "B16", *[f"B16+{t}" for t in ("B4", "R11", "R19", "R9", "Y11")], "newhand"]


def test_few_options_are_buttons_many_a_select_more_a_card_then_a_tile() -> None:
    drafts = ["draft 7", "draft 11", "draft 21", "draft 22"]
    assert plan(drafts, table=3, version=9).buttons == tuple(drafts)
    moves = [f"{h}@{f}" for h in (3, 2) for f in range(1, 10)]  # 18 Skybridge moves
    assert plan(moves, table=3, version=9).selects == (tuple(moves),)
    assert len(GINKGO_PICKS) > 25
    grouped = plan(GINKGO_PICKS, table=3, version=9)
    assert [g.key for g in grouped.groups[0]] == ["L", "H", "J", "B16", "newhand"]
    assert sum(len(g.texts) for g in grouped.groups[0]) == len(GINKGO_PICKS)
    inside = plan_group(GINKGO_PICKS, "B16", table=3, version=9)
    assert inside.buttons == ("B16", "B16+B4", "B16+R11", "B16+R19", "B16+R9", "B16+Y11")
    assert group_key("A@2,-3") == "A" and group_key("draft 7") == "draft"


def test_menus_never_exceed_discord_limits() -> None:
    # Groups that gain nothing: selects of 25, five rows at most; beyond, type it.
    flat = [f"x{i}" for i in range(120)]
    p = plan(flat, table=1, version=1)
    assert len(p.selects) == 5 and all(len(s) <= 25 for s in p.selects)
    assert plan([f"x{i}" for i in range(126)], table=1, version=1).typed_only
    big = [f"{c}{i}+t{j}" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" for i in range(3) for j in range(3)]
    grouped = plan(big, table=1, version=1)
    assert sum(len(g) for g in grouped.groups) == 78 and all(len(g) <= 25 for g in grouped.groups)
    inside = plan_group(big, "A0", table=1, version=1)
    assert len(inside.buttons) == 3 <= MAX_BUTTONS
    long_text = "y" * 90  # a button's custom id would pass 100 characters
    assert plan([long_text, "b"], table=123456, version=99).selects
    assert plan(["z" * 101], table=1, version=1).typed_only


def test_custom_ids_round_trip_and_unknown_ones_are_told_apart() -> None:
    cid = ids.action(12, 34, "L:res")
    match = re.fullmatch(ids.ACTION, cid)
    assert match is not None and match["text"] == "L:res" and match["version"] == "34"
    for made in (ids.action_select(1, 2, 0), ids.group_select(1, 2, 4), ids.back(1, 2),
                 ids.hand(5), ids.lobby("start", 5)):
        assert ids.is_known(made) and len(made) <= 100
    assert ids.is_ours("urb:zz:1") and not ids.is_known("urb:zz:1")
    assert not ids.is_known("urb:a:x:1:R7")
    assert ids.status_marker(5).fullmatch(ids.hand(5))
    assert not ids.status_marker(5).fullmatch(ids.hand(55))


def test_long_texts_are_split_between_lines() -> None:
    lines = [f"{i:4d}  district {i} scores a few points" for i in range(200)]
    parts = split_message("\n".join(lines))
    assert len(parts) > 1 and all(len(p) <= MESSAGE_CHARS for p in parts)
    assert "\n".join(parts).split("\n") == lines
    assert split_message("x" * 4500) == ["x" * 2000, "x" * 2000, "x" * 500]
    assert truncate("abcdef", 4) == "abc…" and truncate("abc", 4) == "abc"


def _played(game: str, seats: int, moves: int) -> object:
    engine = get_game(game)
    state = engine.setup(seats, engine.default_options(), 5)
    rng = Rng.from_seed(2)
    for _ in range(moves):
        if engine.outcome(state) is not None:
            break
        seat = sorted(engine.pending(state).waiting)[0]
        engine.apply(state, seat, engine.ai("greedy").choose(state, seat, rng))
    return state


@pytest.mark.parametrize("game,seats", [("ginkgopolis", 3), ("skybridge", 2)])
def test_images_come_from_the_games_renderers(game: str, seats: int) -> None:
    engine = get_game(game)
    state = _played(game, seats, 10)
    names = [f"P{i}" for i in range(seats)]
    public = render_png(game, FileSpec("board"), engine.view(state, None), names=names)
    private = render_png(game, FileSpec("board", 0), engine.view(state, 0), names=names)
    for data in (public, private):
        assert data is not None and data.startswith(b"\x89PNG")
        assert Image.open(io.BytesIO(data)).width >= 500
    finished = _played(game, seats, 10_000)
    outcome = engine.outcome(finished)
    assert outcome is not None
    scores = render_png(game, FileSpec("scores"), engine.view(finished, None), names=names,
                        outcome=outcome.to_json())
    assert scores is not None and scores.startswith(b"\x89PNG")
    # Same view, same bytes: the renderers are pure.
    assert render_png(game, FileSpec("board"), engine.view(state, None), names=names) == public


def test_a_game_without_a_renderer_gives_no_image() -> None:
    assert render_png("nosuchgame", FileSpec("board"), {}) is None


def test_run_without_a_token_explains_how_to_get_one(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    for needed in ("DISCORD_TOKEN", "discord.com/developers/applications", "`bot`",
                   "`applications.commands`", "urbanist local ginkgopolis --players 3 --bots 2",
                   "URBANIST_DB"):
        assert needed in err
    assert main(["run", "--locale", "fr"]) == 2
    assert "Pour en obtenir un" in capsys.readouterr().err


async def test_start_up_opens_the_database_and_plans_the_jobs(tmp_path: Path) -> None:
    """What ``urbanist run`` does before connecting: open the SQLite file, rebuild every
    deadline from it (APScheduler holds those due within the hour: here the reminders,
    the deadline stays planned for the sweep to bring in), register the persistent
    components."""
    db = tmp_path / "urbanist.sqlite3"
    clock = FakeClock()
    store = await SqliteStore.open(db)
    try:
        service = TableService(store, MemoryNotifier(), clock=clock)
        host, guest = Actor("1", "Ann"), Actor("2", "Ben")
        info = await service.create(host, "skybridge", settings=TableSettings(
            seat_order="join", deadline_seconds=2 * 3600, reminders=(3600, 1800)))
        await service.join(info.id, guest)
        info = await service.start(info.id, host)
    finally:
        await store.close()

    bot = UrbanistBot(BotConfig(db_path=db, clock=clock, sync_commands=False))
    await bot.setup_hook()
    try:
        assert bot.scheduler is not None and bot.scheduler.running
        jobs = {job.id for job in bot.scheduler.get_jobs()}
        assert job_id(info.id, info.version, "reminder") in jobs
        assert job_id(info.id, info.version, "deadline") not in jobs
        assert bot.service is not None
        planned = bot.service.deadlines.planned[info.id]
        assert planned["deadline"].id == job_id(info.id, info.version, "deadline")
        assert bot.boot_report is not None and bot.boot_report.running_tables == 1
    finally:
        await bot.shutdown()
    assert bot.store is None


async def test_the_timelapse_replays_one_frame_per_round(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "urbanist.sqlite3")
    try:
        service = TableService(store, MemoryNotifier(), clock=FakeClock())
        host = Actor("1", "Ann")
        info = await service.create(host, "ginkgopolis", seed=4,
                                    settings=TableSettings(seat_order="join"))
        await service.add_bot(info.id, host)
        await service.add_bot(info.id, host)
        await service.start(info.id, host)
        while (current := await service.info(info.id)).status == "running":
            seat = next(iter(current.waiting))
            await service.play_for(info.id, host, seat)
        record = await store.load_table(info.id)
        assert record is not None
        actions = await store.load_actions(info.id)
        views = round_views(get_game("ginkgopolis"), record, 3, actions)
        rounds = [v["round"] for v in views]
        assert rounds[0] == 1 and rounds == sorted(rounds) and len(views) <= MAX_FRAMES
        assert len(set(rounds)) >= rounds[-1] - 1 >= 5
        assert all("me" not in v for v in views)  # public views only
        movie = await timelapse(service, info.id)
        assert movie is not None and movie.data.startswith(b"GIF8")
    finally:
        await store.close()
