"""PostgreSQL URLs and faults: which errors are the storage's trouble (a StorageError
the service refuses politely) and which are bugs that must show as they are; and the
pooled connection every store operation runs on, which turns the first into StorageError
and never lends out again a connection that failed halfway."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import urllib.parse
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Final

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store.health import StorageError
from bot.store.migrations import NewerSchema
from bot.store.pg_schema import Connection
from bot.store.records import VersionConflict

log = logging.getLogger(__name__)

URL_PREFIXES: Final = ("postgresql://", "postgres://")


class OutageNoise(logging.Filter):
    """asyncpg's pool logs every failed attempt to reconnect its floor of connections as
    a WARNING with a whole traceback, several a second while the server is down: once a
    line is enough for an operator (the store's own errors say the rest)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.getMessage().startswith("Failed to restore the pool"):
            error = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {error})"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


def quiet_pool_outages() -> None:
    """Install ``OutageNoise`` on asyncpg's pool logger, once."""
    pool_log = logging.getLogger("asyncpg.pool")
    if not any(isinstance(f, OutageNoise) for f in pool_log.filters):
        pool_log.addFilter(OutageNoise())


def is_postgres_url(target: str | Path | None) -> bool:
    return isinstance(target, str) and target.startswith(URL_PREFIXES)


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


# SQLSTATE classes that are the storage's trouble, not a bug: what the service refuses
# politely (the transaction was rolled back, so nothing is half done).
_FAULT_CLASSES: Final = {
    "08": ("io_error", "the connection to the database at {where} was lost ({detail})"),
    "53": ("io_error", "the database server at {where} is out of resources ({detail})"),
    "57": ("io_error", "the database server at {where} is shutting down ({detail})"),
    "58": ("io_error", "the database server at {where} has a system error ({detail})"),
    "XX": ("corrupt", "the database server at {where} reports an internal error ({detail})"),
    "40": ("busy", "the database at {where} is busy ({detail})"),
}


def explain(error: BaseException, where: str) -> StorageError | None:
    """The StorageError for a PostgreSQL fault; None for a bug (a constraint violated, a
    bad statement) or a cancellation, which must propagate as it is."""
    if isinstance(error, StorageError):
        return error
    if isinstance(error, asyncpg.InterfaceError) and error.__context__ is not None:
        # "cannot call Transaction.__aexit__(): the connection is closed": the rollback
        # after the fault that matters, which is the one to name.
        cause = explain(error.__context__, where)
        if cause is not None:
            return cause
    detail = str(error).splitlines()[0] if str(error) else type(error).__name__
    if isinstance(error, asyncpg.PostgresError):
        sqlstate = str(getattr(error, "sqlstate", "") or "")
        if sqlstate == "53100":
            return StorageError("disk_full", f"the disk of the database server at {where} "
                                "is full", path=where)
        if sqlstate == "53300":
            return StorageError("busy", f"the database server at {where} has too many "
                                f"connections ({detail})", path=where)
        if sqlstate == "3D000":
            return StorageError("missing", f"no database at {where} ({detail})", path=where)
        if sqlstate.startswith("28"):
            return StorageError("cannot_open", f"cannot log in to {where} ({detail})",
                                path=where)
        found = _FAULT_CLASSES.get(sqlstate[:2])
        if found is None:
            return None
        code, message = found
        return StorageError(code, message.format(where=where, detail=detail), path=where)
    if isinstance(error, NewerSchema):
        return StorageError("newer_schema", f"{where} was written by a newer Urbanist "
                            f"({error}): upgrade Urbanist to use it", path=where)
    if isinstance(error, TimeoutError):  # before OSError, of which it is one
        return StorageError("io_error", f"the database at {where} did not answer in time",
                            path=where)
    if isinstance(error, _LOST):
        # Mid-operation: the server may have committed what it was sent, so io_error,
        # which the service checks by reading the table back.
        return StorageError("io_error", f"the connection to the database at {where} was "
                            f"lost ({detail})", path=where)
    if isinstance(error, asyncpg.InternalClientError):
        # asyncpg's protocol out of step with the server: after a restart, a connection
        # that read the server's goodbye but not yet the end of its socket.
        return StorageError("io_error", f"the connection to the database at {where} broke "
                            f"({detail})", path=where)
    if isinstance(error, (OSError, asyncpg.InterfaceError)):
        return StorageError("cannot_open" if isinstance(error, OSError) else "io_error",
                            f"cannot reach the database at {where} ({detail})", path=where)
    return None


_LOST: Final = (ConnectionResetError, ConnectionAbortedError, BrokenPipeError)


def must_discard(error: BaseException) -> bool:
    """Whether a connection whose operation raised ``error`` must be terminated rather
    than reset and lent again: anything but an ordinary answer of a live server (a
    violated constraint, a conflict), after which the session is known to be sound."""
    if isinstance(error, (VersionConflict, asyncio.CancelledError)):
        # VersionConflict comes after a statement that succeeded; a cancellation is
        # asyncpg's own to settle (it cancels the query and waits before any reset).
        return False
    if isinstance(error, asyncpg.PostgresError):
        sqlstate = str(getattr(error, "sqlstate", "") or "")
        return (isinstance(error, asyncpg.PostgresConnectionError)
                or sqlstate[:2] in ("08", "57", "58", "XX"))
    return True


@contextlib.asynccontextmanager
async def pooled(pool: asyncpg.Pool, where: str) -> AsyncIterator[Connection]:
    """A connection of ``pool`` for one operation. A storage fault, wherever it arises
    (connecting, the statements, giving the connection back), is a StorageError; a
    connection that failed in a way that may leave it mid-protocol is terminated."""
    try:
        conn = await pool.acquire()
    except Exception as exc:
        fault = explain(exc, where)
        if fault is None:
            raise
        if fault.code == "io_error":
            # Nothing of the operation was sent: nothing can be in doubt.
            fault = StorageError("cannot_open", fault.message, path=where)
        raise fault from exc
    try:
        yield conn
    except GeneratorExit:  # the context was abandoned: no await is allowed here
        _terminate(conn)
        raise
    except BaseException as exc:
        if must_discard(exc):
            _terminate(conn)  # also hands its place in the pool back
        await _give_back(pool, conn, where)
        fault = explain(exc, where)
        if fault is None or fault is exc:
            raise
        raise fault from exc
    await _give_back(pool, conn, where)


def _terminate(conn: PoolConnectionProxy[asyncpg.Record]) -> None:
    # A connection that closed on its own is already out of the pool, its proxy
    # detached: terminating it again raises.
    with contextlib.suppress(asyncpg.InterfaceError):
        conn.terminate()


async def _give_back(pool: asyncpg.Pool, conn: PoolConnectionProxy[asyncpg.Record],
                     where: str) -> None:
    """Release ``conn`` to the pool. The operation's outcome is settled by now: a reset
    that fails (the server went away meanwhile) must not turn a done write into an
    error; asyncpg terminates such a connection, and so does this, to be sure."""
    try:
        await pool.release(conn)
    except Exception as exc:
        _terminate(conn)
        log.info("a connection to %s could not be reset and was dropped (%s: %s)", where,
                 type(exc).__name__, exc)
