"""One of several bot processes on one PostgreSQL, run by tests/bot/multiharness.py.

``play`` mode: boots the service beside the others (``TableService.share``), with a real
APScheduler firing deadlines and the periodic sweep renewing the leases, then plays
fakepicks tables of two seats: seat 0 is played at once (``ACK table version`` after
each acknowledged move), seat 1 never, so every decision of seat 1 is a deadline fired
by whichever process holds the table's lease (``TIMEOUT table version`` once its write
is committed). ``drain`` mode plays nothing and exits (``DONE``) once no table runs:
what the killed processes left is fired by the deadlines alone.

Usage: lease_worker.py URL OWNER MODE TASKS TTL
"""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC
from typing import Any

import fakegame
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.service import Actor, MemoryNotifier, Refused, TableService, TableSettings
from bot.service.live import LiveTable
from bot.store import open_store
from bot.store.health import StorageError

assert fakegame.NAME
ROUNDS = 3
DEADLINE = 1  # seconds: seat 1's every decision times out this long after it begins


def say(*words: object) -> None:
    print(*words, flush=True)


async def play_tables(service: TableService, owner: str, task: int) -> None:
    while True:
        try:
            await play_one_table(service, owner, task)
        except (Refused, StorageError):
            # The database is down (a restart): the player waits and starts again, as a
            # person would after "I cannot save anything right now".
            await asyncio.sleep(0.2)


async def play_one_table(service: TableService, owner: str, task: int) -> None:
    first, second = Actor(f"{owner}/{task}/a", "A"), Actor(f"{owner}/{task}/b", "B")
    settings = TableSettings(seat_order="join", deadline_seconds=DEADLINE)
    info = await service.create(first, "fakepicks", options={"rounds": ROUNDS},
                                settings=settings)
    await service.join(info.id, second)
    await service.start(info.id, first)
    while (current := await service.info(info.id)).status == "running":
        if 0 not in current.waiting:
            await asyncio.sleep(0.05)  # seat 1's deadline, in whichever process
            continue
        try:
            prompt = await service.prompt(info.id, first)
            option = prompt.options[current.version % len(prompt.options)]
            result = await service.act(info.id, first, option.json, version=prompt.version)
        except Refused as refusal:
            if refusal.code == "storage":
                raise
            continue  # a deadline moved the table meanwhile: look again
        say("ACK", info.id, result.version)


async def main(url: str, owner: str, mode: str, tasks: int, ttl: float) -> None:
    store = await open_store(url)
    scheduler = AsyncIOScheduler(timezone=UTC)
    service = TableService(store, MemoryNotifier(), scheduler=scheduler)
    service.share(owner, ttl=ttl)
    play_late = service._play_late

    async def reported(live: LiveTable, seat: int, action: Any = None) -> None:
        await play_late(live, seat, action)
        say("TIMEOUT", live.id, live.record.version, seat)

    setattr(service, "_play_late", reported)  # noqa: B010 (the test's window on it)
    await service.boot()
    service.start_sweeping(scheduler)
    scheduler.start()
    say("READY")
    if mode == "drain":
        while await store.table_ids(["running"]):
            await asyncio.sleep(0.2)
        say("DONE")
        await asyncio.Event().wait()  # until the harness kills it: no job cut off midway
    loops: list[Any] = [play_tables(service, owner, t) for t in range(tasks)]
    await asyncio.gather(*loops)


if __name__ == "__main__":
    url, owner, mode, tasks, ttl = sys.argv[1:6]
    asyncio.run(main(url, owner, mode, int(tasks), float(ttl)))
