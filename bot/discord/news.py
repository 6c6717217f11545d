"""The round's post in the channel, one line per player's move (issue 24, item 19).

A game's events come one sentence each (a reveal, a build, each gain, a keep), which
made a 4-player Ginkgopolis round read 17 lines under its board. Here the sentences of
one player's move are joined on one line: the line is the move with its effects, and
a reader scanning the post meets each player once. Nothing is reworded: every sentence
still comes from the game's templates, so a new game gets this without code, and the
console, which has no board picture beside its text, keeps a sentence per line.

Whose move a note tells is read from what every game already sends: ``acted`` names
its ``actor``, a game event its ``seat``. An event of nobody in particular (a token
moved, a manufacture refilled, the deck rebuilt) is an effect of the move it follows;
an event that carries the ``round`` is a header and keeps its own line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.service import Notification

# An ``acted`` note of these sources only repeats, as the move's code, what the events
# of the same move tell in words; a timeout, the host's call and a bot's move (which
# names the bot's level) are news of their own.
PLAIN_SOURCES = frozenset({"player"})


def _event(n: Notification) -> bool:
    return n.template.startswith("event_")


def _data(n: Notification) -> dict[str, Any]:
    data = n.context.get("data")
    return dict(data) if isinstance(data, dict) else {}


def mover(n: Notification) -> int | None:
    """The seat whose move ``n`` tells, or None."""
    if n.template == "acted":
        seat = n.context.get("actor")
    elif _event(n):
        seat = _data(n).get("seat")
    else:
        return None
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def header(n: Notification) -> bool:
    return _event(n) and "round" in _data(n)


def moves(notes: Sequence[Notification]) -> list[list[Notification]]:
    """``notes`` in order, gathered into one group per move (and one per other news)."""
    groups: list[tuple[int | None, list[Notification]]] = []
    for n in notes:
        who = mover(n)
        current = groups[-1] if groups else None
        if header(n) or current is None:
            groups.append((who, [n]))
        elif who is not None and current[0] == who and not header(current[1][0]):
            current[1].append(n)
        elif who is None and _event(n) and current[0] is not None:
            current[1].append(n)  # an effect of the move going on
        else:
            groups.append((who, [n]))
    return [group for _, group in _rejoined(groups)]


def _rejoined(groups: list[tuple[int | None, list[Notification]]]
              ) -> list[tuple[int | None, list[Notification]]]:
    """A move told around an effect on another player (a build over someone's
    building gives them back a resource) is still one move: X, Y, X becomes one X."""
    out: list[tuple[int | None, list[Notification]]] = []
    for who, group in groups:
        if (len(out) >= 2 and who is not None and out[-2][0] == who
                and not header(group[0]) and not header(out[-1][1][0])
                and not header(out[-2][1][0])
                and not any(n.template == "acted" for n in out[-1][1])):
            middle = out.pop()
            out[-1][1].extend(middle[1] + group)
        else:
            out.append((who, list(group)))
    return out


def one_line(text: str) -> str:
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def news_lines(notes: Sequence[Notification], render: Callable[[Notification], str]) -> list[str]:
    """The post's lines: each move's sentences on one line."""
    lines = []
    for group in moves(notes):
        if len(group) == 1:
            lines.append(render(group[0]))
            continue
        who = mover(group[0])
        told = any(_event(n) and mover(n) == who for n in group)
        texts = [render(n) for n in group
                 if not (told and n.template == "acted"
                         and n.context.get("source") in PLAIN_SOURCES)]
        lines.append(" ".join(one_line(t) for t in texts if t.strip()))
    return lines
