"""Several bot processes on one PostgreSQL each serve the pages: a page served by one
process follows the moves another process applies (each with its own store, as two
processes would have)."""

from __future__ import annotations

from aiohttp.test_utils import TestClient, TestServer
from store_backends import postgres_only

from bot.service import MemoryNotifier, TableService
from bot.store import open_store
from bot.web.app import WebApp
from tests.web.webgames import live_table, play_one


@postgres_only
async def test_a_page_follows_moves_another_process_applies(db_url: str) -> None:
    playing = await open_store(db_url)  # the process where the player's click lands
    serving = await open_store(db_url)  # the process that serves the page
    service = TableService(playing, MemoryNotifier())
    try:
        table = await live_table(service)
        web = WebApp(serving, poll=0.05, fresh=0.0, spread=0.0)
        async with TestClient(TestServer(web.application())) as client:
            stream = await client.get(f"/t/{table}/events")
            await play_one(service, table)
            after = (await service.info(table)).version
            seen = b""
            while b"event: change" not in seen:
                seen += await stream.content.readany()
            stream.close()
            html = await (await client.get(f"/t/{table}")).text()
        assert f'id="v{after}"' in html
    finally:
        await service.close()
        await playing.close()
        await serving.close()
