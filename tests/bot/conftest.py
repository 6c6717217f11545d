"""Fixtures: a real SQLite store in a temp dir, a fake clock, and a notifier that renders
every notification through the templates (so every test also checks the templates)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import fakegame  # registers the fake game
import pytest
from store_backends import backend, db_url, parametrize_backends, pg_restarter, pg_server

from bot.clock import FakeClock
from bot.service import Actor, MemoryNotifier, Notification, TableService, TableSettings
from bot.service.notifications import Delivery
from bot.store import SqliteStore, Store, open_store
from bot.text import Renderer

assert fakegame.NAME == "fakepicks"
# Tests that play whole games with bots use the cheap AI (the product's default level is
# hard, the search: tests/bot/test_levels.py proves it); subprocesses inherit it.
os.environ["URBANIST_BOT_LEVEL"] = "normal"
_FIXTURES = (backend, db_url, pg_server, pg_restarter)  # store_backends' fixtures, used by name

# The service suites that run on PostgreSQL as well as SQLite (see store_backends).
BOTH_BACKENDS = frozenset({"test_actions", "test_lobby", "test_admin", "test_deadlines",
                           "test_settings"})


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    parametrize_backends(metafunc, BOTH_BACKENDS)

RENDERERS = {"en": Renderer(), "fr": Renderer()}


@dataclass
class RenderingNotifier(MemoryNotifier):
    """Keeps every notification and its text in both locales (strict templates)."""

    texts: list[str] = field(default_factory=list)

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        for n in notes:
            for locale, renderer in RENDERERS.items():
                text = renderer.render_template(n.template, n.context, locale=locale,
                                                game=n.game, fallback=n.fallback)
                assert text.strip(), n.template
                if locale == n.locale:
                    self.texts.append(text)
        return await super().deliver(notes)

    def clear(self) -> None:
        super().clear()
        self.texts.clear()


HOST = Actor("u0", "Alice")
PLAYERS = [HOST, Actor("u1", "Bob"), Actor("u2", "Chloé"), Actor("u3", "Dan")]
STRANGER = Actor("u9", "Zed")
MANAGER = Actor("m1", "Mod", manager=True)


@pytest.fixture(autouse=True)
async def _close_forgotten_stores(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    """Closes, after each test, every store it opened and left open (a failed assertion
    between open and close): aiosqlite's thread is not a daemon, so one open store keeps
    pytest from ever exiting. Tests still close their stores in a fixture or finally."""
    opened: list[SqliteStore] = []
    original = SqliteStore.open.__func__  # type: ignore[attr-defined]

    async def tracked(cls: type[SqliteStore], path: str | Path | None = None) -> SqliteStore:
        store: SqliteStore = await original(cls, path)
        opened.append(store)
        return store

    monkeypatch.setattr(SqliteStore, "open", classmethod(tracked))
    yield
    for store in opened:
        if store._conn._connection is not None:
            await store.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "urbanist.sqlite3"


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    s = await open_store(db_url)  # SQLite at db_path unless the module runs on both
    yield s
    await s.close()


@pytest.fixture
def notifier() -> RenderingNotifier:
    return RenderingNotifier()


@pytest.fixture
def service(store: SqliteStore, notifier: RenderingNotifier, clock: FakeClock) -> TableService:
    return TableService(store, notifier, clock=clock)


async def new_table(service: TableService, *, humans: int = 3, bots: int = 0, seed: int = 7,
                    rounds: int = 3, start: bool = True,
                    settings: TableSettings | None = None) -> int:
    """A fakepicks table; seats in join order so seat i is PLAYERS[i] (bots after)."""
    settings = settings or TableSettings(seat_order="join", deadline_seconds=24 * 3600)
    info = await service.create(HOST, "fakepicks", options={"rounds": rounds},
                                settings=settings, seed=seed, channel_id="c1")
    for actor in PLAYERS[1:humans]:
        await service.join(info.id, actor)
    for _ in range(bots):
        await service.add_bot(info.id, HOST)
    if start:
        await service.start(info.id, HOST)
    return info.id
