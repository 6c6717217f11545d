"""The console's own commands: the images of the table as files, the rules and a log
that reads as the game read live, in English and in French."""

from __future__ import annotations

import io
import os
import re
import tempfile
import time
from pathlib import Path

import pytest

from bot.console import run_local


async def session(db: Path, game: str, script: str, *, locale: str = "en", players: int = 2,
                  bots: int = 1) -> str:
    out = io.StringIO()
    code = await run_local(game, players, bots, db=db, seed=3, locale=locale, level="easy",
                           stdin=io.StringIO(script), out=out, names=["Zoé"])
    assert code == 0, out.getvalue()
    return out.getvalue()


def fake_viewer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An ``xdg-open`` on PATH that notes what it was asked to open, and a display."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "opened.txt"
    script = bin_dir / "xdg-open"
    script.write_text(f'#!/bin/sh\necho "$1" >> "{record}"\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("DISPLAY", ":0")
    return record


def temp_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    return tmp_path / "tmp" / "urbanist"


async def test_image_writes_the_board_and_the_hand_and_opens_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = fake_viewer(tmp_path, monkeypatch)
    folder = temp_in(tmp_path, monkeypatch)
    text = await session(tmp_path / "u.sqlite3", "skybridge", "image\nimage --no-open\nquit\n")
    paths = re.findall(r"^  (/\S+\.png)$", text, re.M)
    assert len(paths) == 4 and paths[:2] == paths[2:], text
    assert paths[0] == str(folder / "board-1.png")
    assert re.fullmatch(re.escape(str(folder / "hand-1-seat")) + r"[12]\.png", paths[1])
    for path in paths:
        assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(set(paths)) == 2 and text.count("(opened with xdg-open)") == 1
    # Only the first ``image`` opened them (the viewer runs apart: wait for it).
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (
            not record.exists() or len(record.read_text().splitlines()) < 2):
        time.sleep(0.05)
    assert sorted(record.read_text().splitlines()) == sorted(set(paths))


async def test_without_a_desktop_the_paths_are_printed_in_french_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    temp_in(tmp_path, monkeypatch)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    text = await session(tmp_path / "u.sqlite3", "quadropolis", "image\nquit\n", locale="fr")
    assert len(re.findall(r"^  /\S+\.png$", text, re.M)) == 2, text
    assert "pas de visionneuse d'images ici" in text
    none = await session(tmp_path / "f.sqlite3", "fakepicks", "images\nquit\n", locale="fr")
    assert "Ce jeu ne dessine pas d'image" in none


@pytest.mark.parametrize(("locale", "word", "says"), [
    ("en", "rules", "Skybridge (2–4 players): build towers"),
    ("fr", "règles", "Skybridge (2 à 4 joueurs) : on construit"),
    ("fr", "rules", "Skybridge (2 à 4 joueurs) : on construit")])
async def test_rules_show_the_text_of_slash_rules(tmp_path: Path, locale: str, word: str,
                                                   says: str) -> None:
    text = await session(tmp_path / "u.sqlite3", "skybridge", f"{word}\nquit\n",
                         locale=locale)
    answer = text.split(f"> {word}\n", 1)[1]
    assert answer.startswith(says), answer
    assert "**" not in answer and "understand" not in answer and "compris" not in answer


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_the_log_reads_as_the_game_did_live(tmp_path: Path, locale: str) -> None:
    text = await session(tmp_path / "u.sqlite3", "skybridge", "#1\n#1\nlog\njournal\nquit\n",
                         locale=locale)
    live, logged = text.split("> log\n", 1)
    logged, again = logged.split("> journal\n", 1)
    lines = [line for line in logged.splitlines() if line.startswith("  ")]
    assert len(lines) >= 3, logged  # Zoé's two moves and the bot's
    for line in lines:
        assert line.strip() in live, line
        assert not re.match(r"  v\d+ ", line) and "[bot]" not in line
    assert again.startswith(logged)
