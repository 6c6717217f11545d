"""A table's save on PostgreSQL as ONE statement (issue 25): the conditional UPDATE of
the table row, its seats and timers replaced, its action appended, its outbox rows
queued, and with ``claim_at`` its outbox claimed, in one round trip to the server.

Every part hangs on the UPDATE: each reads the updated row's id from it, so when the rev
(or the game version) is stale the UPDATE matches nothing and neither does any other
part. The statement then wrote nothing at all, and the refusal needs no savepoint to be
undone. The parts of one statement share one snapshot and do not see each other's rows;
where order matters (the old seats deleted before the new ones are inserted, the same
keys) the INSERT waits on the DELETE's row count, which runs the DELETE first.

The claim is ``claim_outbox``'s, on the rows the statement's snapshot holds (locked
``FOR UPDATE SKIP LOCKED``, the due ones marked ``sending``) and on the rows the save
writes, whose claimed state the client knows beforehand: a new row due at ``claim_at``
is inserted ``sending`` with one attempt, as the claim right after would have left it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import asyncpg

from bot.store.pg_rows import _COUNT, _TABLE_COLUMNS, _TABLE_PLACEHOLDERS, _outbox_from_row
from bot.store.records import (
    ActionRecord,
    OutboxRow,
    SeatRecord,
    TableRecord,
    TimerRecord,
    canonical,
)
from bot.store.sqlite_outbox import with_table_id

_CLAIMABLE: Final = ("pending", "sending")


@dataclass(frozen=True)
class Shape:
    """Which parts a save's statement has (each shape is one prepared statement)."""

    version: bool  # conditional on the game version too
    seats: bool
    timers: bool
    action: bool
    outbox: bool
    claim: bool


@functools.cache
def save_sql(shape: Shape) -> str:
    """The statement of a save of ``shape``. Parameters: the table's values, its id, its
    rev, then each part's, in the order ``save_params`` gives them."""
    n = _COUNT + 2
    params: list[str] = []

    def p(cast: str) -> str:
        nonlocal n
        n += 1
        params.append(cast)
        return f"${n}::{cast}"

    where = f"id = ${_COUNT + 1} AND rev = ${_COUNT + 2}"
    if shape.version:
        where += f" AND version = {p('bigint')}"
    parts = [f"saved AS (UPDATE tables SET ({_TABLE_COLUMNS}) = ({_TABLE_PLACEHOLDERS}), "
             f"rev = rev + 1 WHERE {where} RETURNING id)"]
    if shape.seats:
        parts.append("seats_gone AS (DELETE FROM seats WHERE table_id = "
                     "(SELECT id FROM saved) RETURNING 1)")
        parts.append(
            "seats_new AS (INSERT INTO seats (table_id, seat, user_id, name, is_bot, "
            "ai_kind, dm_ok, prompt_version) SELECT saved.id, s.* FROM saved, "
            f"unnest({p('bigint[]')}, {p('text[]')}, {p('text[]')}, {p('boolean[]')}, "
            f"{p('text[]')}, {p('boolean[]')}, {p('bigint[]')}) AS s "
            "WHERE (SELECT count(*) FROM seats_gone) >= 0)")
    if shape.timers:
        parts.append("timers_gone AS (DELETE FROM timers WHERE table_id = "
                     "(SELECT id FROM saved) RETURNING 1)")
        parts.append(
            "timers_new AS (INSERT INTO timers (table_id, seat, kind, due_at) "
            f"SELECT saved.id, m.* FROM saved, unnest({p('bigint[]')}, {p('text[]')}, "
            f"{p('float8[]')}) AS m WHERE (SELECT count(*) FROM timers_gone) >= 0 "
            "ON CONFLICT DO NOTHING)")
    if shape.action:
        parts.append(
            "action_new AS (INSERT INTO actions (table_id, version, seat, action, "
            "public_text, events, source, actor_id, at) SELECT saved.id, "
            f"{p('bigint')}, {p('bigint')}, {p('text')}, {p('text')}, {p('text')}, "
            f"{p('text')}, {p('text')}, {p('float8')} FROM saved)")
    ids = "NULL::bigint[]"
    if shape.outbox:
        # In the list's order, so the rows' ids ascend as the list goes.
        parts.append(
            "outbox_new AS (INSERT INTO outbox (table_id, version, seat, payload, state, "
            "attempts, due_at, created_at) SELECT saved.id, o.version, o.seat, o.payload, "
            "o.state, o.attempts, o.due_at, o.created_at FROM saved, "
            f"unnest({p('bigint[]')}, {p('bigint[]')}, {p('text[]')}, {p('text[]')}, "
            f"{p('bigint[]')}, {p('float8[]')}, {p('float8[]')}) WITH ORDINALITY "
            "AS o(version, seat, payload, state, attempts, due_at, created_at, n) "
            "ORDER BY o.n RETURNING id)")
        ids = "ARRAY(SELECT id FROM outbox_new ORDER BY id)"
    if not shape.claim:
        return (f"WITH {', '.join(parts)} SELECT (SELECT count(*) FROM saved) AS saved, "
                f"{ids} AS ids")
    claim_at = p("float8")
    parts.append(
        "held AS MATERIALIZED (SELECT * FROM outbox WHERE table_id = (SELECT id FROM saved) "
        f"AND (state = 'held' OR (state IN ('pending', 'sending') AND due_at <= {claim_at}))"
        " ORDER BY id FOR UPDATE SKIP LOCKED)")
    parts.append("claimed AS (UPDATE outbox SET state = 'sending', attempts = attempts + 1 "
                 "WHERE id IN (SELECT id FROM held WHERE state <> 'held'))")
    # One row at least (the save's answer), then one per row of the claim.
    return (f"WITH {', '.join(parts)} SELECT (SELECT count(*) FROM saved) AS saved, "
            f"{ids} AS ids, held.* FROM (VALUES (1)) AS one LEFT JOIN held ON true "
            "ORDER BY held.id")


def save_params(shape: Shape, table_values: tuple[Any, ...], table: TableRecord,
                expected_version: int | None, seats: Sequence[SeatRecord] | None,
                timers: Sequence[TimerRecord] | None, action: ActionRecord | None,
                outbox: Sequence[OutboxRow], payloads: list[str],
                claim_at: float | None) -> list[Any]:
    """``payloads``: the outbox rows' payloads as stored (``outbox_payloads``)."""
    params: list[Any] = [*table_values, table.id, table.rev]
    if shape.version:
        params.append(expected_version)
    if shape.seats and seats is not None:
        params += [[s.seat for s in seats], [s.user_id for s in seats],
                   [s.name for s in seats], [bool(s.is_bot) for s in seats],
                   [s.ai_kind for s in seats], [bool(s.dm_ok) for s in seats],
                   [s.prompt_version for s in seats]]
    if shape.timers and timers is not None:
        params += [[t.seat for t in timers], [t.kind for t in timers],
                   [float(t.due_at) for t in timers]]
    if shape.action and action is not None:
        params += [action.version, action.seat, canonical(action.action), action.public_text,
                   canonical(action.events), action.source, action.actor_id,
                   float(action.at)]
    if shape.outbox:
        due = [_due(r, claim_at) for r in outbox]
        params += [[r.version for r in outbox], [r.seat for r in outbox], payloads,
                   ["sending" if d else r.state for r, d in zip(outbox, due, strict=True)],
                   [1 if d else 0 for d in due],
                   [float(r.due_at) for r in outbox], [float(r.created_at) for r in outbox]]
    if shape.claim:
        params.append(float(claim_at))  # type: ignore[arg-type]  # shape.claim: not None
    return params


def outbox_payloads(table_id: int, outbox: Sequence[OutboxRow]) -> list[str]:
    return [canonical(with_table_id(r.payload, table_id)) for r in outbox]


def _due(row: OutboxRow, claim_at: float | None) -> bool:
    return claim_at is not None and row.state in _CLAIMABLE and row.due_at <= claim_at


def claimed_rows(rows: list[asyncpg.Record], table_id: int, outbox: Sequence[OutboxRow],
                 payloads: list[str], claim_at: float) -> list[OutboxRow]:
    """What the save's claim took, as ``claim_outbox`` answers: the rows as they were
    before it (a new row ``pending``, with its id), in id order; [] when none was due."""
    old = [_outbox_from_row(r) for r in rows if r["id"] is not None]
    ids: list[int] = list(rows[0]["ids"] or [])
    if not any(r.state != "held" for r in old) and not any(_due(r, claim_at) for r in outbox):
        return []
    # Read back as a claim would read them: the payload as stored, the times as floats.
    # A new row comes along as the claim would take it: held, or due.
    new = [OutboxRow(id=i, table_id=table_id, version=r.version, seat=r.seat,
                     payload=json.loads(text), state=r.state, due_at=float(r.due_at),
                     attempts=0, created_at=float(r.created_at))
           for i, r, text in zip(ids, outbox, payloads, strict=True)
           if r.state == "held" or _due(r, claim_at)]
    return sorted(old + new, key=lambda r: r.id)
