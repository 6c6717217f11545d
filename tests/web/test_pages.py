"""The pages over HTTP (aiohttp's test client): what a table's page, its replay, its
images, the index and a player's page show, in English and French, and what they refuse."""

from __future__ import annotations

import asyncio
import re

from aiohttp.test_utils import TestClient, TestServer

from bot.service import TableService, TableSettings
from bot.store import Store, pages
from bot.web.app import WebApp
from tests.web.webgames import HOST, bot_game, live_table, play_one

PNG = b"\x89PNG\r\n\x1a\n"


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


async def test_a_live_tables_page_says_who_plays_until_when(
        service: TableService, client: TestClient[object, object]) -> None:
    table = await live_table(service)
    info = await service.info(table)
    answer = await client.get(f"/t/{table}")
    assert answer.status == 200
    html = await answer.text()
    words = text_of(html)
    assert "Skybridge, table #" in words and "In play" in words
    assert "Waiting for Alice" in words
    deadline = info.deadlines[0]
    # The deadline goes as a machine time the page shows in the reader's own zone.
    from bot.web.views import iso
    assert f'<time datetime="{iso(deadline)}" data-local>' in html
    assert "Alice" in words and "Bot 1" in words
    # The board at this version, with words for whoever cannot see it.
    board = re.search(r'<img src="(/t/\d+/board-(\d+)\.png)" alt="([^"]+)"', html)
    assert board is not None and int(board.group(2)) == info.version
    assert "Skybridge board" in board.group(3)
    image = await client.get(board.group(1))
    assert image.status == 200 and (await image.read()).startswith(PNG)


async def test_the_log_reads_as_the_channels_news_in_the_tables_language(
        service: TableService, store: Store, client: TestClient[object, object]) -> None:
    table = await live_table(service, locale="fr")
    played = await play_one(service, table)
    html = await (await client.get(f"/t/{table}")).text()
    assert '<html lang="fr">' in html
    words = text_of(html)
    assert "En cours" in words and "Alice" in words
    # The log's sentences come from the news templates (Skybridge tells a move in words).
    from bot.text import Renderer
    record = await store.load_table(table)
    assert record is not None
    actions = await store.load_actions(table)
    mine = next(a for a in actions if a.seat == 0 and a.public_text == played)
    first = mine.events[0]
    sentence = Renderer().render_template(
        f"event_{first['kind']}", {"table_id": table, "game": "skybridge",
                                   "names": ["Alice", "Bot 1"], "seat": None, "name": None,
                                   "version": mine.version, "status": record.status,
                                   "host_id": HOST.user_id, **first["data"],
                                   "data": first["data"], "event": first["kind"],
                                   "to_seat": None},
        locale="fr", game="skybridge", fallback="event")
    assert " ".join(sentence.split()).split(".")[0] in words
    english = text_of(await (await client.get(f"/t/{table}?lang=en")).text())
    assert "In play" in english and "En cours" not in english


async def test_a_replay_steps_through_every_public_state(
        service: TableService, client: TestClient[object, object]) -> None:
    table = await bot_game(service, "skybridge", seats=2, seed=5)
    info = await service.info(table)
    start = await client.get(f"/t/{table}/replay", allow_redirects=False)
    assert start.status == 302 and start.headers["Location"] == f"/t/{table}/replay/1"
    first = await (await client.get(f"/t/{table}/replay/1")).text()
    assert "The start of the game" in text_of(first)
    assert f'href="/t/{table}/replay/2" rel="next"' in first and 'rel="prev"' not in first
    middle = await (await client.get(f"/t/{table}/replay/3")).text()
    assert "Move 2 of" in text_of(middle)
    assert f'href="/t/{table}/replay/2" rel="prev"' in middle
    assert f'<img src="/t/{table}/board-3.png"' in middle
    last = await (await client.get(f"/t/{table}/replay/{info.version}")).text()
    assert 'rel="next"' not in last
    assert (await client.get(f"/t/{table}/replay/{info.version + 1}")).status == 404
    assert (await client.get(f"/t/{table}/replay/0")).status == 404
    # Boards of different steps differ; each is a PNG.
    two = await (await client.get(f"/t/{table}/board-2.png")).read()
    end = await (await client.get(f"/t/{table}/board-{info.version}.png")).read()
    assert two.startswith(PNG) and end.startswith(PNG) and two != end


async def test_a_finished_table_shows_its_breakdown_scores_and_timelapse(
        service: TableService, client: TestClient[object, object]) -> None:
    table = await bot_game(service, "ginkgopolis", seats=2, seed=2)
    info = await service.info(table)
    assert info.outcome is not None
    html = await (await client.get(f"/t/{table}")).text()
    words = text_of(html)
    assert "Finished" in words and "Final scores" in words
    winner = info.outcome["standings"][0]
    assert f"{winner['rank']} {info.names[winner['seat']]} {winner['total']}" in words
    assert "success point tokens" in words  # the breakdown's lines, in words
    scores = await client.get(f"/t/{table}/scores.png")
    assert scores.status == 200 and (await scores.read()).startswith(PNG)
    gif = await client.get(f"/t/{table}/timelapse.gif")
    assert gif.status == 200 and (await gif.read()).startswith(b"GIF8")
    assert 'data-live' not in html  # nothing more to follow


async def test_a_lobby_has_a_page_but_no_board_nor_replay(
        service: TableService, client: TestClient[object, object]) -> None:
    info = await service.create(HOST, "skybridge", settings=TableSettings(), guild_id="g1")
    words = text_of(await (await client.get(f"/t/{info.id}")).text())
    assert "Waiting for players" in words and "Nothing played yet" in words
    assert (await client.get(f"/t/{info.id}/replay")).status == 404
    assert (await client.get(f"/t/{info.id}/board-1.png")).status == 404


async def test_unknown_tables_and_odd_addresses_are_refused_politely(
        client: TestClient[object, object]) -> None:
    for path in ("/t/999", "/t/99999999999999999", "/t/" + "9" * 30, "/p/short", "/nothing",
                 "/p/" + "x" * 22, "/t/1/board-1.png",
                 "/u/nobody", "/static/../pyproject.toml", "/static/nothing.css"):
        answer = await client.get(path)
        assert answer.status == 404, path
        assert "There is no such page" in text_of(await answer.text()), path
    words = text_of(await (await client.get("/t/999?lang=fr")).text())
    assert "Cette page n'existe pas" in words


async def test_every_answer_keeps_its_address_to_itself(
        service: TableService, client: TestClient[object, object]) -> None:
    table = await live_table(service)
    for path in (f"/t/{table}", f"/t/{table}/board-1.png", "/", "/t/999"):
        answer = await client.get(path)
        assert answer.headers["Referrer-Policy"] == "no-referrer", path
        assert "script-src 'self'" in answer.headers["Content-Security-Policy"]


async def test_pages_and_images_answer_not_modified_to_a_reader_who_has_them(
        service: TableService, client: TestClient[object, object]) -> None:
    table = await live_table(service)
    page = await client.get(f"/t/{table}")
    again = await client.get(f"/t/{table}", headers={"If-None-Match": page.headers["ETag"]})
    assert again.status == 304
    board = await client.get(f"/t/{table}/board-1.png")
    assert "max-age" in board.headers["Cache-Control"]
    cached = await client.get(f"/t/{table}/board-1.png",
                              headers={"If-None-Match": board.headers["ETag"]})
    assert cached.status == 304
    await play_one(service, table)
    moved = await client.get(f"/t/{table}", headers={"If-None-Match": page.headers["ETag"]})
    assert moved.status == 200 and moved.headers["ETag"] != page.headers["ETag"]


async def test_a_board_is_drawn_once_however_many_ask_at_once(
        service: TableService, store: Store) -> None:
    table = await live_table(service)
    web = WebApp(store, fresh=60.0)
    async with TestClient(TestServer(web.application())) as client:
        answers = await asyncio.gather(*(client.get(f"/t/{table}/board-1.png")
                                         for _ in range(20)))
        bodies = {await a.read() for a in answers}
        pages_ = await asyncio.gather(*(client.get(f"/t/{table}") for _ in range(20)))
        assert all(p.status == 200 for p in pages_)
    assert len(bodies) == 1 and web.images.drawn == 1
    assert web.source.reads == 1  # twenty readers, one read of the table


async def test_the_image_cache_keeps_within_its_bound(service: TableService,
                                                      store: Store) -> None:
    table = await bot_game(service, "skybridge", seats=2, seed=5)
    web = WebApp(store, image_bytes=300_000)
    async with TestClient(TestServer(web.application())) as client:
        for version in range(1, 12):
            assert (await client.get(f"/t/{table}/board-{version}.png")).status == 200
    assert 0 < web.images.size <= 300_000
    assert web.images.drawn == 11


async def test_the_index_lists_live_and_finished_public_tables_of_listed_servers(
        service: TableService, store: Store, client: TestClient[object, object]) -> None:
    live = await live_table(service)
    done = await bot_game(service, "skybridge", seats=2, seed=5)
    hidden = await live_table(service, guild="g2")
    private = await live_table(service)
    await pages.set_listed(store, "g2", False)
    await pages.set_public(store, private, False)
    html = await (await client.get("/")).text()
    assert f'href="/t/{live}"' in html and f'href="/t/{done}"' in html
    assert f'href="/t/{hidden}"' not in html and f'href="/t/{private}"' not in html
    # An unlisted server's table still has its page, for whoever has the link.
    assert (await client.get(f"/t/{hidden}")).status == 200
    french = text_of(await (await client.get("/", headers={"Accept-Language": "fr-FR"})).text())
    assert "En cours" in french and "Terminées récemment" in french


async def test_a_players_page_lists_their_finished_games_and_ratings(
        service: TableService, store: Store, client: TestClient[object, object]) -> None:
    shown = await bot_game(service, "skybridge", seats=2, seed=5)
    kept = await bot_game(service, "skybridge", seats=2, seed=6)
    await pages.set_public(store, kept, False)
    html = await (await client.get("/u/bot:random")).text()
    words = text_of(html)
    assert f'href="/t/{shown}"' in html and f'href="/t/{kept}"' not in html
    assert "Ratings" in words and "Skybridge" in words


def test_every_word_of_the_pages_is_said_in_both_languages() -> None:
    from bot.text import TEMPLATES

    def macros(locale: str) -> set[str]:
        text = (TEMPLATES / locale / "web" / "_words.html").read_text("utf-8")
        return set(re.findall(r"\{% macro (\w+)\(", text))

    assert macros("en") == macros("fr")
    used = set()
    for page in (TEMPLATES / "en" / "web").glob("*.html"):
        used |= set(re.findall(r"\bw\.(\w+)\(", page.read_text("utf-8")))
    assert used <= macros("en") and len(used) > 30
