"""Fixtures for the web pages: a real store (SQLite, or PostgreSQL where a module asks for
both), the table service that plays the games, and the pages' application served by
aiohttp's test server over the same store."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bot"))

from store_backends import (
    backend,
    db_url,
    parametrize_backends,
    pg_server,
)

from bot.service import MemoryNotifier, TableService
from bot.store import Store, open_store
from bot.web.app import WebApp

_FIXTURES = (backend, db_url, pg_server)  # store_backends' fixtures, used by name
# Bots play the cheap AI: the pages, not the search, are under test (a table made through
# Discord gets the default level).
os.environ["URBANIST_BOT_LEVEL"] = "normal"  # as tests/bot: one value for the whole run


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    parametrize_backends(metafunc, frozenset())


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    s = await open_store(db_url)
    yield s
    await s.close()


@pytest.fixture
async def service(store: Store) -> AsyncIterator[TableService]:
    # The real clock: the index lists tables by how recently they moved.
    s = TableService(store, MemoryNotifier())
    yield s
    await s.close()


@pytest.fixture
def webapp(store: Store) -> WebApp:
    # Every request reads the table again (fresh=0): a test sees a move at once. The
    # tests of reading once per change make their own.
    return WebApp(store, poll=0.05, fresh=0.0, spread=0.0)


@pytest.fixture
async def client(webapp: WebApp) -> AsyncIterator[TestClient[object, object]]:
    async with TestClient(TestServer(webapp.application())) as c:
        yield c
