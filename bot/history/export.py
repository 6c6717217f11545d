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
from engine.core.errors import UrbanistError

FORMAT: Final = "urbanist-table"
FORMAT_VERSION: Final = 1


class ExportError(ValueError):
    """A document that is not an export this code can replay; the message says why, and
    ``code`` with ``context`` say it again for templates/<locale>/cli/replay_refused.txt.
    ``mismatch``: the document is an export, but its replay disagrees with it."""

    def __init__(self, message: str, code: str = "malformed", *, mismatch: bool = False,
                 **context: Any) -> None:
        super().__init__(message)
        self.code, self.mismatch, self.context = code, mismatch, context


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
    try:
        return _replay(document, get_game)
    except ExportError:
        raise
    except (KeyError, IndexError, TypeError, AttributeError, ValueError,
            UrbanistError) as exc:
        # A hand-edited or truncated export: a field missing or of the wrong kind. The
        # reader needs to know the file is damaged, not which Python operation failed.
        raise ExportError(f"a field is missing or malformed ({type(exc).__name__}: {exc})",
                          "malformed") from exc


def _replay(document: Any, get_game: Callable[[str], Game[Any]]) -> ReplayResult:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ExportError("not an Urbanist table export", "not_export")
    if document.get("format_version") != FORMAT_VERSION:
        raise ExportError(f"format version {document.get('format_version')!r} is not "
                          f"{FORMAT_VERSION}", "format_version",
                          found=document.get("format_version"), known=FORMAT_VERSION)
    table = document.get("table") or {}
    if table.get("status") != "finished" or table.get("seed") is None:
        raise ExportError("the game was not over when exported: its seed and secret "
                          "choices are withheld, so it cannot be replayed", "not_over")
    try:
        game = get_game(str(table["game"]))
    except KeyError as exc:
        raise ExportError(f"unknown game {table.get('game')!r}", "unknown_game",
                          game=table.get("game")) from exc
    state = game.setup(len(document["seats"]), table["options"], int(table["seed"]))
    expected = 1
    for entry in document["actions"]:
        expected += 1
        if entry.get("version") != expected:
            raise ExportError(f"gap in the actions before version {entry.get('version')}",
                              "gap", version=entry.get("version"))
        if "action" not in entry:
            raise ExportError(f"action {expected} is withheld", "withheld", version=expected)
        try:
            game.apply(state, int(entry["seat"]), game.action_from_json(entry["action"]))
        except Exception as exc:
            raise ExportError(f"action {expected} does not apply: {exc}", "does_not_apply",
                              mismatch=True, version=expected) from exc
    if expected != table.get("version"):
        raise ExportError(f"the actions end at version {expected}, the table at "
                          f"{table.get('version')}", "ends_early", mismatch=True,
                          version=expected, table_version=table.get("version"))
    outcome = game.outcome(state)
    found = None if outcome is None else outcome.to_json()
    if canonical(found) != canonical(document.get("outcome")):
        raise ExportError("the replayed outcome differs from the exported one",
                          "outcome_differs", mismatch=True)
    digest = state_digest(canonical(game.state_to_json(state)))
    if digest != document.get("final_state_sha256"):
        raise ExportError("the replayed final state differs from the exported one",
                          "state_differs", mismatch=True)
    return ReplayResult(game.name, int(table.get("id", 0)), len(document["actions"]), found,
                        digest)
