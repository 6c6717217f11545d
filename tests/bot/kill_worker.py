"""Run by the kill harness in a separate process: boots the service on the database
(which resumes what a killed predecessor left: owed messages, bot moves), then plays
fakepicks tables of one human and one bot, several at once, printing
``ACK table version`` after each acknowledged move, until it is killed."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import fakegame

from bot.service import Actor, MemoryNotifier, TableService, TableSettings
from bot.store import SqliteStore

assert fakegame.NAME
HUMAN = Actor("a", "A")


async def play_tables(service: TableService) -> None:
    settings = TableSettings(seat_order="join")
    while True:
        info = await service.create(HUMAN, "fakepicks", options={"rounds": 8},
                                    settings=settings)
        await service.add_bot(info.id, HUMAN)
        await service.start(info.id, HUMAN)
        while (current := await service.info(info.id)).status == "running":
            if 0 not in current.waiting:
                await asyncio.sleep(0)  # the bot owes a move: the sweep will make it
                await service.sweep()
                continue
            prompt = await service.prompt(info.id, HUMAN)
            option = prompt.options[current.version % len(prompt.options)]
            result = await service.act(info.id, HUMAN, option.json, version=prompt.version)
            print(f"ACK {info.id} {result.version}", flush=True)


async def main(path: Path, tasks: int) -> None:
    store = await SqliteStore.open(path)
    service = TableService(store, MemoryNotifier())
    await service.boot()
    await asyncio.gather(*(play_tables(service) for _ in range(tasks)))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
