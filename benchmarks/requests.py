"""Discord requests per round of a 4-player Ginkgopolis game, counted on simcord's record
of every REST call (no network): the same seeded game played through DM menus, to the
end. Run it on this checkout, or on an older one to compare (the script adapts to a
bot without the outbox):

    python benchmarks/requests.py [--seed 5] [--repo PATH]

Prints per round: requests to the table's channel, DMs sent, DMs edited, decisions;
then the mean, the worst round and the total.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import itertools
import random
import sys
import tempfile
from pathlib import Path
from typing import Any


def counted(calls: list[Any], channel: str) -> tuple[int, int, int]:
    ch = sent = edited = 0
    for call in calls:
        parts = call.path.strip("/").split("/")
        if parts[:1] != ["channels"] or len(parts) < 3 or parts[2] != "messages":
            continue
        if parts[1] == channel:
            ch += 1
        elif call.method == "POST":
            sent += 1
        elif call.method == "PATCH":
            edited += 1
    return ch, sent, edited


async def play(seed: int) -> list[tuple[int, int, int, int, int]]:
    import discord
    import simcord
    from simtable import World, label

    from bot.clock import FakeClock
    from bot.discord import create_bot
    from bot.store import SqliteStore

    rows: list[tuple[int, int, int, int, int]] = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "urbanist.sqlite3"
        clock = FakeClock()
        store = await SqliteStore.open(db)
        options: dict[str, Any] = dict(clock=clock, scheduler=False, store=store,
                                       seeds=itertools.count(1000))
        if "pacing" in inspect.signature(create_bot).parameters or _config_has("pacing"):
            options["pacing"] = False
        bot = create_bot(db, **options)
        async with simcord.run(bot, approved_intents=discord.Intents.default()) as env:
            guild = env.create_guild("Urbanists")
            channel = guild.create_text_channel("games")
            people = [guild.add_member(env.create_user(n, global_name=n.capitalize()))
                      for n in ("alice", "bob", "chloe", "dan")]
            spectator = guild.add_member(env.create_user("sam", global_name="Sam"))
            world = World(env, bot, clock, db, guild, channel, people[:3], spectator,
                          people[3])
            await people[0].slash(channel, "table new", game="ginkgopolis")
            table = await world.table_id()
            for member in people[1:]:
                lobby = world.status_message(table)
                await member.click(lobby, label=label(lobby, "urb:l:join"))
            await people[0].click(world.status_message(table),
                                  custom_id=f"urb:l:start:{table}")
            await world.flush()
            members = {str(m.id): m for m in people}
            rng = random.Random(seed)
            index = len(env.http_requests)
            current = (await world.service.view(table))["round"]
            decisions: set[tuple[int, int]] = set()
            totals = [0, 0, 0]
            while (info := await world.service.info(table)).status == "running":
                seat = sorted(info.waiting)[0]
                member = members[info.seats[seat].user_id or ""]
                prompt = await world.service.prompt(table, world.actor(member))
                decisions.add((seat, prompt.version))
                text = rng.choice([o.text for o in prompt.options])
                await world.pick(member, world.menu_dm(member), text)
                await world.flush()
                ch, sent, edited = counted(env.http_requests[index:], str(channel.id))
                index = len(env.http_requests)
                totals = [totals[0] + ch, totals[1] + sent, totals[2] + edited]
                view = await world.service.view(table)
                over = (await world.service.info(table)).status != "running"
                if view["round"] != current or over:
                    rows.append((current, *totals, len(decisions)))
                    current, totals, decisions = view["round"], [0, 0, 0], set()
            await bot.shutdown()
    return rows


def _config_has(name: str) -> bool:
    from bot.discord.bot import BotConfig
    return name in getattr(BotConfig, "__dataclass_fields__", {})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    repo = args.repo.resolve()
    sys.path[:0] = [str(repo), str(repo / "tests" / "bot" / "discord")]
    rows = asyncio.run(play(args.seed))
    print("round channel dm_sent dm_edited decisions")
    for row in rows:
        print(" ".join(str(v) for v in row))
    per = [r[1] + r[2] + r[3] for r in rows]
    print(f"rounds {len(rows)}")
    print(f"channel_per_round_max {max(r[1] for r in rows)}")
    print(f"requests_per_round_mean {sum(per) / len(per):.1f}")
    print(f"requests_per_round_max {max(per)}")
    print(f"requests_total {sum(per)}")


if __name__ == "__main__":
    main()
