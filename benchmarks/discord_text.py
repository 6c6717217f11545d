"""How long a round reads on Discord: lines of the channel's news post per round, and
characters of a decision's DM, for a 4-player table of each game.

    python benchmarks/discord_text.py [--games ginkgopolis,...] [--seed 3] [--locale en]

Four players (humans choosing at random, seeded) play a whole table of each game through
the service. The transport holds and gathers notifications as the Discord one does
(a round's public news in one post; a seat's private news with its next decision) and
renders each post and DM with its text path (``bot.discord.notifier``: ``news_of``,
``news_lines``, ``news_text``, ``render_private``, ``dm_text``, the templates with
Discord's time format). Images and menus
are not drawn: only the text a reader has to get through. The final post (the scores
and their breakdown) is counted apart.

Prints per game: ``<game> news_lines median max  dm_chars median max  posts dms``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.discord import notifier as discord_notifier
from bot.discord.news import news_lines
from bot.service import Actor, Notification, TableService, TableSettings
from bot.service.notifications import HELD, Delivery
from bot.store import SqliteStore
from bot.text import Renderer, discord_time
from engine.core import Rng

GAMES = ("ginkgopolis", "quadropolis", "neotopia", "skybridge")


@dataclass
class Reader:
    """The Discord transport's grouping, with the text it would send kept, not sent."""

    renderer: Renderer
    posts: list[str] = field(default_factory=list)
    final: list[str] = field(default_factory=list)
    dms: list[str] = field(default_factory=list)
    # What each post and DM was made of (the tests read them).
    post_notes: list[list[Notification]] = field(default_factory=list)
    dm_notes: list[list[Notification]] = field(default_factory=list)
    inline: bool = True

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        results: dict[int, Delivery] = {}
        public = [n for n in notes if n.seat is None]
        if public and all(n.defer for n in public):
            results.update({n.outbox_id: HELD for n in public})
        elif public:
            text = discord_notifier.news_text(
                news_lines(discord_notifier.news_of(public), self.renderer.render))
            if text:
                over = any(n.template == "game_over" for n in public)
                (self.final if over else self.posts).append(text)
                if not over:
                    self.post_notes.append(public)
        seats = sorted({n.seat for n in notes if n.seat is not None})
        for seat in seats:
            mine = [n for n in notes if n.seat == seat]
            if all(n.defer for n in mine):
                results.update({n.outbox_id: HELD for n in mine})
                continue
            # What the click that made it already showed in place is not sent again.
            mine = [n for n in mine if not n.context.get("quiet")]
            if any(n.template in discord_notifier.DECISIONS for n in mine):
                self.dms.append(discord_notifier.dm_text(
                    [discord_notifier.render_private(self.renderer, n) for n in mine]))
                self.dm_notes.append(mine)
        return results


async def play(game: str, seed: int, locale: str, db: Path) -> Reader:
    reader = Reader(Renderer(time_format=discord_time))
    store = await SqliteStore.open(db)
    service = TableService(store, reader)
    try:
        players = [Actor(f"{1000 + i}", name) for i, name in
                   enumerate(("Alice", "Bob", "Chloe", "Dan"))]
        info = await service.create(players[0], game, seed=seed,
                                    settings=TableSettings(seat_order="join", locale=locale))
        for actor in players[1:]:
            await service.join(info.id, actor)
        await service.start(info.id, players[0])
        rng = Rng.from_seed(seed)
        while (current := await service.info(info.id)).status == "running":
            seat = min(current.waiting)
            prompt = await service.prompt(info.id, players[seat])
            option = prompt.options[rng.randbelow(len(prompt.options))]
            # A click: the front end answers it in the message clicked.
            await service.act(info.id, players[seat], option.json, version=prompt.version,
                              in_place=True)
        await service.delivery.idle()
    finally:
        await service.close()
        await store.close()
    return reader


def lines(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip())


def figures(reader: Reader) -> str:
    news = [lines(p) for p in reader.posts] or [0]
    dms = [len(d) for d in reader.dms] or [0]
    return (f"news_lines {statistics.median(news):g} {max(news)}  "
            f"dm_chars {statistics.median(dms):g} {max(dms)}  "
            f"posts {len(reader.posts)} dms {len(reader.dms)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--locale", default="en")
    parser.add_argument("--show", action="store_true",
                        help="print a middle round's post and a DM of each game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            reader = asyncio.run(play(game, args.seed, args.locale,
                                      Path(tmp) / f"{game}.sqlite3"))
            print(f"{game} {figures(reader)}", flush=True)
            if args.show and reader.posts and reader.dms:
                print(reader.posts[len(reader.posts) // 2], "\n---")
                print(reader.dms[len(reader.dms) // 2], "\n===", flush=True)


if __name__ == "__main__":
    main()
