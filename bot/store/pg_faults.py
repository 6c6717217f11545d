"""PostgreSQL URLs and faults: which errors are the storage's trouble (a StorageError
the service refuses politely) and which are bugs that must show as they are."""

from __future__ import annotations

import urllib.parse
from pathlib import Path
from typing import Final

import asyncpg

from bot.store.health import StorageError
from bot.store.migrations import NewerSchema

URL_PREFIXES: Final = ("postgresql://", "postgres://")


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
    if isinstance(error, (OSError, asyncpg.InterfaceError, TimeoutError)):
        return StorageError("cannot_open" if isinstance(error, OSError) else "io_error",
                            f"cannot reach the database at {where} ({detail})", path=where)
    return None
