"""A local game is never lost: it lives in the database, is resumed, and every way out
(quit, end of input, Ctrl-C) says how to come back."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import run_local
from bot.console.tables import local_tables
from bot.store import SqliteStore


class Interrupted(io.StringIO):
    """Input that is typed up to a point, then Ctrl-C."""

    def __init__(self, lines: str) -> None:
        super().__init__(lines)

    def readline(self, size: int | None = -1) -> str:
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


async def tables_in(db: Path) -> list[tuple[int, str, str]]:
    store = await SqliteStore.open(db)
    try:
        return [(t.id, t.game, t.status) for t in await local_tables(store, unfinished=False)]
    finally:
        await store.close()


async def play(db: Path, script: str, game: str | None = "ginkgopolis", **kw: object) -> str:
    out = io.StringIO()
    stdin = kw.pop("stdin", None) or io.StringIO(script)
    code = await run_local(game, 2, 1, db=db, seed=3, stdin=stdin, out=out,  # type: ignore[arg-type]
                           **kw)  # type: ignore[arg-type]
    return f"{code}\n{out.getvalue()}"


async def test_quit_keeps_the_table_and_the_next_run_resumes_it(tmp_path: Path) -> None:
    db = tmp_path / "u.sqlite3"
    first = await play(db, "#1\nquit\n", names=["Zoé"])
    assert first.startswith("0\n")
    assert "urbanist local --resume 1" in first
    assert await tables_in(db) == [(1, "ginkgopolis", "running")]
    again = await play(db, "quit\n")
    assert "Resuming table #1 (Ginkgopolis)" in again
    assert "Zoé (seat " in again  # the same seats, with their names
    assert await tables_in(db) == [(1, "ginkgopolis", "running")]  # no second table
    # The decision owed is said again on resuming: the options are in view.
    assert "Options (" in again.split("Resuming", 1)[1]


async def test_end_of_input_and_ctrl_c_save_and_say_how_to_resume(tmp_path: Path) -> None:
    db = tmp_path / "u.sqlite3"
    eof = await play(db, "#1\n")
    assert eof.startswith("0\n") and "urbanist local --resume 1" in eof
    interrupted = await play(db, "", stdin=Interrupted("#1\n"))
    assert interrupted.startswith("130\n")
    assert "Traceback" not in interrupted
    assert "Resuming table #1" in interrupted
    assert interrupted.rstrip().endswith(f"Resume it with: urbanist local --resume 1 --db {db}")
    assert await tables_in(db) == [(1, "ginkgopolis", "running")]


async def test_new_starts_another_and_resume_picks_one(tmp_path: Path) -> None:
    db = tmp_path / "u.sqlite3"
    await play(db, "quit\n")
    second = await play(db, "quit\n", new=True)
    assert "Resuming" not in second
    assert [t[0] for t in await tables_in(db)] == [2, 1]  # the latest played first
    picked = await play(db, "quit\n", game=None, resume=1)
    assert "Resuming table #1" in picked
    missing = await play(db, "", game=None, resume=9)
    assert missing.startswith("2\n") and "no unfinished local table #9" in missing
    # The latest one is resumed when no game is named, and the others are mentioned.
    latest = await play(db, "quit\n", game=None)
    assert "Resuming table #" in latest and "1 other unfinished table" in latest


async def test_nothing_to_resume_says_how_to_start(tmp_path: Path) -> None:
    out = await play(tmp_path / "u.sqlite3", "", game=None)
    assert out.startswith("2\n") and "urbanist local GAME" in out


async def test_odd_digits_are_a_polite_refusal_not_a_crash(tmp_path: Path) -> None:
    out = await play(tmp_path / "u.sqlite3", "#²\n#①\n#99999999999\nquit\n")
    assert out.startswith("0\n")
    assert "I did not understand `#²`" in out and "I did not understand `#①`" in out


async def test_a_lone_players_secrets_print_in_order_with_the_table_news(
        tmp_path: Path) -> None:
    out = await play(tmp_path / "u.sqlite3", "draft 99\n#1\nquit\n")
    after = out.split("Player 1> #1", 1)[1]
    kept = after.index("You keep character")
    news = after.index("waiting for")  # the table's status after the move
    assert kept < news
    # Nobody is told they may change a choice that resolved at once.
    assert "may change" not in after


async def test_a_refusal_says_why_once_in_english_and_in_french(tmp_path: Path) -> None:
    en = await play(tmp_path / "en.sqlite3", "draft 99\nquit\n")
    assert "`draft 99` is not possible now: Character 99 is not among the cards you hold" in en
    assert en.count("not possible now") == 1
    out = io.StringIO()
    await run_local("ginkgopolis", 2, 1, db=tmp_path / "fr.sqlite3", seed=3, locale="fr",
                    stdin=io.StringIO("draft 99\nfoo\nquit\n"), out=out)
    fr = out.getvalue()
    assert "`draft 99` n'est pas possible maintenant : le personnage 99 n'est pas parmi" in fr
    assert "Je n'ai pas compris `foo` : les cartes s'écrivent R7" in fr
    assert "could not" not in fr and "Possible now" not in fr  # no English left


async def test_hot_seat_players_may_change_a_simultaneous_choice(tmp_path: Path) -> None:
    out = io.StringIO()
    script = "#1\nchange\nchange 1\n#2\nquit\n"
    await run_local("ginkgopolis", 3, 1, db=tmp_path / "u.sqlite3", seed=3,
                    stdin=io.StringIO(script), out=out, names=["Ann", "Bo"])
    text = out.getvalue()
    # Seats are shuffled: whoever played first may change while the other chooses.
    first = text.split("\n=== ", 1)[1].split(" (seat 1", 1)[0]
    other = "Bo" if first == "Ann" else "Ann"
    assert f"Who changes their choice? change 1  ({first})" in text
    assert f"=== {first} changes their choice ===" in text
    assert text.index(f"{first} changes") < text.rindex(f"back to {other}")
    assert "table #1: 1/3 seats" not in text  # no lobby chatter


async def test_a_resumed_table_speaks_its_own_language_unless_told_otherwise(
        tmp_path: Path) -> None:
    db = tmp_path / "u.sqlite3"
    first = await play(db, "quit\n", names=["Zoé"], locale="fr")
    assert "Pour la reprendre : urbanist local --resume 1" in first
    again = await play(db, "quit\n", game=None)
    assert "Reprise de la table n° 1 (Ginkgopolis)" in again
    assert "Resuming" not in again and "Options (" not in again
    english = await play(db, "quit\n", game=None, locale="en")
    assert "Resuming table #1 (Ginkgopolis)" in english
