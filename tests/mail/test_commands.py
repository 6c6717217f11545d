"""Command lines in English and French; moves and other text are not commands."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.mail.commands import MailCommand, fold, parse_command


def read(line: str) -> tuple[str, int | None, dict[str, str], tuple[str, ...]]:
    command = parse_command(line)
    assert command is not None, line
    return command.verb, command.table_id, dict(command.args), command.words


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("help", ("help", None, {}, ())),
        ("Aide", ("help", None, {}, ())),
        ("HELP!", ("help", None, {}, ())),
        ("?", ("help", None, {}, ())),
        (
            "new quadropolis players=3 bots=1 level=hard deadline=48h locale=fr",
            (
                "new",
                None,
                {"players": "3", "bots": "1", "level": "hard", "deadline": "48h", "locale": "fr"},
                ("quadropolis",),
            ),
        ),
        ("nouvelle neotopia joueurs = 4", ("new", None, {"joueurs": "4"}, ("neotopia",))),
        ("Nouveau skybridge", ("new", None, {}, ("skybridge",))),
        ("join 12", ("join", 12, {}, ())),
        ("join #12", ("join", 12, {}, ())),
        ("rejoindre #7, merci", ("join", 7, {}, ("merci",))),
        ("join table=5", ("join", 5, {}, ())),
        ("start 12", ("start", 12, {}, ())),
        ("démarrer 3", ("start", 3, {}, ())),
        ("demarrer 3", ("start", 3, {}, ())),
        ("DÉMARRER 3.", ("start", 3, {}, ())),
        ("commencer 3", ("start", 3, {}, ())),
        ("tables", ("tables", None, {}, ())),
        ("rules neotopia", ("rules", None, {}, ("neotopia",))),
        ("règles ginkgopolis", ("rules", None, {}, ("ginkgopolis",))),
        ("regles ginkgopolis", ("rules", None, {}, ("ginkgopolis",))),
        ("leave 12", ("leave", 12, {}, ())),
        ("quitter #12", ("leave", 12, {}, ())),
        ("stats", ("stats", None, {}, ())),
        ("statistiques", ("stats", None, {}, ())),
        ("follow 12", ("follow", 12, {}, ())),
        ("suivre 12", ("follow", 12, {}, ())),
        ("unfollow 12", ("unfollow", 12, {}, ())),
        ("nepassuivre 12", ("unfollow", 12, {}, ())),
        ("ne plus suivre 12", ("unfollow", 12, {}, ())),
        ("timezone Europe/Paris", ("timezone", None, {}, ("Europe/Paris",))),
        ("fuseau America/New_York", ("timezone", None, {}, ("America/New_York",))),
        ("fuseau horaire Europe/Paris", ("timezone", None, {}, ("Europe/Paris",))),
        ("/join 4", ("join", 4, {}, ())),
        ("stop", ("stop", None, {}, ())),
        ("désabonner 12", ("stop", 12, {}, ())),
        ("  join   12   extra  ", ("join", 12, {}, ("extra",))),
        ("join 12 13", ("join", 12, {}, ("13",))),
    ],
)
def test_command_lines(line: str, expected: tuple[object, ...]) -> None:
    assert read(line) == expected


@pytest.mark.parametrize(
    "line",
    ["R7+B12", "#3", "A2@B3", "take 3", "1", "", "   ", "hello there", "12 join", "suivrez 3"],
)
def test_moves_and_other_text_are_not_commands(line: str) -> None:
    assert parse_command(line) is None


def test_the_words_keep_their_case_and_the_args_their_value() -> None:
    command = parse_command("new Neotopia Name=Le_Club")
    assert command == MailCommand("new", None, {"name": "Le_Club"}, ("Neotopia",))


def test_fold_lowercases_and_strips_accents() -> None:
    assert fold("Règles") == "regles"
    assert fold("DÉMARRER") == "demarrer"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_any_line_gives_a_command_or_none(line: str) -> None:
    command = parse_command(line)
    if command is not None:
        assert command.verb in {
            "help",
            "new",
            "join",
            "start",
            "tables",
            "rules",
            "leave",
            "stats",
            "follow",
            "unfollow",
            "timezone",
            "stop",
        }
        assert command.table_id is None or command.table_id >= 0
