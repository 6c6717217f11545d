"""The table pages under watchers: pages and images per second with many concurrent
viewers of one live table, and the event loop's longest stall meanwhile, against an
idle-loop floor measured in the same run (issue 26).

The bot's side runs in this process, as ``urbanist run --web`` does: the table service,
a player who moves every ``--move-every`` seconds (the bots answer at once), the pages'
server and a probe that sleeps ``PROBE`` seconds again and again and records how late
it wakes (the loop's stalls). The viewers run in another process, so that their own
work does not count as the bot's: each keeps the table's event stream open, as a page
does, and asks for the page and its board image, again and again, as fast as the server
answers (``hammer``: a closed loop, the worst case), or as the page itself does
(``follow``: when the stream tells of a change, the page and its new board, with the
ETags it has).

Three phases of ``--seconds`` each: idle (moves, no viewer) for the floor, then the
viewers following, then hammering. ``--apart`` serves the pages from their own process
(``urbanist web`` over the same SQLite file, read-only) instead of the bot's.

    python benchmarks/web.py [--viewers 100] [--seconds 10] [--game ginkgopolis]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PROBE = 0.005  # the stall probe's sleep, in seconds


@dataclass
class Probe:
    """How late the loop wakes a task that sleeps ``PROBE`` seconds: its stalls."""

    lateness: list[float] = field(default_factory=list)
    running: bool = True

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while self.running:
            start = loop.time()
            await asyncio.sleep(PROBE)
            self.lateness.append(loop.time() - start - PROBE)

    def summary(self) -> dict[str, float]:
        data = sorted(self.lateness) or [0.0]
        return {"max_ms": data[-1] * 1000, "p99_ms": data[int(len(data) * 0.99) - 1] * 1000,
                "p50_ms": statistics.median(data) * 1000}


@dataclass
class Player:
    """Alice moves every ``every`` seconds; how long each move took (the bot's answer)."""

    table: int
    every: float
    took: list[float] = field(default_factory=list)
    running: bool = True

    async def run(self, service: Any) -> None:
        from bot.service import Actor

        alice = Actor("u0", "Alice")
        while self.running:
            await asyncio.sleep(self.every)
            info = await service.info(self.table)
            if info.status != "running" or 0 not in info.waiting:
                continue
            start = time.perf_counter()
            prompt = await service.prompt(self.table, alice)
            await service.act(self.table, alice, prompt.options[0].json,
                              version=prompt.version)
            self.took.append(time.perf_counter() - start)


async def phase(service: Any, table: int, seconds: float, every: float,
                viewers: int, port: int, mode: str = "hammer") -> dict[str, Any]:
    probe = Probe()
    player = Player(table, every)
    tasks = [asyncio.create_task(probe.run()), asyncio.create_task(player.run(service))]
    load = None
    if viewers:
        context = multiprocessing.get_context("spawn")
        queue: Any = context.Queue()
        load = context.Process(target=viewers_process, args=(port, table, viewers, seconds,
                                                             mode, queue))
        load.start()
    await asyncio.sleep(seconds)
    probe.running = player.running = False
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    result: dict[str, Any] = {"stall": probe.summary(), "moves": len(player.took),
                              "move_ms_max": max(player.took, default=0) * 1000,
                              "move_ms_mean": statistics.fmean(player.took) * 1000
                              if player.took else 0.0}
    if load is not None:
        result["viewers"] = await asyncio.get_running_loop().run_in_executor(None, queue.get)
        load.join()
    return result


def viewers_process(port: int, table: int, viewers: int, seconds: float, mode: str,
                    queue: Any) -> None:
    queue.put(asyncio.run(view(port, table, viewers, seconds, mode)))


async def view(port: int, table: int, viewers: int, seconds: float,
               mode: str) -> dict[str, Any]:
    import aiohttp

    base = f"http://127.0.0.1:{port}"
    counts = {"pages": 0, "images": 0, "errors": 0, "events": 0}
    latencies: list[float] = []
    board = re.compile(r'<img src="(/t/\d+/board-\d+\.png)"')
    deadline = time.monotonic() + seconds

    async def fetch(session: aiohttp.ClientSession, tags: dict[str, str]) -> None:
        """The page, then its board, as a browser asks: with the ETags it has."""
        start = time.perf_counter()
        headers = {"If-None-Match": tags["page"]} if "page" in tags else {}
        async with session.get(f"{base}/t/{table}", headers=headers) as answer:
            html = await answer.text()
            tags["page"] = answer.headers.get("ETag", "")
        latencies.append(time.perf_counter() - start)
        counts["pages"] += 1
        found = board.search(html)
        if found and found.group(1) != tags.get("src"):
            tags["src"] = found.group(1)
            start = time.perf_counter()
            async with session.get(base + found.group(1)) as image:
                await image.read()
            latencies.append(time.perf_counter() - start)
            counts["images"] += 1

    async def follow(session: aiohttp.ClientSession, refetch: bool) -> None:
        tags: dict[str, str] = {}
        if refetch:
            await fetch(session, tags)
        async with session.get(f"{base}/t/{table}/events") as stream:
            async for line in stream.content:
                if line.startswith(b"event: change"):
                    counts["events"] += 1
                    if refetch:
                        try:
                            await fetch(session, tags)
                        except aiohttp.ClientError:
                            counts["errors"] += 1

    async def viewer(session: aiohttp.ClientSession) -> None:
        while time.monotonic() < deadline:
            try:
                start = time.perf_counter()
                async with session.get(f"{base}/t/{table}") as answer:
                    html = await answer.text()
                latencies.append(time.perf_counter() - start)
                counts["pages"] += 1
                found = board.search(html)
                if found:
                    start = time.perf_counter()
                    async with session.get(base + found.group(1)) as image:
                        await image.read()
                    latencies.append(time.perf_counter() - start)
                    counts["images"] += 1
            except aiohttp.ClientError:
                counts["errors"] += 1

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        began = time.monotonic()
        streams = [asyncio.create_task(follow(session, mode == "follow"))
                   for _ in range(viewers)]
        if mode == "hammer":
            await asyncio.gather(*(viewer(session) for _ in range(viewers)))
        else:
            await asyncio.sleep(seconds)
        spent = time.monotonic() - began
        for stream in streams:
            stream.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
    latencies.sort()
    return {"pages_per_s": counts["pages"] / spent, "images_per_s": counts["images"] / spent,
            "errors": counts["errors"], "change_events": counts["events"],
            "p50_ms": latencies[len(latencies) // 2] * 1000 if latencies else 0,
            "p99_ms": latencies[int(len(latencies) * 0.99) - 1] * 1000 if latencies else 0}


async def main(args: argparse.Namespace) -> None:
    from bot.service import Actor, MemoryNotifier, TableService, TableSettings
    from bot.store import SqliteStore
    from bot.web.server import start_web

    folder = tempfile.mkdtemp(prefix="urbanist-web-bench-")
    store = await SqliteStore.open(os.path.join(folder, "bench.sqlite3"))
    service = TableService(store, MemoryNotifier())
    alice = Actor("u0", "Alice")

    async def table() -> int:
        """A fresh table for each phase: a game never ends in the middle of one."""
        info = await service.create(alice, args.game, seed=7, guild_id="g1",
                                    settings=TableSettings(seat_order="join",
                                                           ai_level="easy"))
        for _ in range(args.seats - 1):
            await service.add_bot(info.id, alice, level="easy")
        await service.start(info.id, alice)
        return info.id

    server = await start_web(store, "127.0.0.1", 0)
    port = server.port
    apart = None
    if args.apart:
        import socket
        import subprocess

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        apart = subprocess.Popen([sys.executable, "-m", "bot.cli", "web",
                                  f"127.0.0.1:{port}", "--db", store.path],
                                 stderr=subprocess.DEVNULL)
        await asyncio.sleep(3)  # its start
    try:
        idle = await phase(service, await table(), args.seconds, args.move_every, 0,
                           server.port)
        following = await phase(service, await table(), args.seconds, args.move_every,
                                args.viewers, port, "follow")
        loaded = await phase(service, await table(), args.seconds, args.move_every,
                             args.viewers, port, "hammer")
    finally:
        if apart is not None:
            apart.terminate()
            apart.wait()
        await server.stop()
        await service.close()
        await store.close()
    web = server.app
    report = {"apart": args.apart, "game": args.game, "seats": args.seats, "viewers": args.viewers,
              "seconds": args.seconds, "idle": idle, "following": following,
              "loaded": loaded,
              "boards_drawn": web.images.drawn, "table_reads": web.source.reads,
              "cpus": os.cpu_count(), "load_average": os.getloadavg()[0]}
    print(json.dumps(report, indent=2))
    for name, run in (("following", following), ("hammering", loaded)):
        v = run["viewers"]
        where = "from their own process" if args.apart else "from the bot's process"
        print(f"\n{args.viewers} viewers {name} one live {args.game} table (pages {where}), "
              f"{args.seconds:.0f} s: {v['pages_per_s']:.0f} pages/s and "
              f"{v['images_per_s']:.0f} images/s (request p50 {v['p50_ms']:.0f} ms, p99 "
              f"{v['p99_ms']:.0f} ms, {v['errors']} errors, {v['change_events']} change "
              f"events heard)")
        print(f"  loop stall, longest: {run['stall']['max_ms']:.1f} ms (idle floor "
              f"{idle['stall']['max_ms']:.1f} ms); p99 {run['stall']['p99_ms']:.1f} ms "
              f"(idle {idle['stall']['p99_ms']:.1f} ms)")
        print(f"  a move with the bots' answers: mean {run['move_ms_mean']:.0f} ms, max "
              f"{run['move_ms_max']:.0f} ms (idle: mean {idle['move_ms_mean']:.0f} ms, max "
              f"{idle['move_ms_max']:.0f} ms)")
    if not args.apart:
        print(f"\nboards drawn {web.images.drawn}, pages written {web.pages.drawn}, table "
              f"reads {web.source.reads}")

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--game", default="ginkgopolis")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--move-every", type=float, default=1.0)
    parser.add_argument("--apart", action="store_true",
                        help="serve the pages from their own process (urbanist web)")
    asyncio.run(main(parser.parse_args()))
