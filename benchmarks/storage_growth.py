"""Database growth per action once its messages are delivered: bytes, by what holds them.

    python benchmarks/storage_growth.py [--games ginkgopolis,quadropolis,neotopia,skybridge]
                                        [--tables 3] [--seed 1]

Four players (humans choosing at random, seeded) play ``--tables`` whole tables of each
game through the service on an SQLite file, every notification delivered at once. Then
the database's pages are counted by what holds them (SQLite's ``dbstat``: each table
with its indexes), after a checkpoint, and divided by the actions played.

The same games run twice, interleaved table by table on two files: ``kept``, where a
delivered outbox row keeps its whole payload (what the store did before issue 23, item
10), and ``spent``, the store as it is: a delivered row keeps its identity, not its
context, for an hour, then the sweep prunes it (measured after that prune: what the
database keeps for good). Figures, one per line, ``name value unit``:

- ``<game>.actions``: actions played (every table to its end);
- ``<game>.<variant>.bytes_per_action``: the whole file's used pages per action;
- ``<game>.<variant>.<table>_per_action``: the part of it in ``outbox``, ``actions``,
  ``tables`` (the snapshots) and the rest;
- ``<game>.queued_per_action``: bytes each action queued in its save's transaction
  (the action's JSON and its outbox payloads as written, before delivery; ``kept`` and
  ``spent`` queue the same), besides the snapshot it rewrites: what issue 25 counts.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.service import Actor, Notification, TableService, TableSettings
from bot.service.notifications import Delivery
from bot.store import SqliteStore, sqlite_outbox
from engine.core import Rng

GAMES = ("ginkgopolis", "quadropolis", "neotopia", "skybridge")
PARTS = ("outbox", "actions", "tables")


class Delivered:
    """Every notification goes out at once, and nothing is kept in memory."""

    inline = True

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        return {}


def emit(name: str, value: float, unit: str) -> None:
    print(f"{name} {value:.1f} {unit}", flush=True)


async def play_one(service: TableService, game: str, seed: int) -> int:
    players = [Actor(f"u{i}", f"Player {i}") for i in range(4)]
    info = await service.create(players[0], game, settings=TableSettings(seat_order="join"),
                                seed=seed)
    for actor in players[1:]:
        await service.join(info.id, actor)
    await service.start(info.id, players[0])
    rng = Rng.from_seed(seed)
    actions = 0
    while (current := await service.info(info.id)).status == "running":
        seat = min(current.waiting)
        prompt = await service.prompt(info.id, players[seat])
        option = prompt.options[rng.randbelow(len(prompt.options))]
        await service.act(info.id, players[seat], option.json, version=prompt.version)
        actions += 1
    await service.delivery.idle()
    return actions


def used_bytes(path: Path) -> dict[str, int]:
    """Bytes of the pages in use, by table (its indexes counted with it)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        owners = dict(conn.execute(
            "SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')"))
        sizes: dict[str, int] = {}
        for name, pgsize in conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
            owner = owners.get(name, name)
            part = owner if owner in PARTS else "other"
            sizes[part] = sizes.get(part, 0) + int(pgsize)
        return sizes
    finally:
        conn.close()


def queued_bytes(path: Path) -> int:
    """Every action's JSON and every outbox payload as it was queued (of a ``kept``
    file, where no payload was spent)."""
    conn = sqlite3.connect(path)
    try:
        (total,) = conn.execute(
            "SELECT (SELECT COALESCE(SUM(LENGTH(action)), 0) FROM actions) + "
            "(SELECT COALESCE(SUM(LENGTH(payload)), 0) FROM outbox)").fetchone()
        return int(total)
    finally:
        conn.close()


async def run(games: Sequence[str], tables: int, seed: int) -> None:
    spent_sql = sqlite_outbox.SPENT_SQLITE
    with tempfile.TemporaryDirectory() as tmp:
        for game in games:
            paths = {v: Path(tmp) / f"{game}-{v}.sqlite3" for v in ("kept", "spent")}
            stores = {v: await SqliteStore.open(p) for v, p in paths.items()}
            services = {v: TableService(s, Delivered()) for v, s in stores.items()}
            empty = {v: sum(used_bytes(p).values()) for v, p in paths.items()}
            counts = {"kept": 0, "spent": 0}
            for n in range(tables):
                for variant in ("kept", "spent"):
                    # ``kept`` removes a key no payload has: the row keeps all it carried.
                    sqlite_outbox.SPENT_SQLITE = (
                        "'$.__none__'" if variant == "kept" else spent_sql)
                    counts[variant] += await play_one(services[variant], game, seed + n)
            sqlite_outbox.SPENT_SQLITE = spent_sql
            # An hour on, the sweep prunes what was sent (the store as it is).
            await stores["spent"].prune_outbox(float("inf"), failed_before=0.0)
            for store in stores.values():
                await store.close()
            assert counts["kept"] == counts["spent"]
            actions = counts["spent"]
            emit(f"{game}.actions", actions, "actions")
            for variant, path in paths.items():
                sizes = used_bytes(path)
                total = sum(sizes.values()) - empty[variant]
                emit(f"{game}.{variant}.bytes_per_action", total / actions, "B")
                for part in (*PARTS, "other"):
                    emit(f"{game}.{variant}.{part}_per_action", sizes.get(part, 0) / actions,
                         "B")
            emit(f"{game}.queued_per_action", queued_bytes(paths["kept"]) / actions, "B")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.games.split(","), args.tables, args.seed))


if __name__ == "__main__":
    main()
