"""Building notifications from a live table. Only here does the service choose what each
recipient may read: the table gets the public view and public events; a seat gets its
own view, its own private events and its own options, and nothing else."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.service.decisions import CHANGEABLE, decision_keys
from bot.service.fill import OPTIONS, VIEW, filled, options_at
from bot.service.live import LiveTable
from bot.service.notifications import TABLE, FileSpec, Notification
from bot.service.values import Prompt
from bot.store.records import TableRecord
from engine.core import Action, Event


def base_context(live: LiveTable, seat: int | None) -> dict[str, Any]:
    r = live.record
    return {
        "table_id": r.id,
        "game": r.game,
        "seat": seat,
        "version": r.version,
    }


def table_facts(live: LiveTable) -> dict[str, Any]:
    """What every notification says of its table, filled in when it is sent (``TABLE``)."""
    r = live.record
    return {"names": live.names, "status": r.status, "host_id": r.host_id, "game": r.game,
            "locale": r.locale}


def note(live: LiveTable, seat: int | None, template: str, context: Mapping[str, Any] | None = None,
         *, files: tuple[FileSpec, ...] = (), slot: str | None = None,
         fallback: str | None = None, fill: tuple[str, ...] = ()) -> Notification | None:
    """A notification, or None for a private one to a bot seat (nobody would read it)."""
    user_id = None
    if seat is not None:
        record = live.seat(seat)
        if record is None or record.is_bot:
            return None
        user_id = record.user_id
    ctx = base_context(live, seat)
    ctx.update(context or {})
    fill = (TABLE, *fill)
    return Notification(
        table_id=live.id, seat=seat, template=template, context=ctx, game=live.record.game,
        locale=live.record.locale, user_id=user_id, files=files, slot=slot,
        version=live.record.version, fallback=fallback, fill=fill,
    )


def prompt_for(live: LiveTable, seat: int, *, options: bool = True) -> Prompt:
    """The seat's decision; ``options=False`` leaves its moves out (a notification makes
    them at send time: ``bot/service/fill.py``)."""
    record = live.seat(seat)
    version = live.record.version if record is None else record.prompt_version
    if live.state is None or live.record.status != "running":
        return Prompt(live.id, seat, live.record.version, None, (), None)
    decision = decision_keys(live.game, live.state).get(seat)
    moves = tuple(options_at(live, seat)) if options else ()
    return Prompt(live.id, seat, version, decision, moves, live.deadline_of(seat))


def action_note(live: LiveTable, seat: int, action: Action) -> str | None:
    """The game's note on ``action`` in the current state (None: the game has none)."""
    hook = getattr(live.game, "action_note", None)
    if hook is None or live.state is None:
        return None
    note: str | None = hook(live.state, seat, action)
    return note


def prompt_context(prompt: Prompt, *, options: bool = True) -> dict[str, Any]:
    context: dict[str, Any] = {
        "decision": prompt.decision,
        "prompt_version": prompt.version,
        "deadline": prompt.deadline,
    }
    if options:
        context["options"] = [o.to_json() for o in prompt.options]
    return context


def your_turn(live: LiveTable, seat: int, template: str = "your_turn", *,
              now: bool = False) -> Notification | None:
    """The seat's decision with its view and moves, made at send time from the state at
    this version; ``now``: made here (a reply shown at once, not stored)."""
    ctx = prompt_context(prompt_for(live, seat, options=False), options=False)
    made = note(live, seat, template, ctx, files=(FileSpec("board", seat),),
                fill=(VIEW, OPTIONS))
    return (filled(made, live.game, live.state, table_facts(live))
            if made is not None and now else made)


def waiting_status(live: LiveTable) -> Notification | None:
    keys = decision_keys(live.game, live.state)
    waiting = [
        # Each ``name`` is filled in when sent, with the table's names (``fill.TABLE``).
        {"seat": s, "decision": k, "deadline": live.deadline_of(s)}
        for s, k in sorted(keys.items())
        # Bots decide at once, so the table is never really waiting for them.
        if k != CHANGEABLE and not live.seats[s].is_bot
    ]
    if not waiting:
        return None
    return note(live, None, "waiting", {"waiting": waiting}, files=(FileSpec("board", None),),
                slot="status", fill=(VIEW,))


def event_notes(live: LiveTable, events: Sequence[Event]) -> list[Notification]:
    notes = []
    for event in events:
        data = dict(event.data)
        # The event's data is spread into the context, so an event's own ``seat`` wins
        # over the recipient's; ``to_seat`` is always the recipient (None: the table).
        ctx: dict[str, Any] = {**data, "data": data, "event": event.kind, "to_seat": event.to}
        notes.append(note(live, event.to, f"event_{event.kind}", ctx, fallback="event"))
    return present(notes)


def game_over(live: LiveTable) -> Notification | None:
    outcome = live.record.outcome or {"standings": []}
    standings = []
    for s in sorted(outcome["standings"], key=lambda s: s["rank"]):
        seat = s["seat"]
        name = live.names[seat] if seat is not None and seat < len(live.names) else s["name"]
        standings.append({**s, "name": name})
    winners = [s["name"] for s in standings if s["rank"] == 1]
    return note(live, None, "game_over", {"standings": standings, "winners": winners},
                files=(FileSpec("scores", None),), slot="status")


# The settings a host may change in the lobby, in the order a message lists them.
CONFIGURABLE = ("max_seats", "deadline_seconds", "reminders", "timeout_policy", "seat_order",
                "ai_level", "locale")


def settings_changes(old: TableRecord, new: TableRecord) -> list[dict[str, Any]]:
    """What differs between two versions of a table's settings, as the ``changes`` of
    the ``configured`` notification: ``{field, old, new}`` and, for a game option,
    ``field="option"`` with its ``key``."""
    changes: list[dict[str, Any]] = []
    for name in CONFIGURABLE:
        before, after = getattr(old, name), getattr(new, name)
        if before != after:
            changes.append({"field": name, "old": _plain(before), "new": _plain(after)})
    for key in sorted(set(old.options) | set(new.options)):
        before, after = old.options.get(key), new.options.get(key)
        # ``True == 1`` in Python: a flag set to 1 must still count as a change.
        if before != after or type(before) is not type(after):
            changes.append({"field": "option", "key": key, "old": before, "new": after})
    return changes


def _plain(value: Any) -> Any:
    # A notification's context holds plain JSON values: a tuple goes as a list.
    return list(value) if isinstance(value, tuple) else value


def present(notes: Sequence[Notification | None]) -> list[Notification]:
    return [n for n in notes if n is not None]
