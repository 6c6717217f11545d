"""Run by test_crash.py in a separate process: plays fakepicks tables through the service
as fast as it can and prints ``ACK table version`` after each acknowledged action,
until it is killed."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import fakegame

from bot.service import Actor, MemoryNotifier, TableService, TableSettings
from bot.store import SqliteStore

assert fakegame.NAME


class NullNotifier(MemoryNotifier):
    async def deliver(self, notes: object) -> None:
        return None


async def main(path: Path) -> None:
    store = await SqliteStore.open(path)
    service = TableService(store, NullNotifier())
    await service.boot()
    players = [Actor("a", "A"), Actor("b", "B")]
    settings = TableSettings(seat_order="join")
    while True:
        info = await service.create(players[0], "fakepicks", options={"rounds": 8},
                                    settings=settings)
        await service.join(info.id, players[1])
        await service.start(info.id, players[0])
        while (current := await service.info(info.id)).status == "running":
            seat = min(current.waiting)
            prompt = await service.prompt(info.id, players[seat])
            option = prompt.options[current.version % len(prompt.options)]
            result = await service.act(info.id, players[seat], option.json,
                                       version=prompt.version)
            print(f"ACK {info.id} {result.version}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
