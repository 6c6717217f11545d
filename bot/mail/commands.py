"""The command words a player may mail the bot, in English and French.

A command is one line (the subject or the first line of the fresh text):
``new quadropolis players=3 bots=1 level=hard``, ``rejoindre #12``, ``fuseau Europe/Paris``.
Words are matched without case and without accents; a table id is ``12`` or ``#12``.
Anything that does not start with a known word is not a command (None): at a seat's
reply address the front end reads it as a move instead.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

# Each spelling a player may type, written without accents (input is folded the same way).
# Multi-word spellings are matched before their one-word prefixes.
_VERBS: dict[tuple[str, ...], str] = {
    ("help",): "help",
    ("aide",): "help",
    ("?",): "help",
    ("commands",): "help",
    ("commandes",): "help",
    ("new",): "new",
    ("create",): "new",
    ("nouvelle",): "new",
    ("nouveau",): "new",
    ("creer",): "new",
    ("join",): "join",
    ("rejoindre",): "join",
    ("start",): "start",
    ("commencer",): "start",
    ("demarrer",): "start",
    ("lancer",): "start",
    ("tables",): "tables",
    ("list",): "tables",
    ("liste",): "tables",
    ("rules",): "rules",
    ("regles",): "rules",
    ("leave",): "leave",
    ("quitter",): "leave",
    ("stats",): "stats",
    ("statistics",): "stats",
    ("statistiques",): "stats",
    ("follow",): "follow",
    ("suivre",): "follow",
    ("unfollow",): "unfollow",
    ("nepassuivre",): "unfollow",
    ("neplussuivre",): "unfollow",
    ("ne", "plus", "suivre"): "unfollow",
    ("ne", "pas", "suivre"): "unfollow",
    ("timezone",): "timezone",
    ("tz",): "timezone",
    ("fuseau", "horaire"): "timezone",
    ("fuseau",): "timezone",
    ("stop",): "stop",
    ("unsubscribe",): "stop",
    ("desabonner",): "stop",
    ("desinscrire",): "stop",
}
_LONGEST = max(len(words) for words in _VERBS)
_TABLE_ID = re.compile(r"#?([0-9]{1,18})")
_ARG = re.compile(r"([^\W\d][\w-]*)=(.*)")
# 'players = 3' is read as 'players=3'.
_SPACED_EQUALS = re.compile(r"\s*=\s*")
_TRAILING = ".,;:!"


@dataclass(frozen=True)
class MailCommand:
    """One command line, read.

    ``verb`` is one of 'help', 'new', 'join', 'start', 'tables', 'rules', 'leave',
    'stats', 'follow', 'unfollow', 'timezone', 'stop' (the front end makes 'move' itself
    for other text at a seat address). ``args`` holds key=value pairs (keys lowercased,
    values as typed); ``words`` the rest, as typed.
    """

    verb: str
    table_id: int | None
    args: Mapping[str, str]
    words: tuple[str, ...]


def fold(word: str) -> str:
    """A word as the verb table spells it: lowercase, without accents."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def parse_command(line: str) -> MailCommand | None:
    """The command on ``line``, or None when the line is not a command."""
    tokens = _SPACED_EQUALS.sub("=", line.strip()).split()
    if not tokens:
        return None
    # '/join 12' (a Discord habit) reads as 'join 12'.
    tokens[0] = tokens[0].removeprefix("/")
    folded = [fold(token).rstrip(_TRAILING) or fold(token) for token in tokens]
    for size in range(min(_LONGEST, len(tokens)), 0, -1):
        verb = _VERBS.get(tuple(folded[:size]))
        if verb is not None:
            return _read_rest(verb, tokens[size:])
    return None


def _read_rest(verb: str, tokens: list[str]) -> MailCommand:
    table_id: int | None = None
    args: dict[str, str] = {}
    words: list[str] = []
    for token in tokens:
        bare = token.rstrip(_TRAILING) or token
        number = _TABLE_ID.fullmatch(bare)
        arg = _ARG.fullmatch(bare)
        if number is not None and table_id is None:
            table_id = int(number.group(1))
        elif arg is not None:
            key, value = fold(arg.group(1)), arg.group(2)
            if key == "table" and table_id is None and _TABLE_ID.fullmatch(value):
                table_id = int(value.lstrip("#"))
            else:
                args[key] = value
        else:
            words.append(bare)
    return MailCommand(verb, table_id, MappingProxyType(args), tuple(words))
