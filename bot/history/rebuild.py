"""Everything a store's history is derived from, read back from the finished tables."""

from __future__ import annotations

from bot.history.ratings import RatedGame, game_of
from bot.store.interface import Store


async def finished_games(store: Store) -> list[RatedGame]:
    """Each finished table's entry, finished at its last action's time (the log is
    append-only, so this is the moment the incremental update used)."""
    games = []
    for table_id in await store.table_ids(["finished"]):
        bundle = await store.load_bundle(table_id)
        if bundle is None:
            continue
        table, seats, _ = bundle
        last = await store.load_actions(table_id, after_version=table.version - 1)
        at = last[-1].at if last else table.updated_at
        game = game_of(table, seats, at)
        if game is not None:
            games.append(game)
    return games


async def rebuild(store: Store) -> int:
    """Recompute every result and rating; the number of tables settled."""
    games = await finished_games(store)
    await store.rebuild_history(games)
    return len(games)
