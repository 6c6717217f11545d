"""One SQLite transaction as a context manager, for the store's modules."""

from __future__ import annotations

import sqlite3


class Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error. Inside a transaction already
    (a group commit's, ``bot.store.sqlite_save``), it adds nothing: the group's savepoint
    undoes this part alone when it raises, and the group commits it with the rest."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._inner = False

    def __enter__(self) -> sqlite3.Connection:
        self._inner = self._conn.in_transaction
        if not self._inner:
            self._conn.execute("BEGIN IMMEDIATE")
        return self._conn

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if self._inner:
            return
        if exc_type is None:
            self._conn.execute("COMMIT")
        elif self._conn.in_transaction:
            # SQLite has already rolled back on some errors (a full disk): a second
            # ROLLBACK would fail and hide the error that matters.
            self._conn.execute("ROLLBACK")
