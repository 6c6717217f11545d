"""The pages in a real browser: Debian's Chromium driven by Playwright (never its own
downloaded browsers). A move arrives on an open page without reloading it; a replay
steps with the keyboard; a private table opens by its token, not its number; and no
rendered page of any game shows a seat's private marker."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.service import TableService
from bot.store import Store, pages
from bot.web.server import WebServer, start_web
from tests.web.webgames import (
    GAMES,
    bot_game,
    leaked,
    live_table,
    markers_by_version,
    play_one,
)

playwright_api = pytest.importorskip("playwright.async_api")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
if not shutil.which(CHROMIUM):
    pytest.skip("no Chromium (apt-get install chromium; .ci/run does)",
                allow_module_level=True)


@pytest.fixture
async def server(store: Store) -> AsyncIterator[WebServer]:
    started = await start_web(store, "127.0.0.1", 0, poll=0.1, fresh=0.0, spread=0.0)
    yield started
    await started.stop()


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    async with playwright_api.async_playwright() as p:
        context = await p.chromium.launch_persistent_context(
            tempfile.mkdtemp(prefix="urbanist-chromium-"), executable_path=CHROMIUM,
            args=FLAGS, headless=True)
        try:
            yield context
        finally:
            await context.close()


def url(server: WebServer, path: str) -> str:
    return f"http://127.0.0.1:{server.port}{path}"


async def test_a_move_arrives_on_an_open_page_without_reloading(
        service: TableService, server: WebServer, browser: Any) -> None:
    table = await live_table(service)
    page = await browser.new_page()
    await page.goto(url(server, f"/t/{table}"))
    # The deadline, written in UTC by the server, is said in the reader's own zone.
    deadline = page.locator("p.turn time")
    assert await deadline.get_attribute("datetime")
    assert "UTC" not in await deadline.inner_text()
    before = (await service.info(table)).version
    assert await page.locator(f"#v{before}").count() == 1
    await page.evaluate("window.stayed = true")  # gone if the page reloads
    played = await play_one(service, table)
    after = (await service.info(table)).version
    await page.locator(f"#v{after}").wait_for(timeout=10_000)
    assert await page.evaluate("window.stayed === true")
    text = await page.locator(f"#v{before + 1}").inner_text()
    assert "Alice" in text
    assert played  # the move Alice made is the line that arrived
    status = await page.locator("[data-updated]").inner_text()
    assert status == "The page was updated with the latest moves."


async def test_a_replay_steps_with_the_arrow_keys(
        service: TableService, server: WebServer, browser: Any) -> None:
    table = await bot_game(service, "skybridge", seats=2, seed=5)
    last = (await service.info(table)).version
    page = await browser.new_page()
    await page.goto(url(server, f"/t/{table}/replay/1"))
    assert await page.locator("h2#step").inner_text() == "The start of the game"
    for key, version in (("ArrowRight", 2), ("ArrowRight", 3), ("ArrowLeft", 2),
                         ("End", last), ("Home", 1)):
        await page.keyboard.press(key)
        await page.wait_for_url(url(server, f"/t/{table}/replay/{version}"))
        board = page.locator("figure.board img")
        assert await board.get_attribute("alt")
        await page.wait_for_function(
            "document.querySelector('figure.board img').naturalWidth > 0")
    # And by keyboard alone, with the links: Tab reaches the next step and Enter takes it.
    await page.goto(url(server, f"/t/{table}/replay/2"))
    for _ in range(12):
        await page.keyboard.press("Tab")
        if await page.evaluate("document.activeElement.getAttribute('rel')") == "next":
            break
    await page.keyboard.press("Enter")
    await page.wait_for_url(url(server, f"/t/{table}/replay/3"))


async def test_a_private_table_opens_by_its_token_not_its_number(
        service: TableService, store: Store, server: WebServer, browser: Any) -> None:
    table = await live_table(service)
    access = await pages.set_public(store, table, False)
    page = await browser.new_page()
    refused = await page.goto(url(server, f"/t/{table}"))
    assert refused is not None and refused.status == 404
    assert "There is no such page" in await page.locator("h1").inner_text()
    opened = await page.goto(url(server, f"/p/{access.token}"))
    assert opened is not None and opened.status == 200
    assert await page.locator("h1").inner_text() == f"Skybridge, table #{table}"


@pytest.mark.parametrize("game", GAMES)
async def test_no_rendered_page_shows_a_private_marker(
        game: str, service: TableService, store: Store, server: WebServer,
        browser: Any) -> None:
    table = await bot_game(service, game, seats=2, seed=3)
    last = (await service.info(table)).version
    page = await browser.new_page()
    for version, markers in await markers_by_version(store, table, {2, last // 2}):
        await page.goto(url(server, f"/t/{table}/replay/{version}"))
        shown = await page.locator("body").inner_text()
        alts = " ".join(await page.locator("img").evaluate_all(
            "images => images.map(i => i.alt)"))
        assert alts.strip()
        assert not leaked(shown + " " + alts, markers), version
