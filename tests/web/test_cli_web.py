"""``urbanist web`` on its own, over the database a running bot writes (SQLite, read
only), and ``urbanist run --web``'s address."""

from __future__ import annotations

import asyncio
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.cli import build_parser, main
from bot.service import MemoryNotifier, TableService
from bot.store import SqliteStore
from bot.store.migrations import migrations
from tests.web.webgames import live_table, play_one


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_urbanist_web_serves_the_database_a_running_bot_writes(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    store = await SqliteStore.open(path)  # the bot: it holds the file and writes it
    service = TableService(store, MemoryNotifier())
    port = free_port()
    web = subprocess.Popen([sys.executable, "-m", "bot.cli", "web", f"127.0.0.1:{port}",
                            "--db", str(path)], stderr=subprocess.PIPE)
    try:
        table = await live_table(service)
        async with aiohttp.ClientSession() as session:
            for _ in range(200):  # its start
                try:
                    async with session.get(f"http://127.0.0.1:{port}/t/{table}") as answer:
                        first = await answer.text()
                        break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.05)
            else:
                pytest.fail("urbanist web did not answer")
            await play_one(service, table)
            after = (await service.info(table)).version
            await asyncio.sleep(0.6)  # a read is reused for half a second at most
            async with session.get(f"http://127.0.0.1:{port}/t/{table}") as answer:
                second = await answer.text()
        assert f'id="v{after}"' not in first and f'id="v{after}"' in second
    finally:
        web.send_signal(signal.SIGINT)
        _, err = web.communicate(timeout=30)
        await service.close()
        await store.close()
    assert web.returncode == 0, err


def test_a_database_older_than_the_pages_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    for migration in migrations()[:7]:  # before the pages' tables
        conn.executescript(migration.sql)
    conn.execute("PRAGMA user_version = 7")
    conn.close()
    assert main(["web", "127.0.0.1:0", "--db", str(path)]) == 3
    err = capsys.readouterr().err
    assert "older than the table pages" in err and "Traceback" not in err


def test_listen_addresses() -> None:
    parser = build_parser()
    assert parser.parse_args(["web", "0.0.0.0:8080"]).listen == ("0.0.0.0", 8080)
    assert parser.parse_args(["web", ":9000"]).listen == ("0.0.0.0", 9000)
    assert parser.parse_args(["web", "[::1]:8080"]).listen == ("::1", 8080)
    assert parser.parse_args(["web"]).listen == ("127.0.0.1", 8080)
    assert parser.parse_args(["run", "--web", "127.0.0.1:8081"]).web == ("127.0.0.1", 8081)
    for wrong in ("8080", "host:port", "h:70000"):
        with pytest.raises(SystemExit):
            parser.parse_args(["web", wrong])
