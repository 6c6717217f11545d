"""The console front end: hot-seat play for the humans, bots for the rest.

Table notifications print as they come; a seat's private notifications wait until that
seat's turn, so players sharing one screen only see their own secrets on their turn.
Reads one command per line, so it runs the same from a keyboard or a piped file.
"""

from __future__ import annotations

import tempfile
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO

from bot.service import Actor, Notification, Refused, TableService, TableSettings
from bot.service.notifications import Delivery
from bot.store import SqliteStore
from bot.text import Renderer


class ConsoleNotifier:
    inline = True  # printed at once, in order, after each commit

    def __init__(self, out: TextIO, renderer: Renderer) -> None:
        self.out = out
        self.renderer = renderer
        self.private: defaultdict[int, list[Notification]] = defaultdict(list)

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        for n in notes:
            if n.seat is None:
                self.out.write(self.renderer.render(n) + "\n")
            else:
                self.private[n.seat].append(n)
        return {}

    def flush_private(self, seat: int) -> None:
        for n in self.private.pop(seat, []):
            self.out.write("  (private) " + self.renderer.render(n).replace("\n", "\n  ") + "\n")


async def run_local(game: str, players: int, bots: int, *, db: Path | None = None,
                    seed: int | None = None, locale: str = "en", stdin: TextIO,
                    out: TextIO) -> int:
    humans = players - bots
    if humans < 0:
        out.write("--bots cannot exceed --players\n")
        return 2
    with tempfile.TemporaryDirectory(prefix="urbanist-") as tmp:
        store = await SqliteStore.open(db or Path(tmp) / "local.sqlite3")
        try:
            return await _play(store, game, humans, bots, seed, locale, stdin, out)
        finally:
            await store.close()


async def _play(store: SqliteStore, game: str, humans: int, bots: int, seed: int | None,
                locale: str, stdin: TextIO, out: TextIO) -> int:
    renderer = Renderer()
    notifier = ConsoleNotifier(out, renderer)
    service = TableService(store, notifier)
    people = [Actor(f"local:{i + 1}", f"Player {i + 1}") for i in range(humans)]
    host = people[0] if people else Actor("local:host", "Host")

    def say(template: str, **context: object) -> None:
        out.write(renderer.render_template(template, context, locale=locale, game=game) + "\n")

    try:
        # Nobody waits at a kitchen table: no deadlines, so no AI plays for a human.
        settings = TableSettings(locale=locale, timeout_policy="none")
        info = await service.create(host, game, settings=settings, seed=seed,
                                    max_seats=humans + bots, join=bool(people))
        for person in people[1:]:
            await service.join(info.id, person)
        for _ in range(bots):
            await service.add_bot(info.id, host)
        await service.start(info.id, host)
    except Refused as exc:
        out.write(renderer.refusal(exc, locale=locale, game=game) + "\n")
        return 2
    table = info.id
    by_user = {p.user_id: p for p in people}
    if people:
        say("console_help")
    while True:
        info = await service.info(table)
        if info.status != "running":
            break
        waiting = [s for s in sorted(info.waiting) if not info.seats[s].is_bot]
        if not waiting:
            break
        seat = waiting[0]
        user = info.seats[seat].user_id
        actor = by_user[user] if user else host
        out.write(f"\n=== {info.seats[seat].name}: {info.waiting[seat]} ===\n")
        notifier.flush_private(seat)
        say("view", view=await service.view(table, actor))
        while True:
            out.write(f"{info.seats[seat].name}> ")
            out.flush()
            line = stdin.readline()
            if not line:  # end of input: leave like ``quit``
                out.write("\n")
                return 0
            command = line.strip()
            if not stdin.isatty():
                out.write(command + "\n")  # a piped transcript reads like a session
            if not command:
                continue
            if command == "quit":
                return 0
            if command == "help":
                say("console_help")
                continue
            prompt = await service.prompt(table, actor)
            if command == "legal":
                for i, option in enumerate(prompt.options, 1):
                    out.write(f"  #{i}  {option.text}\n")
                continue
            if command in ("view", "board"):
                view = await service.view(table, actor if command == "view" else None)
                say("view", view=view)
                continue
            if command == "log":
                for entry in await service.log(table):
                    shown = entry.text if entry.text is not None else "(secret)"
                    out.write(f"  v{entry.version} {entry.name} [{entry.source}] {shown}\n")
                continue
            try:
                # ASCII digits only, and few: isdigit() takes "²" and "①", which int() rejects.
                if (command[:1] == "#" and command[1:].isascii() and command[1:].isdigit()
                        and len(command) <= 7):
                    index = int(command[1:]) - 1
                    if not 0 <= index < len(prompt.options):
                        out.write(f"  choose #1 to #{len(prompt.options)}\n")
                        continue
                    await service.act(table, actor, prompt.options[index].json,
                                      version=prompt.version)
                else:
                    await service.act_text(table, actor, command, version=prompt.version)
            except Refused as exc:
                out.write(renderer.refusal(exc, locale=locale, game=game) + "\n")
                continue
            notifier.flush_private(seat)  # the player is still at the screen
            break
    info = await service.info(table)
    return 0 if info.status == "finished" else 1
