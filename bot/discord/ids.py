"""The ``custom_id`` of every button and select: what it does, for which table, and the
table version it was built for. Nothing else is kept anywhere, so a component still
works after a restart, and a forged one can say no more than a typed command could.

Formats (``T`` table id, ``V`` version):

- ``urb:a:T:V:TEXT``  a button playing the action whose text form is TEXT;
- ``urb:s:T:V:N``     the N-th select of actions (the values are text forms);
- ``urb:g:T:V:N``     the N-th select of groups (a Ginkgopolis card, say), opening the
  group's actions;
- ``urb:b:T:V``       back from a group to the whole menu;
- ``urb:h:T``         show my hand (an ephemeral copy of the private message);
- ``urb:l:VERB:T``    the lobby's join, leave, bot and start buttons;
- ``urb:lb:T``        the lobby's select that adds a bot of a chosen level.
"""

from __future__ import annotations

import re

PREFIX = "urb:"

ACTION = r"urb:a:(?P<table>\d{1,18}):(?P<version>\d{1,9}):(?P<text>.+)"
ACTION_SELECT = r"urb:s:(?P<table>\d{1,18}):(?P<version>\d{1,9}):(?P<part>\d)"
GROUP_SELECT = r"urb:g:(?P<table>\d{1,18}):(?P<version>\d{1,9}):(?P<part>\d)"
BACK = r"urb:b:(?P<table>\d{1,18}):(?P<version>\d{1,9})"
HAND = r"urb:h:(?P<table>\d{1,18})"
LOBBY_VERBS = ("join", "leave", "bot", "start")
LOBBY = r"urb:l:(?P<verb>join|leave|bot|start):(?P<table>\d{1,18})"
LOBBY_BOT = r"urb:lb:(?P<table>\d{1,18})"

TEMPLATES = (ACTION, ACTION_SELECT, GROUP_SELECT, BACK, HAND, LOBBY, LOBBY_BOT)
_COMPILED = tuple(re.compile(t) for t in TEMPLATES)


def action(table: int, version: int, text: str) -> str:
    return f"urb:a:{table}:{version}:{text}"


def action_select(table: int, version: int, part: int) -> str:
    return f"urb:s:{table}:{version}:{part}"


def group_select(table: int, version: int, part: int) -> str:
    return f"urb:g:{table}:{version}:{part}"


def back(table: int, version: int) -> str:
    return f"urb:b:{table}:{version}"


def hand(table: int) -> str:
    return f"urb:h:{table}"


def lobby(verb: str, table: int) -> str:
    assert verb in LOBBY_VERBS, verb
    return f"urb:l:{verb}:{table}"


def lobby_bot(table: int) -> str:
    return f"urb:lb:{table}"


_MENU = re.compile(r"urb:[asgb]:(?P<table>\d{1,18}):(?P<version>\d{1,9})(?::.*)?", re.DOTALL)


def menu_version(custom_id: str, table: int) -> int | None:
    """The version a menu component of ``table`` (an action, a select, a group, Back) was
    built for; None for any other component."""
    match = _MENU.fullmatch(custom_id)
    if match is None or int(match["table"]) != table:
        return None
    return int(match["version"])


def is_ours(custom_id: str) -> bool:
    return custom_id.startswith(PREFIX)


def is_known(custom_id: str) -> bool:
    """Whether one of our components answers to ``custom_id`` (else it is forged or from
    a version of the bot that is gone, and gets a polite word instead of silence)."""
    return any(p.fullmatch(custom_id) for p in _COMPILED)


def status_marker(table: int) -> re.Pattern[str]:
    """What the table's status message carries: the lobby buttons or the hand button."""
    return re.compile(rf"urb:(?:l:\w+|lb|h):{table}")
