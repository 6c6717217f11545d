"""Every command the console prints works as printed: it names the database when it is
not the default one, and a resumed table says why the options typed do not apply."""

from __future__ import annotations

import io
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import run_local

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RUNNER = "import fakegame, sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"


def urbanist(*args: str, cwd: Path, script: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "URBANIST_DB"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(HERE)])
    return subprocess.run([sys.executable, "-c", RUNNER, *args], input=script, cwd=cwd,
                          capture_output=True, text=True, env=env, timeout=120, check=False)


async def play(db: Path, script: str, game: str | None = "fakepicks", **kw: object) -> str:
    out = io.StringIO()
    await run_local(game, 2, 1, db=db, seed=2, stdin=io.StringIO(script), out=out,
                    **kw)  # type: ignore[arg-type]
    return out.getvalue()


def hint(text: str, start: str) -> list[str]:
    """The command printed after ``start`` up to its closing backquote (or the end of the
    line), as a shell reads it."""
    line = text[text.rindex(start) + len(start):].splitlines()[0]
    return shlex.split(line.split("`")[0])


def test_the_resume_hint_names_the_database_and_works_as_printed(tmp_path: Path) -> None:
    where = tmp_path / "a dir"
    where.mkdir()
    db = where / "my games.sqlite3"
    first = urbanist("local", "fakepicks", "--players", "2", "--bots", "1", "--db", str(db),
                     "--seed", "2", cwd=tmp_path, script="#1\nquit\n")
    assert first.returncode == 0, first.stderr
    command = hint(first.stdout, "Resume it with: urbanist ")
    assert command == ["local", "--resume", "1", "--db", str(db)]
    again = urbanist(*command, cwd=tmp_path, script="quit\n")
    assert "Resuming table #1 (Fakepicks)" in again.stdout, again.stdout + again.stderr
    assert not (tmp_path / "urbanist.sqlite3").exists()  # the default file was never made
    # The other hints of a resumed table name it too.
    urbanist("local", "fakepicks", "--players", "2", "--db", str(db), "--new", cwd=tmp_path,
             script="quit\n")
    third = urbanist("local", "fakepicks", "--db", str(db), cwd=tmp_path, script="quit\n")
    assert hint(third.stdout, "table: `urbanist ")[:3] == ["tables", "--db", str(db)]
    assert hint(third.stdout, "instead: `urbanist ") == ["local", "fakepicks", "--new",
                                                        "--db", str(db)]
    listed = urbanist(*hint(third.stdout, "table: `urbanist ")[:3], cwd=tmp_path)
    assert "fakepicks" in listed.stdout


async def test_the_default_database_needs_no_flag(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "u.sqlite3"
    monkeypatch.setenv("URBANIST_DB", str(db))
    text = await play(db, "quit\n")
    assert text.rstrip().endswith("Resume it with: urbanist local --resume 1")
    missing = await play(db, "", game=None, resume=9)
    assert "`urbanist tables` lists them" in missing


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_every_hint_names_another_database(tmp_path: Path, locale: str) -> None:
    db = tmp_path / "u.sqlite3"
    flag = f" --db {db}"
    saved = await play(db, "quit\n", locale=locale)
    assert saved.rstrip().endswith(f"--resume 1{flag}")
    missing = await play(db, "", game=None, resume=9, locale=locale)
    assert f"`urbanist tables{flag}`" in missing
    (tmp_path / "empty").mkdir()
    nothing = await play(tmp_path / "empty" / "e.sqlite3", "", game=None, locale=locale)
    assert f"--bots 2 --db {tmp_path / 'empty' / 'e.sqlite3'}`)" in nothing


async def test_a_resumed_table_says_the_options_typed_do_not_apply(tmp_path: Path) -> None:
    db = tmp_path / "u.sqlite3"
    out = io.StringIO()
    await run_local("fakepicks", 4, 3, db=db, seed=2, stdin=io.StringIO("quit\n"), out=out)
    text = await play(db, "quit\n", names=["Zoé"], options={"rounds": 2})
    assert "Resuming table #1 (Fakepicks)" in text
    assert ("Table #1 keeps its own 4 seats (3 bots) and options: `--players 2 --bots 1 "
            "--name 'Zoé' --option rounds=2 --seed 2` only shape a new table.") in text, text
    command = hint(text, "To start one with them: `urbanist ")
    assert command == ["local", "fakepicks", "--players", "2", "--bots", "1", "--name", "Zoé",
                       "--option", "rounds=2", "--seed", "2", "--new", "--db", str(db)]
    # Nothing typed beyond the game: nothing to say.
    out = io.StringIO()
    await run_local("fakepicks", db=db, stdin=io.StringIO("quit\n"), out=out)
    assert "keeps its own" not in out.getvalue()
    fr = await play(db, "quit\n", locale="fr", game=None, resume=1)
    assert "La table n° 1 garde ses 4 places (dont 3 bots) et ses options" in fr


@pytest.mark.parametrize(("locale", "says"), [
    ("en", "All 3 seats are bots: they play the game out here"),
    ("fr", "Les 3 places sont des bots : ils jouent la partie")])
async def test_an_all_bot_table_says_it_is_one(tmp_path: Path, locale: str, says: str) -> None:
    out = io.StringIO()
    code = await run_local("fakepicks", 3, 3, db=tmp_path / "u.sqlite3", seed=1, locale=locale,
                           stdin=io.StringIO(""), out=out)
    assert code == 0
    assert says in out.getvalue()
    assert "`urbanist simulate fakepicks --players 3`" in out.getvalue()
