"""The command line answers a mistake in one line with the valid choices, keeps local
tables in the default database, and starts without importing discord.py."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("argv", "says"), [
    (["simulate", "chess"], "unknown game 'chess'; the games are: "),
    (["simulate", "ginkgopolis", "--players", "9"], "ginkgopolis is for 1 to 5 players, not 9"),
    (["simulate", "skybridge", "--players", "3", "--ai", "smart"],
     "unknown level 'smart' for skybridge; the levels are: easy, normal, hard"),
    (["local", "skybridge", "--ai", "smart"], "unknown bot level 'smart'; the levels are: "
     "easy, normal, hard"),
    (["simulate", "skybridge", "--players", "2", "--ai", "greedy,random,random"],
     "--ai lists 3 players but --players is 2"),
    (["simulate", "ginkgopolis", "--option", "colour=red"],
     "ginkgopolis has no option 'colour'; the options and their defaults: characters=draft"),
    (["simulate", "ginkgopolis", "--option", "characters=bogus"],
     "the options and their defaults: characters=draft"),
    (["simulate", "ginkgopolis", "--option", "characters"], "write KEY=VALUE"),
    (["local", "chess"], "unknown game 'chess'; the games are: "),
    (["local", "skybridge", "--players", "7"], "skybridge is for 2 to 4 players, not 7"),
    (["local", "skybridge", "--players", "2", "--bots", "3"], "--bots must be 0 to 2"),
    (["local", "ginkgopolis", "--option", "expert=yes"], "ginkgopolis has no option 'expert'"),
])
def test_a_bad_command_line_is_one_line_with_the_choices(
        argv: list[str], says: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main([*argv, *(["--db", str(tmp_path / "u.sqlite3")] if argv[0] == "local"
                          else [])]) == 2
    err = capsys.readouterr().err
    assert says in err
    if "unknown game" in says:
        assert all(g in err for g in ("ginkgopolis", "skybridge", "quadropolis", "neotopia"))
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "u.sqlite3").exists()  # refused before anything was created


def test_local_takes_options_and_keeps_the_table_in_the_default_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "default.sqlite3"
    monkeypatch.setenv("URBANIST_DB", str(db))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["local", "ginkgopolis", "--players", "1", "--option", "expert_hal=true",
                 "--option", "characters=intro", "--name", "Zoé", "--seed", "2"]) == 0
    assert "urbanist local --resume 1" in capsys.readouterr().out
    assert db.exists()
    assert main(["tables"]) == 0
    listed = capsys.readouterr().out
    assert "#1  ginkgopolis" in listed and "urbanist local --resume 1" in listed

    import asyncio

    from bot.store import SqliteStore

    async def options() -> dict[str, object]:
        store = await SqliteStore.open(db)
        try:
            (table,) = await store.find_tables()
            return dict(table.options)
        finally:
            await store.close()

    got = asyncio.run(options())
    assert got["expert_hal"] is True and got["characters"] == "intro"


def test_help_imports_neither_discord_nor_the_store() -> None:
    code = ("import sys, contextlib, io\n"
            "from bot.cli import main\n"
            "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['--help'])\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('discord', 'aiosqlite', 'jinja2', 'PIL') or m.startswith('bot.store')))\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_templates_and_fonts_are_package_data() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setup = config["tool"]["setuptools"]
    assert "templates*" in setup["packages"]["find"]["include"]
    assert {"*.txt", "*.ttf"} <= set(setup["package-data"]["*"])
    assert config["project"]["requires-python"] == ">=3.11"
    # What bot.text reads, relative to the bot package, as installed.
    from bot.text import TEMPLATES

    assert TEMPLATES.resolve() == (Path(__import__("bot").__file__).parent.parent
                                   / "templates").resolve() or "URBANIST_TEMPLATES" in os.environ


def test_a_reader_that_goes_away_gets_no_traceback(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "URBANIST_DB": str(tmp_path / "u.sqlite3")}
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "local", "ginkgopolis",
                             "--players", "1"], cwd=tmp_path, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.close()  # like `| head -0`: gone before the first line
    _, err = proc.communicate(b"quit\n", timeout=60)
    assert b"Traceback" not in err
    assert proc.returncode == 1
