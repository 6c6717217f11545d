"""What the history and housekeeping commands answer (issue 24): ``ratings`` lists the
ratings, ``tables --all`` the finished tables with their winner, ``simulate`` says how
far it is, ``replay`` refuses a bad file in one line, ``backup`` keeps an existing file;
in both languages, with plurals that agree."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

import bot.simulate
from bot.cli import main
from bot.simulate import simulate_text


def play_to_the_end(db: Path, seed: int, ai: str = "normal") -> None:
    """A local table of bots only, played through (so finished and rated)."""
    assert main(["local", "skybridge", "--players", "2", "--bots", "2", "--ai", ai,
                 "--seed", str(seed), "--new", "--db", str(db)]) == 0


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three normal bots' games and one of easy bots: greedy is ranked, random apart."""
    db = tmp_path_factory.mktemp("played") / "u.sqlite3"
    for seed in (1, 2, 3):
        play_to_the_end(db, seed)
    play_to_the_end(db, 4, "easy")
    return db


def out_of(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err, captured.err
    return captured.out


# -- item 6: ratings -------------------------------------------------------------------

def test_ratings_lists_each_game_with_the_games_played(
        played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["ratings", "--db", str(played)]) == 0
    lines = out_of(capsys).splitlines()
    assert lines[0] == "Skybridge, tables played in the terminal:"
    assert lines[1].startswith("1. greedy (bot): ") and lines[1].endswith(", 3 games")
    assert lines[2] == "Not ranked yet (fewer than 3 games): random (bot) (1 game)."
    assert main(["ratings", "--rebuild", "--db", str(played), "--locale", "fr"]) == 0
    lines = out_of(capsys).splitlines()
    assert lines[0] == "Classements recalculés à partir de 4 tables finies."
    assert lines[2:4] == ["Skybridge, tables jouées dans le terminal :",
                          lines[3]] and lines[3].endswith(", 3 parties")
    assert lines[4] == "Pas encore classés (moins de 3 parties) : random (bot) (1 partie)."


def test_ratings_of_one_table_say_it_in_the_singular(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "u.sqlite3"
    play_to_the_end(db, 1)
    capsys.readouterr()
    assert main(["ratings", "--rebuild", "--db", str(db)]) == 0
    said = out_of(capsys)
    assert said.startswith("Ratings rebuilt from 1 finished table.\n")
    assert "greedy (bot) (1 game)" in said
    assert main(["ratings", "--game", "neotopia", "--db", str(db)]) == 0
    assert out_of(capsys).startswith("No rating yet")


# -- item 7: tables --all --------------------------------------------------------------

def test_tables_lists_the_finished_ones_with_their_winner_and_how_to_export_them(
        played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["tables", "--db", str(played)]) == 0
    said = out_of(capsys)
    assert said.startswith("No unfinished local table.\n")
    assert f"And 4 finished tables: `urbanist tables --all --db {played}` lists them" in said
    assert main(["tables", "--all", "--db", str(played)]) == 0
    lines = out_of(capsys).splitlines()
    assert lines[2] == "Finished:"
    assert [line.split()[0] for line in lines[3:]] == ["#4", "#3", "#2", "#1"]
    assert all(" won by Bot " in line and " points), " in line for line in lines[3:])
    # The hint works as printed.
    command = shlex.split(lines[-1].split("   ")[-1])
    assert command == ["urbanist", "export", "1", "--db", str(played)]
    assert main([*command[1:], "-o", str(tmp_path / "t.json")]) == 0
    assert json.loads((tmp_path / "t.json").read_text("utf-8"))["table"]["id"] == 1
    assert main(["tables", "--all", "--db", str(played), "--locale", "fr"]) == 0
    assert "Finies :\n#4  skybridge    gagnée par Bot " in out_of(capsys)


# -- item 13: simulate's progress ------------------------------------------------------

@pytest.mark.parametrize(("locale", "says"), [("en", "played so far..."),
                                              ("fr", "jusqu'ici...")])
def test_simulate_tells_its_progress_on_stderr_and_keeps_stdout(
        locale: str, says: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # Every move is "a few seconds later": no test waits on the clock.
    monkeypatch.setattr(bot.simulate, "PROGRESS_SECONDS", 0.0)
    assert main(["simulate", "quadropolis", "--players", "2", "--seed", "1",
                 "--locale", locale]) == 0
    captured = capsys.readouterr()
    assert captured.out == simulate_text("quadropolis", 2, 1, "normal", {}, locale)
    lines = captured.err.splitlines()
    assert lines and all(says in line for line in lines)
    first = "Quadropolis: round 1 of 4, 1 move played" if locale == "en" else \
        "Quadropolis : manche 1 sur 4, 1 coup joué"
    assert lines[0].startswith(first)


# -- item 14: replay's refusals --------------------------------------------------------

def _export(played: Path, tmp_path: Path) -> dict[str, object]:
    out = tmp_path / "t.json"
    assert main(["export", "1", "--db", str(played), "-o", str(out)]) == 0
    document: dict[str, object] = json.loads(out.read_text("utf-8"))
    return document


@pytest.mark.parametrize(("content", "code", "says"), [
    (None, 2, "there is no file {file}"),
    ('{"a":', 2, "{file} is not a table export: it is not JSON (line 1, column 6)"),
    ('"str"', 2, "{file} is JSON, but not a table export"),
    ("table=text", 2, "{file} is damaged: a field is missing or malformed"),
    ("action=text", 2, "{file} is damaged: a field is missing or malformed"),
    ("total+1", 1, "{file} does not replay: the replayed scores differ from the exported"),
])
def test_replay_refuses_a_bad_file_in_one_line(
        content: str | None, code: int, says: str, played: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "bad.json"
    if content is not None and content[0] in '{"':
        file.write_text(content, "utf-8")
    elif content is not None:
        document = _export(played, tmp_path)
        if content == "table=text":
            document["table"] = "text"
        elif content == "action=text":
            document["actions"][3] = "text"  # type: ignore[index]
        else:
            document["outcome"]["standings"][0]["total"] += 1  # type: ignore[index]
        file.write_text(json.dumps(document), "utf-8")
    capsys.readouterr()
    assert main(["replay", str(file)]) == code
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("urbanist replay: " + says.format(file=file))
    assert len(captured.err.splitlines()) == 1 and "Error" not in captured.err


def test_replay_says_it_in_french_and_agrees_in_number(
        played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path), "--locale", "fr"]) == 2
    assert capsys.readouterr().err == (f"urbanist replay: {tmp_path} est un dossier : "
                                       "donnez le fichier écrit par `urbanist export`\n")
    _export(played, tmp_path)
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "t.json"), "--locale", "fr"]) == 0
    assert " actions rejouées ; l'état final et le résultat concordent (" in out_of(capsys)


# -- item 16: backup keeps an existing file --------------------------------------------

@pytest.mark.parametrize(("locale", "says"), [
    ("en", "{path} exists already: give another path, or add --force to overwrite it"),
    ("fr", "{path} existe déjà : donnez un autre chemin, ou ajoutez --force pour le "
     "remplacer"),
])
def test_backup_refuses_to_overwrite_a_file_unless_forced(
        locale: str, says: str, played: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("my notes", "utf-8")
    capsys.readouterr()
    assert main(["backup", str(target), "--db", str(played), "--locale", locale]) == 2
    assert capsys.readouterr().err == f"urbanist backup: {says.format(path=target)}\n"
    assert target.read_text("utf-8") == "my notes"
    assert main(["backup", str(target), "--db", str(played), "--force"]) == 0
    assert capsys.readouterr().out == f"backed up {played} to {target}\n"
    assert target.read_bytes().startswith(b"SQLite format 3\0")
