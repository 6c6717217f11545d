"""One SQLite transaction as a context manager, for the store's modules."""

from __future__ import annotations

import sqlite3


class Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self._conn.execute("BEGIN IMMEDIATE")
        return self._conn

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self._conn.execute("COMMIT")
        elif self._conn.in_transaction:
            # SQLite has already rolled back on some errors (a full disk): a second
            # ROLLBACK would fail and hide the error that matters.
            self._conn.execute("ROLLBACK")
