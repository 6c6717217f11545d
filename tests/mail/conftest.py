"""The real mail servers the mail tests run against (tests/mail/servers.py), and the
databases the mail store is tested on."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mail.servers import imap_server, imap_server_polling, smtp_sink, tls_pair

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bot"))
from store_backends import PgServer, start_pg_server  # type: ignore[import-not-found]

__all__ = ["imap_server", "imap_server_polling", "pg", "smtp_sink", "target", "tls_pair"]


@pytest.fixture(scope="session")
def pg() -> Iterator[PgServer]:
    """One PostgreSQL server for the mail tests that run on both databases."""
    server = start_pg_server()
    yield server
    if server.handle is not None:
        server.handle.cleanup()


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The database: an SQLite file, or a new PostgreSQL database (a plain fixture, out
    of the test's event loop, so it may run its own)."""
    if request.param == "sqlite":
        yield str(tmp_path / "mail.sqlite3")
        return
    server: PgServer = request.getfixturevalue("pg")
    database = asyncio.run(server.new_database())
    yield server.url_of(database)
    asyncio.run(server.drop_database(database))
