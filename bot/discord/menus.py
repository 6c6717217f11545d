"""How a seat's legal options become buttons and selects, within Discord's limits.

Pure planning (no discord objects), so the rules are easy to test:

- up to ``MAX_BUTTONS`` options: one button each (a draft, a token move, a refill);
- up to 25: one select;
- more: a select of *groups* first, then the group's options. A group is what an
  option's text form starts with, before ``+``, ``:``, ``@`` or a space: in Ginkgopolis
  the card (``B16`` for ``B16``, ``B16+Y5``, ...), so a player picks a card, then a tile;
- when grouping gains nothing, several selects of 25 (at most five rows);
- beyond all that, the menu says so and the player types the action instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.discord import ids
from bot.discord.limits import (
    CUSTOM_ID_CHARS,
    LABEL_CHARS,
    OPTION_VALUE_CHARS,
    ROWS,
    SELECT_OPTIONS,
)

MAX_BUTTONS = 10
_GROUP_CUT = re.compile(r"[+:@\s]")


@dataclass(frozen=True)
class Group:
    key: str
    texts: tuple[str, ...]


@dataclass(frozen=True)
class MenuPlan:
    """What to show: action buttons, selects of actions, selects of groups. ``typed_only``
    when there are options but too many to show: the text tells how to type them."""

    buttons: tuple[str, ...] = ()
    selects: tuple[tuple[str, ...], ...] = ()
    groups: tuple[tuple[Group, ...], ...] = ()
    typed_only: bool = False

    @property
    def empty(self) -> bool:
        return not (self.buttons or self.selects or self.groups)


def group_key(text: str) -> str:
    head = _GROUP_CUT.split(text.strip(), maxsplit=1)[0]
    return head or text


def groups_of(texts: Sequence[str]) -> list[Group]:
    order: dict[str, list[str]] = {}
    for text in texts:
        order.setdefault(group_key(text), []).append(text)
    return [Group(k, tuple(v)) for k, v in order.items()]


def _chunks(items: Sequence[str], size: int) -> list[tuple[str, ...]]:
    return [tuple(items[i:i + size]) for i in range(0, len(items), size)]


def _fits_button(text: str, table: int, version: int) -> bool:
    return len(text) <= LABEL_CHARS and len(ids.action(table, version, text)) <= CUSTOM_ID_CHARS


def plan(texts: Sequence[str], *, table: int, version: int, rows: int = ROWS,
         grouped: bool = True) -> MenuPlan:
    """The menu for ``texts`` (the options' text forms) on at most ``rows`` rows."""
    texts = [t for t in texts if t]
    if not texts:
        return MenuPlan()
    if any(len(t) > OPTION_VALUE_CHARS for t in texts):
        return MenuPlan(typed_only=True)  # a select value could not hold it
    if len(texts) <= MAX_BUTTONS and all(_fits_button(t, table, version) for t in texts):
        return MenuPlan(buttons=tuple(texts))
    if len(texts) <= SELECT_OPTIONS:
        return MenuPlan(selects=(tuple(texts),))
    if grouped:
        groups = groups_of(texts)
        if 1 < len(groups) < len(texts) and len(groups) <= SELECT_OPTIONS * rows:
            return MenuPlan(groups=tuple(
                tuple(groups[i:i + SELECT_OPTIONS])
                for i in range(0, len(groups), SELECT_OPTIONS)
            ))
    if len(texts) <= SELECT_OPTIONS * rows:
        return MenuPlan(selects=tuple(_chunks(texts, SELECT_OPTIONS)))
    return MenuPlan(typed_only=True)


def plan_group(texts: Sequence[str], key: str, *, table: int, version: int) -> MenuPlan:
    """The menu inside one group: one row is kept for the Back button."""
    members = [t for t in texts if group_key(t) == key]
    return plan(members, table=table, version=version, rows=ROWS - 1, grouped=False)
