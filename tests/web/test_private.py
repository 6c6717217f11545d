"""A private table: its number answers as no table at all, its token opens every page
under it; the token is unguessable, kept when the table goes public and back."""

from __future__ import annotations

from aiohttp.test_utils import TestClient

from bot.service import TableService
from bot.store import Store, pages
from tests.web.webgames import live_table, play_one

SUFFIXES = ("", "/replay/1", "/board-1.png", "/replay")
BACKENDS = ("sqlite", "postgres")


async def test_a_private_tables_number_is_refused_while_its_token_works(
        service: TableService, store: Store, client: TestClient[object, object]) -> None:
    table = await live_table(service)
    access = await pages.set_public(store, table, False)
    assert access.token is not None and len(access.token) >= 22
    for suffix in SUFFIXES:
        refused = await client.get(f"/t/{table}{suffix}", allow_redirects=False)
        assert refused.status == 404, suffix
        opened = await client.get(f"/p/{access.token}{suffix}", allow_redirects=False)
        assert opened.status in (200, 302), suffix
    html = await (await client.get(f"/p/{access.token}")).text()
    # Its links stay under the token, and nothing points to the number.
    assert f"/p/{access.token}/board-" in html and f"/t/{table}" not in html
    assert 'name="robots" content="noindex' in html
    replay = await client.get(f"/p/{access.token}/replay", allow_redirects=False)
    assert replay.headers["Location"] == f"/p/{access.token}/replay/1"
    image = await client.get(f"/p/{access.token}/board-1.png")
    assert image.headers["Cache-Control"].startswith("private")
    # A token of another length, or one not made, opens nothing.
    assert (await client.get(f"/p/{access.token[:-1]}x")).status == 404


async def test_the_token_is_kept_when_the_table_goes_public_and_back(
        service: TableService, store: Store, client: TestClient[object, object]) -> None:
    table = await live_table(service)
    first = await pages.set_public(store, table, False)
    public = await pages.set_public(store, table, True)
    assert public.public and public.token == first.token
    assert (await client.get(f"/t/{table}")).status == 200
    # A link shared while it was private still works.
    assert (await client.get(f"/p/{first.token}")).status == 200
    again = await pages.set_public(store, table, False)
    assert again.token == first.token and not again.public
    other = await live_table(service)
    assert (await pages.set_public(store, other, False)).token != first.token


async def test_a_private_tables_events_follow_it_by_token_only(
        service: TableService, store: Store, client: TestClient[object, object]) -> None:
    table = await live_table(service)
    access = await pages.set_public(store, table, False)
    assert (await client.get(f"/t/{table}/events")).status == 404
    stream = await client.get(f"/p/{access.token}/events")
    assert stream.status == 200
    await play_one(service, table)
    seen = b""
    while b"event: change" not in seen:
        seen += await stream.content.readany()
    stream.close()
