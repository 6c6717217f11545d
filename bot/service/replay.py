"""A table's state from its snapshot and its log, and the check that the log from the
seed reproduces the stored snapshot.

A snapshot is written every ``SNAPSHOT_EVERY`` actions and when the game ends, not after
each action (issue 25: encoding the whole state was the largest part of an action's CPU);
the state at a table's version is its snapshot with the actions after
``snapshot_version`` applied. The engine is deterministic, so this is the very state the
actions left."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.records import ActionRecord, TableRecord, canonical
from engine.core import Game

# At most this many actions are replayed on a snapshot to rebuild a table's state: the
# price of a cache miss (a few ms for the costliest engine), against encoding the state
# at every action.
SNAPSHOT_EVERY = 8


def snapshot_due(table: TableRecord, version: int, finished: bool) -> bool:
    """Whether the write that takes ``table`` to ``version`` writes a snapshot: every
    ``SNAPSHOT_EVERY`` versions, and the final state (which the history export digests)."""
    return finished or table.snapshot is None or version - table.snapshot_version >= SNAPSHOT_EVERY


def state_now(game: Game[Any], table: TableRecord, actions: Sequence[ActionRecord],
              version: int | None = None) -> Any:
    """The engine state at ``version`` (default: the table's; from ``snapshot_version``
    on), given at least the log's actions after ``snapshot_version`` up to it (others are
    skipped). The table's snapshot must not be None."""
    assert table.snapshot is not None
    until = table.version if version is None else version
    state = game.state_from_json(json.loads(table.snapshot))
    for record in actions:
        if table.snapshot_version < record.version <= until:
            game.apply(state, record.seat, game.action_from_json(record.action))
    return state


@dataclass(frozen=True)
class ReplayReport:
    table_id: int
    ok: bool
    actions: int
    problem: str | None = None


def verify_replay(game: Game[Any], table: TableRecord, seat_count: int,
                  actions: Sequence[ActionRecord]) -> ReplayReport:
    """Replays the whole log from the seed: every action must apply, the log must reach
    the table's version, and the state at ``snapshot_version`` must be the snapshot."""
    if table.snapshot is None:
        ok = not actions
        return ReplayReport(table.id, ok, len(actions), None if ok else "actions without a game")
    state = game.setup(seat_count, table.options, table.seed)
    expected_version = 1
    same = _same(game, state, table) if table.snapshot_version <= 1 else None
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
        if record.version == table.snapshot_version:
            same = _same(game, state, table)
    if expected_version != table.version:
        return ReplayReport(table.id, False, len(actions),
                            f"log ends at version {expected_version}, table at {table.version}")
    if not same:
        return ReplayReport(table.id, False, len(actions), "replayed state differs from snapshot")
    return ReplayReport(table.id, True, len(actions))


def _same(game: Game[Any], state: Any, table: TableRecord) -> bool:
    return canonical(game.state_to_json(state)) == table.snapshot
