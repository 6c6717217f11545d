"""Serving the pages: beside the bot (``urbanist run --web HOST:PORT``, over the bot's own
store) or on their own (``urbanist web``, over the same database: an SQLite file opened
read-only, so it may serve pages while the bot runs, or any number of processes on one
PostgreSQL)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

from bot.store.interface import Store
from bot.web.app import WebApp

log = logging.getLogger(__name__)

PUBLIC_URL_VARIABLE = "URBANIST_PUBLIC_URL"


@dataclass
class WebServer:
    app: WebApp
    runner: web.AppRunner
    site: web.TCPSite

    @property
    def port(self) -> int:
        server = self.site._server
        sockets = getattr(server, "sockets", None) or []
        return int(sockets[0].getsockname()[1]) if sockets else 0

    async def stop(self) -> None:
        await self.runner.cleanup()


async def start_web(store: Store, host: str, port: int, *, poll: float = 1.0,
                    fresh: float = 0.5, spread: float = 0.5) -> WebServer:
    """Serve the pages over ``store`` (which the caller keeps and closes) on
    ``host:port`` (port 0: any free one, see ``WebServer.port``)."""
    web_app = WebApp(store, poll=poll, fresh=fresh, spread=spread)
    runner = web.AppRunner(web_app.application(), access_log=None, shutdown_timeout=2.0)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    server = WebServer(web_app, runner, site)
    log.info("table pages on http://%s:%d/", host, server.port)
    return server


async def open_for_pages(target: str | Path) -> Store:
    """The store for ``urbanist web``: PostgreSQL as it is, SQLite read-only (the bot
    keeps the file; WAL lets readers in beside it)."""
    from bot.store.pg_faults import is_postgres_url

    if is_postgres_url(str(target)):
        from bot.store.factory import open_store

        return await open_store(target)
    from bot.store.sqlite_read_only import open_read_only

    return await open_read_only(str(target))


async def serve(target: str | Path, host: str, port: int) -> int:
    from bot.store import pages
    from bot.store.factory import describe

    store = await open_for_pages(target)
    if not await pages.ready(store):
        await store.close()
        print(f"urbanist web: the database {describe(target)} is older than the table "
              "pages: start the bot on it once (it brings the database up to date), then "
              "try again", file=sys.stderr)
        return 3
    server = await start_web(store, host, port)
    print(f"urbanist web: serving the table pages on http://{host}:{server.port}/",
          file=sys.stderr)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await server.stop()
        await store.close()
    return 0


def web_command(args: argparse.Namespace) -> int:
    from bot.store.factory import default_target

    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    host, port = args.listen
    return asyncio.run(serve(args.db or default_target(), host, port))


def public_url() -> str | None:
    """``$URBANIST_PUBLIC_URL`` without its trailing slash, or None when unset."""
    value = os.environ.get(PUBLIC_URL_VARIABLE, "").strip().rstrip("/")
    return value or None
