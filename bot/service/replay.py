"""Replay verification: the log from the seed must reproduce the stored snapshot."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.records import ActionRecord, TableRecord, canonical
from engine.core import Game


@dataclass(frozen=True)
class ReplayReport:
    table_id: int
    ok: bool
    actions: int
    problem: str | None = None


def verify_replay(game: Game[Any], table: TableRecord, seat_count: int,
                  actions: Sequence[ActionRecord]) -> ReplayReport:
    if table.snapshot is None:
        ok = not actions
        return ReplayReport(table.id, ok, len(actions), None if ok else "actions without a game")
    state = game.setup(seat_count, table.options, table.seed)
    expected_version = 1
    for record in actions:
        expected_version += 1
        if record.version != expected_version:
            return ReplayReport(table.id, False, len(actions),
                                f"gap in the log before version {record.version}")
        try:
            game.apply(state, record.seat, game.action_from_json(record.action))
        except Exception as exc:
            return ReplayReport(table.id, False, len(actions),
                                f"version {record.version} does not apply: {exc}")
    if expected_version != table.version:
        return ReplayReport(table.id, False, len(actions),
                            f"log ends at version {expected_version}, table at {table.version}")
    if canonical(game.state_to_json(state)) != table.snapshot:
        return ReplayReport(table.id, False, len(actions), "replayed state differs from snapshot")
    return ReplayReport(table.id, True, len(actions))
