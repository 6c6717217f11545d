"""A read-only database is said before a move is typed: the file, that it is read-only,
exit 3 (as the README promises), never the bot's "tell the admin" refusal."""

from __future__ import annotations

import asyncio
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import run_local

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RUNNER = "import fakegame, sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"


def as_a_user(argv: list[str]) -> list[str]:
    """``argv`` run so that file modes bind: root writes a read-only file all the same,
    unless it gives up the capabilities that let it."""
    if os.geteuid() != 0:
        return argv
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("root without setpriv ignores a file's read-only mode")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner", *argv]


@pytest.mark.parametrize(("locale", "says"), [
    ("en", "is read-only: urbanist local saves every move in it"),
    ("fr", "est en lecture seule : urbanist local y enregistre chaque coup")])
def test_a_read_only_database_is_named_before_any_move(tmp_path: Path, locale: str,
                                                       says: str) -> None:
    db = tmp_path / "games.sqlite3"
    asyncio.run(run_local("fakepicks", 2, 1, db=db, seed=2, locale=locale,
                          stdin=io.StringIO("quit\n"), out=io.StringIO()))
    for path in tmp_path.iterdir():
        path.chmod(0o444)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])}
    try:
        for args in (["local", "--db", str(db)],  # resume the table
                     ["local", "fakepicks", "--new", "--locale", locale, "--db", str(db)]):
            done = subprocess.run(as_a_user([sys.executable, "-c", RUNNER, *args]),
                                  input="#1\nquit\n", capture_output=True, text=True,
                                  env=env, timeout=120, check=False)
            assert done.returncode == 3, done.stdout + done.stderr
            assert done.stderr.strip() == f"urbanist: {db} {says}" + (
                ". Make it writable (the file and its directory), or play in another file "
                "with --db PATH." if locale == "en" else ". Rendez-le modifiable (le fichier "
                "et son dossier), ou jouez dans un autre fichier avec --db CHEMIN."), \
                done.stderr
            assert "> " not in done.stdout and "admin" not in done.stdout + done.stderr
    finally:
        for path in tmp_path.iterdir():
            path.chmod(0o644)
