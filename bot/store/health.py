"""The database's health: opening it with errors a person can act on, checking it,
keeping its write-ahead log small, and one bot process per database file.

Every storage fault a command can meet at open (a directory that is missing or read-only,
a file that is not a database, a corrupted one, one from a newer Urbanist) becomes a
:class:`StorageError`: one line that says what is wrong with which file, which the
command line prints before exiting with :data:`EXIT_STORAGE`. A connection whose open
failed is always closed, since aiosqlite's thread would otherwise keep the process alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import json
import os
import shutil
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import aiosqlite

from bot.store.migrations import NewerSchema

EXIT_STORAGE: Final = 3
"""Exit code of a command stopped by a storage fault (1 is "check found problems")."""

JOURNAL_SIZE_LIMIT: Final = 8 * 1024 * 1024
"""Bytes the WAL file is truncated back to when a checkpoint restarts it. Without it the
file keeps the size of its largest burst (307 MB on an 18 MB database under back-to-back
backups, whose long reads hold checkpoints back). SQLite checkpoints on its own every
1,000 pages (4 MB), so 8 MB never truncates a log in ordinary use."""

MAX_PROBLEMS: Final = 100
"""Problems ``check`` lists before summing up the rest."""

MEMORY: Final = ":memory:"


class StorageError(Exception):
    """A storage fault, with a stable ``code`` and a one-line message naming the file.

    Codes: ``missing``, ``cannot_open``, ``read_only``, ``not_a_database``, ``corrupt``,
    ``newer_schema``, ``disk_full``, ``io_error``, ``busy``, ``in_use``.
    """

    def __init__(self, code: str, message: str, *, path: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path

    def __str__(self) -> str:
        return self.message


# SQLite's primary result codes (the low byte of an extended code) and what they mean here.
_BY_SQLITE_CODE: Final[dict[str, tuple[str, str]]] = {
    "SQLITE_NOTADB": ("not_a_database", "{path} is not an SQLite database"),
    "SQLITE_CORRUPT": ("corrupt", "{path} is corrupted ({detail}): restore it from a backup"),
    "SQLITE_CANTOPEN": ("cannot_open", "cannot open {path} ({detail}): check that its "
                        "directory exists and is writable"),
    "SQLITE_READONLY": ("read_only", "{path} is read-only ({detail}): the bot needs to "
                        "write it and its directory"),
    "SQLITE_PERM": ("read_only", "no permission to write {path} ({detail})"),
    "SQLITE_FULL": ("disk_full", "the disk holding {path} is full: free some space, then "
                    "try again"),
    "SQLITE_IOERR": ("io_error", "input/output error on {path} ({detail})"),
    "SQLITE_BUSY": ("busy", "{path} is locked by another connection ({detail})"),
    "SQLITE_LOCKED": ("busy", "{path} is locked by another connection ({detail})"),
}


# The OSErrors of a disk rather than of a path (a full disk, a read-only mount, a dying
# disk), whoever meets them: SQLite's own I/O, a lock file, the command's output.
_BY_ERRNO: Final[dict[int, tuple[str, str]]] = {
    errno.ENOSPC: ("disk_full", "the disk holding {path} is full: free some space, then "
                   "try again"),
    errno.EDQUOT: ("disk_full", "the disk quota for {path} is used up: free some space, "
                   "then try again"),
    errno.EROFS: ("read_only", "{path} is on a read-only file system, and must be "
                  "written: mount it read-write, or give another path"),
    errno.EIO: ("io_error", "input/output error on {path} ({detail}): check the disk, "
                "then try again"),
}
NEARLY_FULL: Final = 1024 * 1024
"""Free bytes under which a disk I/O error is taken for a full disk: SQLite reports one
growing its shared-memory file on a full disk as SQLITE_IOERR, not SQLITE_FULL."""


def disk_fault(error: OSError, path: str) -> StorageError | None:
    """The StorageError for an OSError of the disk met while writing ``path``; None for
    any other OSError."""
    found = _BY_ERRNO.get(error.errno or 0)
    if found is None:
        return None
    code, template = found
    return StorageError(code, template.format(path=path, detail=error.strerror or error),
                        path=path)


def _nearly_full(path: str) -> bool:
    if path == MEMORY or path.startswith("file:"):
        return False
    try:
        return shutil.disk_usage(Path(path).absolute().parent).free < NEARLY_FULL
    except OSError:
        return False


def explain(error: BaseException, path: str) -> StorageError | None:
    """The StorageError for an exception met while using ``path``; None if it is not a
    storage fault (a bug, a cancellation), which must then propagate as it is."""
    if isinstance(error, StorageError):
        return error
    if isinstance(error, NewerSchema):
        return StorageError(
            "newer_schema",
            f"{path} was written by a newer Urbanist (schema {error.found}; this one "
            f"knows {error.known}): upgrade Urbanist, or restore a backup of that era",
            path=path)
    if isinstance(error, sqlite3.Error):
        name = getattr(error, "sqlite_errorname", "") or ""
        if name.startswith("SQLITE_IOERR") and _nearly_full(path):
            name = "SQLITE_FULL"
        for prefix, (code, template) in _BY_SQLITE_CODE.items():
            # Extended names extend the primary one: SQLITE_READONLY_DIRECTORY, ...
            if name == prefix or name.startswith(prefix + "_"):
                return StorageError(code, template.format(path=path, detail=error), path=path)
        if "malformed" in str(error):
            return StorageError("corrupt", f"{path} is corrupted ({error}): restore it from "
                                "a backup", path=path)
        return StorageError("io_error", f"database error on {path}: {error}", path=path)
    if isinstance(error, OSError):
        return disk_fault(error, path) or StorageError(
            "cannot_open", f"cannot use {path}: {error.strerror or error}", path=path)
    return None


def require_directory(path: str) -> None:
    """Refuse at once a database whose directory does not exist (SQLite would only say
    "unable to open database file")."""
    if path == MEMORY or path.startswith("file:"):
        return
    parent = Path(path).absolute().parent
    if not parent.is_dir():
        what = "is not a directory" if parent.exists() else "does not exist"
        raise StorageError("cannot_open", f"cannot open {path}: {parent} {what}", path=path)


def require_existing(path: str) -> None:
    """For commands that read a database and must never create one (``check``,
    ``backup``)."""
    if path != MEMORY and not Path(path).is_file():
        what = "is not a file" if Path(path).exists() else "does not exist"
        raise StorageError("missing", f"no database at {path} (it {what})", path=path)


async def connect(path: str) -> aiosqlite.Connection:
    """aiosqlite's connect, with its failure turned into a StorageError."""
    require_directory(path)
    # isolation_level=None: the store issues BEGIN/COMMIT itself, so a transaction is
    # exactly what the code says it is.
    connection = aiosqlite.connect(path, isolation_level=None)
    try:
        return await connection
    except sqlite3.Error as exc:
        # aiosqlite queued its thread's stop; let the thread end before the event loop
        # may close, or its last callback raises "Event loop is closed".
        thread = connection._thread
        await asyncio.to_thread(thread.join, 5)
        fault = explain(exc, path)
        assert fault is not None
        raise fault from exc


def damaged(path: str, problems: Sequence[str]) -> StorageError:
    """The refusal of a write to a file that failed its quick check at open."""
    first = " ".join(problems[0].split())  # one line, whatever SQLite's text holds
    more = f" and {len(problems) - 1} more problems" if len(problems) > 1 else ""
    return StorageError("corrupt", f"{path} is corrupted ({first}{more}): nothing is "
                        f"written to it; run `urbanist check --db {path}` to list the "
                        "problems, then restore it from a backup", path=path)


async def close_quietly(conn: aiosqlite.Connection) -> None:
    """Close a connection whose open failed; a second error would only hide the first."""
    with contextlib.suppress(Exception):
        await conn.close()


# -- checks ------------------------------------------------------------------------------

# Columns holding canonical JSON text, by table; NULL is allowed where the schema allows it.
_JSON_COLUMNS: Final = {
    "tables": ("id", ("options", "reminders", "outcome", "snapshot")),
    "actions": ("table_id || '/' || version", ("action", "events")),
}


def integrity_problems(conn: sqlite3.Connection, limit: int = MAX_PROBLEMS) -> list[str]:
    """Every problem found, as lines: SQLite's integrity and foreign-key checks, then rows
    whose JSON does not decode. A read that fails is one more problem, never an end."""
    problems: list[str] = []
    try:
        problems += [f"integrity: {line}" for line in _check_lines(conn, "integrity_check")]
    except sqlite3.DatabaseError as exc:
        problems.append(f"integrity: the check itself failed: {exc}")
    try:
        problems += [f"foreign key: {tuple(r)}" for r in conn.execute("PRAGMA foreign_key_check")]
    except sqlite3.DatabaseError as exc:
        problems.append(f"foreign key: the check itself failed: {exc}")
    for table, (key, columns) in _JSON_COLUMNS.items():
        problems += _json_problems(conn, table, key, columns)
    if len(problems) > limit:
        problems = [*problems[:limit], f"... and {len(problems) - limit} more problems"]
    return problems


def _json_problems(conn: sqlite3.Connection, table: str, key: str,
                   columns: tuple[str, ...]) -> Iterator[str]:
    sql = f"SELECT {key}, {', '.join(columns)} FROM {table}"  # names: the constants above
    rows = 0
    try:
        for row in conn.execute(sql):
            rows += 1
            for column, value in zip(columns, row[1:], strict=True):
                if value is None:
                    continue
                try:
                    json.loads(value)
                except (TypeError, ValueError) as exc:
                    yield f"{table} {row[0]}: {column} is not JSON ({exc})"
    except sqlite3.DatabaseError as exc:
        yield f"{table}: reading stopped after {rows} rows: {exc}"


def table_ids_at(path: str) -> tuple[list[int], list[str]]:
    """The ids of the tables ``check`` replays (running, paused, finished), read on a
    read-only connection without decoding their rows, so that one bad row cannot stop
    the listing; and the problem that stopped the reading, if any."""
    ids: list[int] = []
    if path == MEMORY:
        return ids, []
    try:
        conn = sqlite3.connect(Path(path).absolute().as_uri() + "?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return ids, [f"tables: cannot be listed: {exc}"]
    try:
        for row in conn.execute("SELECT id FROM tables WHERE status IN "
                                "('running', 'paused', 'finished') ORDER BY id"):
            ids.append(int(row[0]))
    except sqlite3.DatabaseError as exc:
        return ids, [f"tables: reading stopped after {len(ids)} rows: {exc}"]
    finally:
        conn.close()
    return ids, []


def _check_lines(conn: sqlite3.Connection, pragma: str) -> list[str]:
    """The problems SQLite's ``integrity_check`` or ``quick_check`` reports, one a line
    (a row may hold several lines, the first naming the schema)."""
    return [line for (text,) in conn.execute(f"PRAGMA {pragma}({MAX_PROBLEMS})")
            for line in str(text).splitlines()
            if line != "ok" and not line.startswith("*** in database")]


def quick_problems(conn: sqlite3.Connection) -> list[str]:
    """SQLite's quick check (no index cross-check): what ``backup`` looks at first."""
    try:
        return _check_lines(conn, "quick_check")
    except sqlite3.DatabaseError as exc:
        return [str(exc)]


@dataclass(frozen=True)
class Checkpoint:
    busy: bool  # another connection kept a snapshot: the log could not be emptied
    log_pages: int
    checkpointed: int


def checkpoint(conn: sqlite3.Connection) -> Checkpoint:
    """Copy the whole WAL into the database and truncate it to zero bytes when nobody
    reads an older snapshot; otherwise as much as possible (SQLite's TRUNCATE mode)."""
    busy, log_pages, done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return Checkpoint(bool(busy), int(log_pages), int(done))


def backup_to(conn: sqlite3.Connection, target: Path, *,
              checkpoint_source: bool = True) -> None:
    """Copy the database behind ``conn`` to ``target``: refused if the source fails its
    quick check, written to a temporary file that replaces ``target`` only when
    complete, then (with ``checkpoint_source``) the source's WAL is checkpointed."""
    source = conn.execute("PRAGMA database_list").fetchone()[2] or MEMORY
    if source != MEMORY and target.exists() and target.resolve() == Path(source).resolve():
        raise StorageError("cannot_open", f"{target} is the database itself", path=str(target))
    problems = quick_problems(conn)
    if problems:
        more = f" and {len(problems) - 1} more problems" if len(problems) > 1 else ""
        raise StorageError("corrupt", f"{source} is corrupted ({problems[0]}{more}): not "
                           "backed up; `urbanist check` lists the problems", path=source)
    require_directory(str(target))
    partial = target.with_name(target.name + ".partial")
    try:
        partial.unlink(missing_ok=True)  # the leftover of an interrupted backup
        copy = sqlite3.connect(str(partial))
        try:
            # All pages in one step: a paced copy restarts whenever another process
            # writes, and under load never ends while the WAL grows behind it.
            conn.backup(copy, pages=-1)
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            copy.close()
        os.replace(partial, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            partial.unlink()
        fault = explain(exc, str(target))
        if fault is None:
            raise
        raise fault from exc
    if source != MEMORY and checkpoint_source:
        checkpoint(conn)


# -- one process per file ----------------------------------------------------------------

# Linux keeps flock() and SQLite's POSIX record locks apart, so the database file itself
# can carry the lock; where the two interact (the BSDs, macOS, NFS), a lock on the whole
# file would shut SQLite out of it, and only the lock file guards the database.
_LOCK_THE_FILE: Final = sys.platform.startswith("linux")


def lock_path(database: Path) -> Path:
    """``<database>.lock`` beside the file a symlink or a relative path leads to."""
    real = Path(os.path.realpath(database))
    return real.with_name(real.name + ".lock")


@dataclass
class ProcessLock:
    """Exclusive ``flock``s on the database file itself (every name of it reaches the
    same inode: a symlink, a hard link, a bind mount) and on ``<database>.lock``, which
    holds the pid for the refusal to name. The kernel releases them when the process
    ends, however it ends. The lock file stays: removing it would let a third process
    lock a new file while the second still holds the old one."""

    path: Path
    fd: int
    key: tuple[int, int] = (0, 0)  # the database's device and inode
    database_fd: int = -1

    def release(self) -> None:
        """Let the file go (tests). Only with no store open on it in this process:
        closing a descriptor of the database drops this process's SQLite locks too."""
        for fd in (self.fd, self.database_fd):
            if fd >= 0:
                os.close(fd)  # closing the descriptor drops the lock
        self.fd = self.database_fd = -1
        _HELD.pop(self.key, None)


_HELD: dict[tuple[int, int], ProcessLock] = {}


def hold_database(database: str | Path) -> ProcessLock | None:
    """Take the database file for this process, for the rest of its life.

    Raises StorageError ``in_use`` if another process holds it, by whatever name.
    ``check`` and ``backup`` do not call this: they may run beside the bot. None for an
    in-memory database.
    """
    if str(database) == MEMORY:
        return None
    require_directory(str(database))
    with contextlib.suppress(OSError):
        st = os.stat(database)
        if (st.st_dev, st.st_ino) in _HELD:
            # Held already: opening and closing the file again here would drop the
            # SQLite locks of this process's open stores (POSIX locks are per process).
            return _HELD[(st.st_dev, st.st_ino)]
    database_fd = _open_database(database)
    try:
        if _LOCK_THE_FILE and not _flock(database_fd):
            raise _in_use(database, _holder(lock_path(Path(database))))
        fd = _lock_file(database)
    except BaseException:
        os.close(database_fd)
        raise
    st = os.fstat(database_fd)
    lock = ProcessLock(lock_path(Path(database)), fd, (st.st_dev, st.st_ino), database_fd)
    _HELD[lock.key] = lock
    return lock


def _open_database(database: str | Path) -> int:
    # Created if missing (SQLite takes an empty file for an empty database), and kept
    # open for the process's life where it is not locked too: it is the key of _HELD.
    try:
        return os.open(database, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise (disk_fault(exc, str(database)) or StorageError(
            "cannot_open", f"cannot open {database} ({exc.strerror or exc})",
            path=str(database))) from exc


def _flock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _holder(path: Path) -> str:
    """The pid written in the lock file by the process that holds it now, or "": the
    file may be free (the database's holder reached it by another name, whose lock file
    is elsewhere) and hold the pid of a process long gone."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return ""
    try:
        if _flock(fd):
            return ""  # nobody holds it: closing the descriptor lets it go again
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    finally:
        os.close(fd)
    return text if text.isdigit() else ""


def _in_use(database: str | Path, holder: str) -> StorageError:
    who = f" (pid {holder})" if holder else ""
    return StorageError(
        "in_use", f"{database} is already used by another Urbanist process{who}: "
        "stop it first (check and backup may run beside it)", path=str(database))


def _lock_file(database: str | Path) -> int:
    path = lock_path(Path(database))
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise (disk_fault(exc, str(database)) or StorageError(
            "cannot_open", f"cannot create the lock file {path} ({exc.strerror or exc}): "
            "the database's directory must be writable", path=str(database))) from exc
    if not _flock(fd):
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        os.close(fd)
        raise _in_use(database, holder if holder.isdigit() else "")
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    except OSError as exc:  # a full disk, most likely: the database could not grow either
        os.close(fd)
        raise (disk_fault(exc, str(database)) or StorageError(
            "cannot_open", f"cannot write the lock file {path} ({exc.strerror or exc})",
            path=str(database))) from exc
    return fd
