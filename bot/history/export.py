"""A table as a JSON document (docs/export-format.md), and the replay that rebuilds its
final state from it. Pure: the caller loads the table, its seats and its log.

Secret information only after the game is over: while a table is not finished, the seed
(which fixes every shuffled deck) and the secret (simultaneous) choices are withheld,
and no state digest is given; such an export is a record to read, not to replay.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.store.records import ActionRecord, SeatRecord, TableRecord, canonical
from engine.core import Game

FORMAT: Final = "urbanist-table"
FORMAT_VERSION: Final = 1


class ExportError(ValueError):
    """A document that is not an export this code can replay; the message says why."""


def state_digest(snapshot: str) -> str:
    return hashlib.sha256(snapshot.encode("utf-8")).hexdigest()


def export_table(table: TableRecord, seats: Sequence[SeatRecord],
                 actions: Sequence[ActionRecord]) -> dict[str, Any]:
    over = table.status == "finished"
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "table": {
            "id": table.id,
            "game": table.game,
            "status": table.status,
            "options": table.options,
            "seed": table.seed if over else None,
            "locale": table.locale,
            "guild_id": table.guild_id,
            "created_at": table.created_at,
            "version": table.version,
        },
        "seats": [{"seat": s.seat, "name": s.name, "user_id": s.user_id, "is_bot": s.is_bot,
                   "ai_kind": s.ai_kind} for s in seats],
        "actions": [_action(a, over) for a in actions],
        "outcome": table.outcome if over else None,
        "final_state_sha256": (state_digest(table.snapshot)
                               if over and table.snapshot is not None else None),
    }


def _action(a: ActionRecord, over: bool) -> dict[str, Any]:
    secret = a.public_text is None
    entry: dict[str, Any] = {"version": a.version, "seat": a.seat, "source": a.source,
                             "at": a.at, "secret": secret}
    if over or not secret:
        entry["action"] = a.action
        entry["text"] = a.public_text
    return entry


@dataclass(frozen=True)
class ReplayResult:
    game: str
    table_id: int
    actions: int
    outcome: dict[str, Any] | None
    digest: str


def replay(document: Any, get_game: Callable[[str], Game[Any]]) -> ReplayResult:
    """Rebuild the final state from ``document`` and check it against the export's
    outcome and state digest; ExportError says what does not hold."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ExportError("not an Urbanist table export")
    if document.get("format_version") != FORMAT_VERSION:
        raise ExportError(f"format version {document.get('format_version')!r} is not "
                          f"{FORMAT_VERSION}")
    table = document.get("table") or {}
    if table.get("status") != "finished" or table.get("seed") is None:
        raise ExportError("the game was not over when exported: its seed and secret "
                          "choices are withheld, so it cannot be replayed")
    try:
        game = get_game(str(table["game"]))
    except KeyError as exc:
        raise ExportError(f"unknown game {table.get('game')!r}") from exc
    state = game.setup(len(document["seats"]), table["options"], int(table["seed"]))
    expected = 1
    for entry in document["actions"]:
        expected += 1
        if entry.get("version") != expected:
            raise ExportError(f"gap in the actions before version {entry.get('version')}")
        if "action" not in entry:
            raise ExportError(f"action {expected} is withheld")
        try:
            game.apply(state, int(entry["seat"]), game.action_from_json(entry["action"]))
        except Exception as exc:
            raise ExportError(f"action {expected} does not apply: {exc}") from exc
    if expected != table.get("version"):
        raise ExportError(f"the actions end at version {expected}, the table at "
                          f"{table.get('version')}")
    outcome = game.outcome(state)
    found = None if outcome is None else outcome.to_json()
    if canonical(found) != canonical(document.get("outcome")):
        raise ExportError("the replayed outcome differs from the exported one")
    digest = state_digest(canonical(game.state_to_json(state)))
    if digest != document.get("final_state_sha256"):
        raise ExportError("the replayed final state differs from the exported one")
    return ReplayResult(game.name, int(table.get("id", 0)), len(document["actions"]), found,
                        digest)
