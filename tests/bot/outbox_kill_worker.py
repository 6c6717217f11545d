"""Run by tests/bot/test_outbox_kill.py in a separate process: boots the service on the
database with a transport that sends by a task, as Discord's and mail's do, and whose
"sending" appends the outbox row's id to a file (synced, the way a message posted is
out for good); then plays fakepicks tables of two humans, several at once, until it is
killed. A row offered in doubt is looked for in the file first, as the Discord
transport looks for it among the channel's recent messages."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import fakegame

from bot.service import Actor, Notification, TableService, TableSettings
from bot.service.notifications import Delivery
from bot.store import SqliteStore

assert fakegame.NAME
PLAYERS = [Actor("a", "A"), Actor("b", "B")]


class FileTransport:
    inline = False

    def __init__(self, path: Path) -> None:
        self.path = path

    def sent(self) -> set[int]:
        if not self.path.exists():
            return set()
        return {int(line) for line in self.path.read_text().split()}

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        found = self.sent() if any(n.in_doubt for n in notes) else set()
        for note in notes:
            if note.in_doubt and note.outbox_id in found:
                continue  # it went out before the crash: not again
            with self.path.open("a") as out:
                out.write(f"{note.outbox_id}\n")
                out.flush()
                os.fsync(out.fileno())
            await asyncio.sleep(0)  # a kill may land between two messages
        return {}


async def play_tables(service: TableService, turn: int) -> None:
    settings = TableSettings(seat_order="join")
    while True:
        info = await service.create(PLAYERS[0], "fakepicks", options={"rounds": 4},
                                    settings=settings)
        await service.join(info.id, PLAYERS[1])
        await service.start(info.id, PLAYERS[0])
        while (current := await service.info(info.id)).status == "running":
            seat = min(current.waiting)
            prompt = await service.prompt(info.id, PLAYERS[seat])
            option = prompt.options[(current.version + turn) % len(prompt.options)]
            await service.act(info.id, PLAYERS[seat], option.json, version=prompt.version)
            print("ACK", flush=True)
            if current.version % 3 == turn % 3:
                await asyncio.sleep(0.001)  # some actions while a task sends, some not


async def main(path: Path, sent: Path, tasks: int) -> None:
    store = await SqliteStore.open(path)
    service = TableService(store, FileTransport(sent))
    await service.boot()
    await service.sweep()  # what a killed predecessor left owed or in doubt
    await asyncio.gather(*(play_tables(service, turn) for turn in range(tasks)))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])))
