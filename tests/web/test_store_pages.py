"""The store's page flags and listings, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from bot.service import TableService
from bot.store import Store, pages
from tests.web.webgames import bot_game, live_table, play_one

BACKENDS = ("sqlite", "postgres")


async def test_flags_default_to_public_and_listed_and_change(
        service: TableService, store: Store) -> None:
    table = await live_table(service)
    assert await pages.access(store, table) == pages.PageAccess(table, True, None)
    assert await pages.guild_listed(store, "g1")
    made = await pages.set_public(store, table, False)
    assert not made.public and made.token
    assert await pages.access(store, table) == made
    assert await pages.table_of_token(store, made.token) == table
    assert await pages.table_of_token(store, "no-such-token-at-all") is None
    await pages.set_listed(store, "g1", False)
    assert not await pages.guild_listed(store, "g1")
    await pages.set_listed(store, "g1", True)
    assert await pages.guild_listed(store, "g1")


async def test_listings_leave_out_private_tables_and_unlisted_servers(
        service: TableService, store: Store) -> None:
    shown = await live_table(service)
    private = await live_table(service)
    elsewhere = await live_table(service, guild="g2")
    alone = await live_table(service, guild=None)  # a console table, of no server
    done = await bot_game(service, "skybridge", seats=2, seed=5)
    await pages.set_public(store, private, False)
    await pages.set_listed(store, "g2", False)
    live = await pages.listed_tables(store, ["running", "paused"])
    assert {t.id for t in live} == {shown, alone}
    assert live[0].names == ("Alice", "Bot 1") and live[0].game == "skybridge"
    finished = await pages.listed_tables(store, ["finished"])
    assert [t.id for t in finished] == [done]
    assert await pages.listed_tables(store, ["finished"], since=finished[0].updated_at + 1) \
        == []
    assert elsewhere not in {t.id for t in live}


async def test_a_players_results_and_ratings_skip_what_is_not_listed(
        service: TableService, store: Store) -> None:
    one = await bot_game(service, "skybridge", seats=2, seed=5)
    two = await bot_game(service, "skybridge", seats=2, seed=6, guild="g2")
    results = await pages.player_results(store, "bot:random")
    assert {r.table_id for r in results} == {one, two}
    assert all(len([r for r in results if r.table_id == t]) == 2 for t in (one, two))
    # A rating per server: two of Skybridge.
    assert [game for game, _ in await pages.player_ratings(store, "bot:random")] == \
        ["skybridge", "skybridge"]
    await pages.set_listed(store, "g2", False)
    assert {r.table_id for r in await pages.player_results(store, "bot:random")} == {one}
    ratings = await pages.player_ratings(store, "bot:random")
    assert [game for game, _ in ratings] == ["skybridge"]


async def test_a_tables_rev_tells_a_reader_whether_it_changed(
        service: TableService, store: Store) -> None:
    table = await live_table(service)
    before = await pages.table_rev(store, table)
    record = await store.load_table(table)
    assert record is not None and before == record.rev
    await play_one(service, table)
    assert (await pages.table_rev(store, table) or 0) > (before or 0)
    assert await pages.table_rev(store, 10**12) is None
