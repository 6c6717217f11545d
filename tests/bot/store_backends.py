"""The two store backends for the tests: SQLite in a temp dir, and a real PostgreSQL
server started once per test session by the ``pgserver`` package (it ships the server's
binaries; as root it runs them as a dedicated ``pgserver`` user it creates), with one new
database per test. ``URBANIST_TEST_PG=postgresql://...`` uses that server instead.

A test module runs on both backends when it sets ``BACKENDS = ("sqlite", "postgres")``
or is listed in ``conftest.BOTH_BACKENDS``; its ``store`` (and ``db_url``) then come in
both kinds. Tests that open the SQLite file themselves (they ask for ``db_path``) stay on
SQLite.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

BACKENDS = ("sqlite", "postgres")
_numbers = itertools.count(1)


class PgServer:
    """One PostgreSQL server for the session; ``new_database`` gives each test its own."""

    def __init__(self, url: str, handle: Any = None) -> None:
        self.url = url
        self.handle = handle

    def url_of(self, database: str) -> str:
        # pgserver's URLs carry the socket directory as a query: replace only the path.
        head, sep, query = self.url.partition("?")
        base = head.rsplit("/", 1)[0]
        return f"{base}/{database}{sep}{query}"

    async def admin(self) -> asyncpg.Connection[asyncpg.Record]:
        return await asyncpg.connect(self.url)

    async def new_database(self) -> str:
        name = f"urbanist_test_{os.getpid()}_{next(_numbers)}"
        conn = await self.admin()
        try:
            await conn.execute(f"DROP DATABASE IF EXISTS {name}")
            await conn.execute(f"CREATE DATABASE {name}")
        finally:
            await conn.close()
        return name

    async def drop_database(self, name: str) -> None:
        conn = await self.admin()
        try:
            await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await conn.close()


async def _tune_for_tests(url: str) -> None:
    # Test data is thrown away: no fsync, so a test costs what the code costs, not the
    # disk. The store itself never changes these settings.
    conn = await asyncpg.connect(url)
    try:
        for setting in ("fsync = off", "synchronous_commit = off", "full_page_writes = off"):
            await conn.execute(f"ALTER SYSTEM SET {setting}")
        await conn.execute("SELECT pg_reload_conf()")
    finally:
        await conn.close()


def start_pg_server() -> PgServer:
    given = os.environ.get("URBANIST_TEST_PG")
    if given:
        return PgServer(given)
    # Its own directory, not pytest's tmp_path: pytest prunes old numbered temp dirs,
    # and a short path keeps the server's socket within the length a socket path may
    # have. URBANIST_TEST_PG_KEEP=1 keeps it (and the server's log) after the session.
    base = Path(tempfile.mkdtemp(prefix="urbanist-pg-"))
    keep = os.environ.get("URBANIST_TEST_PG_KEEP") == "1"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: no XDG_RUNTIME_DIR on CI
        import pgserver

        handle = pgserver.get_server(base / "pgdata", cleanup_mode="stop" if keep else "delete")
    server = PgServer(handle.get_uri(), handle)
    asyncio.run(_tune_for_tests(server.url))
    return server


class PgRestarter:
    """Stops and starts the test session's own server (pgserver's) on its data directory
    and socket, as an operator's ``pg_ctl stop`` / ``start`` would."""

    def __init__(self, server: PgServer) -> None:
        if server.handle is None:
            pytest.skip("the server is not this session's own (URBANIST_TEST_PG)")
        from pgserver._commands import pg_ctl

        self.handle = server.handle
        self.pg_ctl = pg_ctl
        self.socket_dir = self.handle.get_postmaster_info().socket_dir
        self.down = False

    def stop(self) -> None:
        # Fast: every backend is told "terminating connection due to administrator
        # command" and closed, as in a restart for an upgrade or a failover.
        self.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.handle.pgdata,
                    user=self.handle.system_user, timeout=120)
        self.down = True

    def start(self) -> None:
        from pgserver.utils import PostmasterInfo

        # The same options pgserver starts it with: no TCP, the same socket directory.
        self.pg_ctl(["-w", "-o", '-h ""', "-o", f"-k {self.socket_dir}", "-l",
                     str(self.handle.log), "start"], pgdata=self.handle.pgdata,
                    user=self.handle.system_user, timeout=120)
        # pgserver stops the server it knows at the end of the session: the new one.
        self.handle._postmaster_info = PostmasterInfo.read_from_pgdata(self.handle.pgdata)
        self.down = False


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    server = start_pg_server()
    yield server
    if server.handle is not None:
        server.handle.cleanup()
        if os.environ.get("URBANIST_TEST_PG_KEEP") != "1":
            shutil.rmtree(server.handle.pgdata.parent, ignore_errors=True)


@pytest.fixture
def pg_restarter(pg_server: PgServer) -> Iterator[PgRestarter]:
    server = PgRestarter(pg_server)
    try:
        yield server
    finally:
        if server.down:  # a failed test must not leave the session without its server
            server.start()


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def db_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """Where the test's database is: an SQLite path (``db_path``'s file) or a new
    PostgreSQL database's URL, dropped after the test. (A plain fixture: it runs outside
    the test's event loop, so it may run its own.)"""
    if backend == "sqlite":
        yield str(tmp_path / "urbanist.sqlite3")
        return
    server: PgServer = request.getfixturevalue("pg_server")
    name = asyncio.run(server.new_database())
    yield server.url_of(name)
    asyncio.run(server.drop_database(name))


def parametrize_backends(metafunc: pytest.Metafunc, modules: frozenset[str]) -> None:
    """conftest's ``pytest_generate_tests``: both backends where the module asks."""
    if "backend" not in metafunc.fixturenames or "db_path" in metafunc.fixturenames:
        return
    name = metafunc.module.__name__.rsplit(".", 1)[-1]
    wanted = getattr(metafunc.module, "BACKENDS", None) or (
        BACKENDS if name in modules else None)
    if wanted and not any(m.name == "parametrize" and "backend" in str(m.args[:1])
                          for m in metafunc.definition.iter_markers()):
        metafunc.parametrize("backend", wanted, indirect=True)


postgres_only = pytest.mark.parametrize("backend", ["postgres"], indirect=True)


def is_postgres(db_url: str) -> bool:
    return db_url.startswith("postgresql://")


async def raw_execute(db_url: str, sql: str, *params: Any) -> None:
    """Run one statement on the database itself, beside the store (``?`` placeholders;
    numbered for PostgreSQL): what a hand-made fix or another program would do."""
    if is_postgres(db_url):
        parts = sql.split("?")
        numbered = "".join(p + (f"${i}" if i < len(parts) else "")
                           for i, p in enumerate(parts, 1))
        conn = await asyncpg.connect(db_url)
        try:
            await conn.execute(numbered, *params)
        finally:
            await conn.close()
    else:
        import sqlite3

        lite = sqlite3.connect(db_url)
        try:
            lite.execute(sql, params)
            lite.commit()
        finally:
            lite.close()


def integrity_errors() -> tuple[type[Exception], ...]:
    """What a violated constraint raises, on either backend."""
    import sqlite3

    return (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
