"""The console front end and the command line, driven through piped input."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import build_parser, main
from bot.console import run_local
from bot.store import SqliteStore

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


async def test_local_game_to_the_end(tmp_path: Path) -> None:
    script = "help\nlegal\nblah\np999\nview\nboard\nlog\n" + "#1\n" * 40
    out = io.StringIO()
    db = tmp_path / "local.sqlite3"
    code = await run_local("fakepicks", 3, 1, db=db, seed=4, stdin=io.StringIO(script),
                           out=out)
    text = out.getvalue()
    assert code == 0, text
    assert "Game over" in text and "Commands:" in text
    assert "I did not understand `blah`" in text and "`p999` is not possible now" in text
    assert "  #1  p" in text  # the legal list
    assert "(private) Table #1 (Fakepicks): your turn, Player" in text
    store = await SqliteStore.open(db)
    try:
        (table,) = await store.find_tables()
        assert table.status == "finished"
        sources = {a.source for a in await store.load_actions(table.id)}
        assert sources == {"player", "bot"}
    finally:
        await store.close()


async def test_hot_seat_shows_each_hand_only_on_its_turn(tmp_path: Path) -> None:
    out = io.StringIO()
    await run_local("fakepicks", 2, 0, seed=4, stdin=io.StringIO("#1\nquit\n"), out=out)
    text = out.getvalue()
    first, second = text.split("\n=== ")[1:3]
    hand_line = [ln for ln in first.splitlines() if ln.startswith("hand:")]
    assert len(hand_line) == 1 and hand_line[0] not in second


async def test_quit_and_end_of_input(tmp_path: Path) -> None:
    for script in ("quit\n", ""):
        out = io.StringIO()
        assert await run_local("fakepicks", 2, 1, stdin=io.StringIO(script), out=out) == 0
        assert "Game over" not in out.getvalue()
    out = io.StringIO()
    assert await run_local("fakepicks", 2, 3, stdin=io.StringIO(""), out=out) == 2


async def test_a_table_of_bots_plays_itself_out() -> None:
    out = io.StringIO()
    assert await run_local("fakepicks", 3, 3, seed=1, stdin=io.StringIO(""), out=out) == 0
    assert "Game over" in out.getvalue() and "===" not in out.getvalue()


def test_cli_subcommands_are_registered() -> None:
    parser = build_parser()
    args = parser.parse_args(["local", "fakepicks", "--players", "3", "--bots", "2"])
    assert (args.game, args.players, args.bots) == ("fakepicks", 3, 2)
    assert parser.parse_args(["backup", "x.sqlite3"]).path == Path("x.sqlite3")
    with pytest.raises(SystemExit):
        parser.parse_args(["nope"])


def test_cli_local_backup_and_check_end_to_end(tmp_path: Path) -> None:
    """Through the real entry point, in a subprocess: play, back up, check the copy."""
    db = tmp_path / "play.sqlite3"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])}
    runner = ("import fakegame, sys; from bot.cli import main; "
              "sys.exit(main(sys.argv[1:]))")
    played = subprocess.run(
        [sys.executable, "-c", runner, "local", "fakepicks", "--players", "2", "--bots", "1",
         "--db", str(db), "--seed", "2"],
        input="#1\n" * 20, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert played.returncode == 0, played.stderr
    assert "Game over" in played.stdout
    copy = tmp_path / "copy.sqlite3"
    backup = subprocess.run([sys.executable, "-c", runner, "backup", str(copy), "--db", str(db)],
                            capture_output=True, text=True, env=env, timeout=120, check=False)
    assert backup.returncode == 0, backup.stderr
    checked = subprocess.run([sys.executable, "-c", runner, "check", "--db", str(copy)],
                             capture_output=True, text=True, env=env, timeout=120, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "replayed 1 tables" in checked.stdout and checked.stdout.strip().endswith("ok")


def test_check_reports_a_tampered_snapshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio
    import sqlite3

    db = tmp_path / "t.sqlite3"
    asyncio.run(run_local("fakepicks", 2, 1, db=db, seed=2, stdin=io.StringIO("#1\n" * 20),
                          out=io.StringIO()))
    conn = sqlite3.connect(db)
    conn.execute("UPDATE tables SET snapshot = replace(snapshot, '\"round\":3', '\"round\":2')")
    conn.commit()
    conn.close()
    assert main(["check", "--db", str(db)]) == 1
    assert "replayed state differs from snapshot" in capsys.readouterr().out
