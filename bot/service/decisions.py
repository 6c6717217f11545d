"""Which decisions are open, which continue across an action, and their timers.

A seat's decision *continues* across an action when the seat did not act and its
decision key (the pending kind, or ``changeable`` after a simultaneous submission) is
the same before and after. A continuing decision keeps its deadline, its reminders and
the version its buttons were built for; any other open decision starts afresh.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.store.records import SeatRecord, TimerRecord
from engine.core import Game

CHANGEABLE = "changeable"


def decision_keys(game: Game[Any], state: Any) -> dict[int, str]:
    pending = game.pending(state)
    keys = {seat: CHANGEABLE for seat in pending.changeable}
    keys.update(pending.waiting)
    return keys


def continues(seat: int, before: Mapping[int, str], after: Mapping[int, str],
              actor: int | None) -> bool:
    return seat != actor and seat in after and before.get(seat) == after[seat]


def fresh_timers(seat: int, now: float, deadline_seconds: int,
                 reminder_offsets: Sequence[int]) -> list[TimerRecord]:
    due = now + deadline_seconds
    timers = [TimerRecord(due, seat, "deadline")]
    timers += [TimerRecord(due - o, seat, "reminder") for o in reminder_offsets if due - o > now]
    return timers


def next_timers(
    *,
    old: Sequence[TimerRecord],
    before: Mapping[int, str],
    after: Mapping[int, str],
    actor: int | None,
    seats: Sequence[SeatRecord],
    now: float,
    deadline_seconds: int | None,
    reminder_offsets: Sequence[int],
) -> list[TimerRecord]:
    """Timers after an action: kept for continuing decisions, new for fresh ones, none for
    bots (they act at once), for submitted seats, or when the table has no deadlines."""
    if deadline_seconds is None:
        return []
    bots = {s.seat for s in seats if s.is_bot}
    timers: list[TimerRecord] = []
    for seat, key in sorted(after.items()):
        if key == CHANGEABLE or seat in bots:
            continue
        if continues(seat, before, after, actor):
            timers += [t for t in old if t.seat == seat]
        else:
            timers += fresh_timers(seat, now, deadline_seconds, reminder_offsets)
    return sorted(timers)


def next_prompt_versions(
    seats: Sequence[SeatRecord],
    before: Mapping[int, str],
    after: Mapping[int, str],
    actor: int | None,
    version: int,
) -> list[SeatRecord]:
    """Seats with ``prompt_version`` moved to ``version`` wherever a decision did not continue."""
    out = []
    for s in seats:
        keep = continues(s.seat, before, after, actor)
        out.append(SeatRecord(
            seat=s.seat, name=s.name, user_id=s.user_id, is_bot=s.is_bot, ai_kind=s.ai_kind,
            dm_ok=s.dm_ok, prompt_version=s.prompt_version if keep else version,
        ))
    return out
