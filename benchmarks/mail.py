"""Play by email, in figures (issue 22):

1. mails per player per round and per decision, for whole 3-player games of each game
   played by mail (the budget: one decision mail per decision, at most one digest per
   round, the news folded into the decision mail when they go out together);
2. the time from a reply's arrival in the mailbox to its commit, p50 and p99, with IMAP
   IDLE and with polling (real servers on the loopback: pymap, aiosmtpd);
3. the size of a decision mail with its image (goal: under 200 KB).

    python benchmarks/mail.py [--games skybridge,ginkgopolis,quadropolis,neotopia]
        [--seed 5] [--replies 30] [--poll 2.0] [--skip-latency]

Run from the repository root (it uses tests/mail's servers and reply writer).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.mail.imap_in import ImapSource
from bot.mail.smtp_out import SmtpSender
from tests.mail.front_helpers import MemorySender, command_mail, reply
from tests.mail.servers import ImapTestServer, SmtpSink
from tests.mail.test_game_by_mail import (
    PLAYERS,
    Table,
    by_mail,
    latest_decision,
    play,
)

GAMES = ("skybridge", "ginkgopolis", "quadropolis", "neotopia")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def count_game(game: str, seed: int) -> dict[str, Any]:
    sender = MemorySender()

    def deliver_raw(front: Any) -> Any:
        async def deliver(raw: bytes) -> None:
            await front.handle(raw)
        return deliver

    with tempfile.TemporaryDirectory() as tmp:
        async with by_mail(Path(tmp) / "m.sqlite3", sender, deliver_raw,
                           lambda: sender.history) as table:
            started = len(sender.history)
            result = await play(table, game, seed=seed)
            log = await table.service.log(1)
            view = await table.service.view(1)
    mails = sender.history[started:]
    per: Counter[str] = Counter(str(m["To"]).lower() for m in mails)
    decisions = [m for m in mails if "+t" in str(m["Reply-To"] or "")]
    sizes = [len(bytes(m)) for m in decisions]
    rounds = int(view.get("round") or 0) if isinstance(view, dict) else 0
    player_moves = Counter(e.seat for e in log if e.source == "player")
    return {"game": game, "moves": result["moves"], "rounds": rounds,
            "mails": {a: per[a] for a in PLAYERS},
            "decisions": len(player_moves) and sum(player_moves.values()),
            "decision_mails": len(decisions), "sizes": sizes}


async def latency(game: str, idle: bool, replies: int, poll: float) -> list[float]:
    """Seconds from each reply's arrival in the mailbox to its move's commit."""
    imap = ImapTestServer(idle=idle)
    sink = SmtpSink()
    times: list[float] = []
    try:
        settings = imap.settings_for("bot@example.org", smtp=sink, poll_seconds=poll)
        sender = SmtpSender(settings)
        holder: dict[str, Any] = {}

        def deliver_raw(front: Any) -> Any:
            async def handler(uid: int, raw: bytes) -> bool:
                source = holder.get("source")
                return bool(await front.handle(raw, uid=uid, uidvalidity=getattr(
                    source, "uidvalidity", None)))
            holder["source"] = ImapSource(settings, handler, seen=front.seen)

            async def deliver(raw: bytes) -> None:
                await asyncio.to_thread(imap.append, raw)
            return deliver

        with tempfile.TemporaryDirectory() as tmp:
            async with by_mail(Path(tmp) / "m.sqlite3", sender, deliver_raw,
                               lambda: sink.messages) as table:
                source: ImapSource = holder["source"]
                task = asyncio.create_task(source.run())
                try:
                    await opening(table, game)
                    for _ in range(replies):
                        info = await table.service.info(1)
                        if info.status != "running":
                            break
                        seat = next(s for s in sorted(info.waiting)
                                    if not info.seats[s].is_bot)
                        address = str(info.seats[seat].user_id).removeprefix("mail:")
                        mail = latest_decision(table, address)
                        assert mail is not None
                        raw = reply(mail, address, "#1")
                        start = time.perf_counter()
                        await table.deliver(raw)
                        while await committed(table) == info.version:
                            await asyncio.sleep(0.002)
                        times.append(time.perf_counter() - start)
                        await table.settle()
                finally:
                    task.cancel()
                    await asyncio.gather(task, return_exceptions=True)
    finally:
        imap.close()
        sink.close()
    return times


async def committed(table: Table) -> int:
    """The table's version as stored (what is committed, not what a cache says)."""
    record = await table.service.store.load_table(1)
    assert record is not None
    return record.version


async def opening(table: Table, game: str) -> None:
    """The table opened and started by mail, fed to the front end directly (the latency
    counts the moves only)."""
    import dataclasses

    from bot.service import Actor

    async def direct(raw: bytes) -> None:
        await table.front.handle(raw)
        await table.settle()

    await direct(command_mail(PLAYERS[0], f"new {game} players=3"))
    for address in PLAYERS[1:]:
        await direct(command_mail(address, "join 1"))
    info = await table.service.info(1)
    await table.service.configure(1, Actor("mail:" + PLAYERS[0]), settings=dataclasses.replace(
        info.settings, seat_order="join"))
    await direct(command_mail(PLAYERS[0], "start 1"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--replies", type=int, default=30)
    parser.add_argument("--poll", type=float, default=2.0,
                        help="polling interval (s) of the mailbox without IDLE")
    parser.add_argument("--skip-latency", action="store_true")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]
    print("Mails per player, whole 3-player games by mail")
    print(f"{'game':12} {'moves':>5} {'rounds':>6} {'mails/player':>14} {'per round':>9} "
          f"{'decision mails':>14} {'per move':>8} {'KB median':>9} {'KB max':>7}")
    for game in games:
        r = asyncio.run(count_game(game, args.seed))
        mails = list(r["mails"].values())
        mean = statistics.mean(mails)
        per_round = mean / r["rounds"] if r["rounds"] else float("nan")
        sizes = r["sizes"] or [0]
        print(f"{game:12} {r['moves']:5d} {r['rounds']:6d} "
              f"{'/'.join(str(m) for m in mails):>14} {per_round:9.2f} "
              f"{r['decision_mails']:14d} {r['decision_mails'] / max(1, r['moves']):8.2f} "
              f"{statistics.median(sizes) / 1024:9.1f} {max(sizes) / 1024:7.1f}")
    if args.skip_latency:
        return
    print()
    print("Reply arrival in the mailbox -> commit (skybridge), seconds")
    for idle in (True, False):
        times = asyncio.run(latency("skybridge", idle, args.replies, args.poll))
        label = "IDLE" if idle else f"polling every {args.poll:g} s"
        print(f"{label:24} n={len(times):3d} p50={percentile(times, 0.5):.3f} "
              f"p99={percentile(times, 0.99):.3f}")


if __name__ == "__main__":
    main()
