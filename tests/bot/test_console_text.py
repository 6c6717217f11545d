"""A local game reads right in the terminal, in English and in French: one line names the
bots, seats are named with their colours in words, and the console's own words (turn
headers, private marks, a number out of range) are the reader's language."""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path

import pytest

from bot.console import run_local

GAMES = ("ginkgopolis", "quadropolis", "neotopia", "skybridge")


async def session(tmp_path: Path, game: str, script: str, *, locale: str = "en",
                  players: int = 3, bots: int = 2) -> str:
    out = io.StringIO()
    code = await run_local(game, players, bots, db=tmp_path / f"{game}-{locale}.sqlite3",
                           seed=3, locale=locale, stdin=io.StringIO(script), out=out,
                           names=["Zoé"])
    text = out.getvalue()
    assert code == 0, text
    return text


@pytest.mark.parametrize("game", GAMES)
async def test_the_bots_are_named_in_one_line(game: str, tmp_path: Path) -> None:
    text = await session(tmp_path, game, "quit\n")
    assert "takes a seat" not in text
    assert text.count("2 bots take seats: Bot 1, Bot 2.") == 1
    (tmp_path / "one").mkdir()
    one = await session(tmp_path / "one", game, "quit\n", players=2, bots=1)
    assert one.count("Bot 1 (a bot) takes a seat.") == 1


async def test_seats_are_named_with_their_colours_in_words(tmp_path: Path) -> None:
    en = await session(tmp_path, "neotopia", "quit\n")
    seats = en[en.index("At this table:"):].splitlines()[1:4]
    assert all(re.fullmatch(r"  .+ \(seat \d, (red|green|purple|blue)\)( - a bot)?", s)
               for s in seats), seats
    fr = await session(tmp_path, "skybridge", "quit\n", locale="fr", players=2, bots=1)
    assert "Zoé (place 2, jaune et bleu)" in fr or "Zoé (place 1, rouge et vert)" in fr


@pytest.mark.parametrize("game", GAMES)
async def test_a_french_session_has_no_english_console_words(game: str, tmp_path: Path) -> None:
    text = await session(tmp_path, game, "#999\nlog\nquit\n", locale="fr")
    assert "choisissez de #1 à #" in text
    # The log reads as the table did live.
    assert re.search(r"^  Bot \d (\(\w+\) )?(a fait son choix|joue `)", text, re.M), text
    assert "(privé)" in text and "(private)" not in text
    for english in ("seat", "choose #", "changes their choice", "back to", "takes a seat",
                    " - bot", "Decision:", "[player]", "(classic"):
        assert english not in text, english
    header = next(line for line in text.splitlines() if line.startswith("=== "))
    # The decision in French words, not the engine's key.
    assert re.fullmatch(r"=== \S+ \(place \d[^)]*\) : [^=]*[éèàç'a-z ,:]+ ===", header), header
    assert header.split(" : ")[-1].strip(" =") not in ("draft", "pick", "take", "start",
                                                      "place", "turn")


@pytest.mark.parametrize("game", GAMES)
async def test_a_bare_option_number_is_answered_with_how_to_pick_it(
        game: str, tmp_path: Path) -> None:
    en = await session(tmp_path, game, "2\nquit\n")
    assert "To pick option 2 of the list, type `#2`." in en
    fr = await session(tmp_path, game, "2\nquit\n", locale="fr")
    assert "Pour choisir l'option 2 de la liste, tapez `#2`." in fr
    # A word that is no number gets the refusal alone.
    (tmp_path / "word").mkdir()
    other = await session(tmp_path / "word", game, "xyz\nquit\n")
    assert "I did not understand `xyz`" in other and "To pick option" not in other


@pytest.mark.parametrize("locale", ["en", "fr"])
async def test_the_board_is_printed_again_only_when_someone_else_moved(
        locale: str, tmp_path: Path) -> None:
    text = await session(tmp_path, "neotopia", "#1\n" * 8 + "quit\n", locale=locale,
                         players=2, bots=1)
    same = ("The table changed only by your own move" if locale == "en"
            else "La table n'a changé que par votre coup")
    decisions = text.split("\n=== ")[1:]
    assert len(decisions) >= 6
    board = "Manufactures"  # a line of the board, the same word in both languages
    for before, now in itertools.pairwise(decisions):
        others_moved = "Bot 1" in before.split("> #1", 1)[1]
        # A decision shows the board exactly when another seat moved since the last one.
        assert (board in now.split("> #1", 1)[0]) == others_moved, now
        assert (same in now) != others_moved, now
    assert any(same in d for d in decisions) and sum(board in d for d in decisions) >= 2


async def test_the_console_commands_answer_to_their_french_words(tmp_path: Path) -> None:
    """A French player types what the French help names: `aide`, `choix`, `vue`,
    `plateau`, `journal`, `quitter`; each does what its English word does."""
    fr = await session(tmp_path, "neotopia", "aide\nchoix\nvue\nplateau\njournal\nquitter\n",
                       locale="fr", players=2, bots=1)
    (tmp_path / "en").mkdir()
    en = await session(tmp_path / "en", "neotopia", "help\nlegal\nview\nboard\nlog\nquit\n",
                       locale="fr", players=2, bots=1)
    assert "Je n'ai pas compris" not in fr
    assert "Les mots anglais marchent aussi" in fr
    # The same session, word for word, once the typed commands are set aside.
    typed = re.compile(r"^\S+> .*$| --db \S+", re.M)  # the two databases are apart
    assert typed.sub("", fr) == typed.sub("", en)
    assert fr.count("Tapez une action sous sa forme texte") == 2  # at the start, and `aide`
    assert re.search(r"^  #1  \S+", fr, re.M)  # `choix` listed the options
