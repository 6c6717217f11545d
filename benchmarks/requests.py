"""Every REST call Discord would receive over whole 4-player games of the four games, by
kind, per round and per decision: each game played through simcord (no network) the way
players do it, by clicking the menus of their DMs, and, for a player whose DMs are
closed, the menus of the ephemeral replies of the status message's "My hand" button.

    python benchmarks/requests.py [--games ginkgopolis,quadropolis,neotopia,skybridge]
        [--seed 5] [--rounds N] [--closed-dms 1] [--typed-every 0] [--repo OLD_CHECKOUT]

The count is taken where simcord routes a REST call (``simcord.http.router.dispatch``,
the one function both its HTTP client and its webhook adapter call: channel messages,
DMs, interaction callbacks, follow-ups and the edits of an interaction's messages
alike), so no kind of call escapes it; a call Discord refuses (a closed DM) is counted
too, since Discord received it. ``--rounds N`` stops each game after N rounds (a quick
run); ``--repo`` runs the same games on another checkout (its bot, its test world),
with this venv. Columns: see the "Discord requests" section of benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import itertools
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GAMES = ("ginkgopolis", "quadropolis", "neotopia", "skybridge")
NAMES = ("alice", "bob", "chloe", "dan")
# Every kind of REST call, in the order of the columns.
KINDS = ("ch_post", "ch_edit", "dm_open", "dm_post", "dm_edit", "callback", "followup",
         "orig_edit", "fu_edit", "delete", "reaction", "read", "other")
CALLBACK_TYPES = {1: "pong", 4: "message", 5: "thinking", 6: "defer_update", 7: "update",
                  8: "autocomplete", 9: "modal"}
MENU_PREFIXES = ("urb:a:", "urb:s:", "urb:g:")
# Calls made with an interaction's token: Discord does not count them against the bot's
# global rate limit, unlike every other call.
TOKEN_KINDS = ("callback", "followup", "orig_edit", "fu_edit")
CHANNEL_BUDGET = 3  # bot/service/README.md, "The request budget": news post + status edit


@dataclass
class Call:
    method: str
    path: str
    kind: str
    callback: str | None = None  # the interaction response's type, for a callback
    status: int = 200


def kind_of(backend: Any, method: str, path: str) -> str:
    """The kind of a REST call, from its route (``path`` without the API prefix)."""
    parts = path.strip("/").split("/")
    if method == "GET":
        return "read"
    if parts[0] == "interactions" and parts[-1] == "callback":
        return "callback"
    if parts[0] == "webhooks" and len(parts) == 3 and method == "POST":
        return "followup"
    if parts[0] == "webhooks" and len(parts) == 5 and parts[3] == "messages":
        if method == "DELETE":
            return "delete"
        return "orig_edit" if parts[4] == "@original" else "fu_edit"
    if parts[:3] == ["users", "@me", "channels"]:
        return "dm_open"
    if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
        if "reactions" in parts:
            return "reaction"
        if method == "DELETE" or parts[-1] == "bulk-delete":
            return "delete"
        try:
            dm = backend.get_channel(int(parts[1])).guild_id is None
        except Exception:  # an unknown channel: Discord still received the call
            dm = False
        if len(parts) == 3 and method == "POST":
            return "dm_post" if dm else "ch_post"
        if len(parts) == 4 and method == "PATCH":
            return "dm_edit" if dm else "ch_edit"
    return "other"


def route_of(method: str, path: str) -> str:
    """The route a call took, ids and tokens left out: ``POST /webhooks/{id}/{token}``."""
    parts = path.strip("/").split("/")
    for i, part in enumerate(parts):
        if part.isdigit():
            parts[i] = "{id}"
        elif i == 2 and parts[0] in ("webhooks", "interactions"):
            parts[i] = "{token}"
    return f"{method} /" + "/".join(parts)


class Hook:
    """Counts every call simcord's router dispatches while installed. ``take()`` hands
    over the calls since the last take, and checks that simcord's own log of the calls
    (``backend.http_requests``) grew by as many: nothing reached the routes around it."""

    def __init__(self, backend: Any) -> None:
        from simcord.backend.errors import BackendError
        from simcord.http import router

        self.backend = backend
        self.calls: list[Call] = []
        self._router = router
        self._real: Callable[..., Any] = router.dispatch
        self._logged = len(backend.http_requests)

        def counting(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            call = Call(method, path, kind_of(backend, method, path))
            if call.kind == "callback" and isinstance(kwargs.get("json"), dict):
                code = kwargs["json"].get("type")
                call.callback = CALLBACK_TYPES.get(code, str(code))
            self.calls.append(call)
            try:
                return self._real(backend, method, path, **kwargs)
            except BackendError as exc:
                call.status = exc.status
                raise

        router.dispatch = counting

    def take(self) -> list[Call]:
        calls, self.calls = self.calls, []
        logged = len(self.backend.http_requests)
        if logged - self._logged != len(calls):
            missed = self.backend.http_requests[self._logged:]
            raise AssertionError(f"{len(missed)} calls logged, {len(calls)} counted: "
                                 + ", ".join(f"{c.method} {c.path}" for c in missed))
        self._logged = logged
        return calls

    def remove(self) -> None:
        self._router.dispatch = self._real


@dataclass
class Row:
    """The calls of one round (or of the lobby): what the decisions taken in it caused."""

    label: str
    decisions: int = 0
    turns: int = 0  # runs of decisions by one seat
    together: bool = False  # several seats were asked at once (simultaneous picks)
    kinds: Counter[str] = field(default_factory=Counter)
    callbacks: Counter[str] = field(default_factory=Counter)
    routes: Counter[str] = field(default_factory=Counter)
    failed: int = 0

    def add(self, calls: list[Call]) -> None:
        for call in calls:
            self.kinds[call.kind] += 1
            self.routes[f"{call.kind:9} {route_of(call.method, call.path)}"] += 1
            if call.callback is not None:
                self.callbacks[call.callback] += 1
            if call.status >= 400:
                self.failed += 1

    @property
    def total(self) -> int:
        return sum(self.kinds.values())

    @property
    def channel(self) -> int:
        return self.kinds["ch_post"] + self.kinds["ch_edit"]


class RoundClock:
    """The round a view shows: Ginkgopolis and Quadropolis say it, Neotopia in its turn;
    Skybridge has none, so a round there is one pass of the turn order."""

    def __init__(self) -> None:
        self.passes = 1
        self.index: int | None = None

    def __call__(self, view: dict[str, Any]) -> int:
        if isinstance(view.get("round"), int):
            return int(view["round"])
        turn = view.get("turn") or {}
        if isinstance(turn.get("round"), int):
            return int(turn["round"])
        index = turn.get("index")
        if isinstance(index, int):
            if self.index is not None and index < self.index:
                self.passes += 1
            self.index = index
        return self.passes


@dataclass
class Game:
    game: str
    lobby: Row
    start: Row
    rows: list[Row]
    finished: bool
    seconds: float


def _has_option(name: str) -> bool:
    from bot.discord import create_bot
    from bot.discord.bot import BotConfig

    return (name in inspect.signature(create_bot).parameters
            or name in getattr(BotConfig, "__dataclass_fields__", {}))


def _menu_ids(sim: Any, message: Any) -> list[str]:
    return [c for c in sim.custom_ids(message) if c.startswith(MENU_PREFIXES)]


async def _pick_in_reply(world: Any, sim: Any, member: Any, table: int, text: str,
                         held: dict[int, Any]) -> None:
    """A player with closed DMs: the menu of their last ephemeral reply when it still
    offers ``text`` (the next step of a decision is shown there), else a new one from
    the status message's "My hand" button."""
    message = held.get(member.id)
    if message is not None:
        message = world.refresh(message)
        if _menu_ids(sim, message):
            try:
                await world.pick(member, message, text, clicker=member)
                return
            except AssertionError:
                pass  # not offered there: that menu is another decision's
    result = await member.click(world.status_message(table), custom_id=f"urb:h:{table}")
    answers = [a.message for a in [result.response, *result.followups] if a is not None]
    found = [m for m in answers if _menu_ids(sim, m)]
    assert found, f"'My hand' showed {member.name} no menu"
    held[member.id] = found[-1]
    await world.pick(member, found[-1], text, clicker=member)


async def play(game: str, seed: int, rounds: int, closed: int, typed: int) -> Game:
    """One 4-player ``game`` through Discord; ``closed`` players (the last ones) have
    closed DMs; the others type every ``typed``-th move in their DM (0: never). Stops
    after ``rounds`` rounds when positive."""
    import discord
    import simcord

    from bot.clock import FakeClock
    from bot.discord import create_bot
    from bot.store import SqliteStore

    sim = importlib.import_module("simtable")
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "urbanist.sqlite3"
        clock = FakeClock()
        store = await SqliteStore.open(db)
        options: dict[str, Any] = dict(clock=clock, scheduler=False, store=store,
                                       seeds=itertools.count(1000))
        if _has_option("pacing"):
            options["pacing"] = False  # no pause between messages: simcord needs none
        bot = create_bot(db, **options)
        async with simcord.run(bot, approved_intents=discord.Intents.default(),
                               settle_timeout=120.0) as env:
            guild = env.create_guild("Urbanists")
            channel = guild.create_text_channel("games")
            people = [guild.add_member(env.create_user(n, global_name=n.capitalize()))
                      for n in NAMES]
            spectator = guild.add_member(env.create_user("sam", global_name="Sam"))
            world = sim.World(env, bot, clock, db, guild, channel, people[:3], spectator,
                              people[3])
            in_replies = {m.id for m in people[len(people) - closed:]} if closed else set()
            for member in people:
                if member.id in in_replies:
                    env.inject_error("POST", f"/channels/{member.user.dm_channel.id}/messages",
                                     status=403, code=50007, times=None,
                                     message="Cannot send messages to this user")
            hook = Hook(env.backend)
            try:
                lobby = Row("lobby")
                await people[0].slash(channel, "table new", game=game)
                table = await world.table_id()
                for member in people[1:]:
                    status = world.status_message(table)
                    await member.click(status, label=sim.label(status, "urb:l:join"))
                lobby.add(hook.take())
                start = Row("start")  # the first decisions' messages, the news
                await people[0].click(world.status_message(table),
                                      custom_id=f"urb:l:start:{table}")
                await world.flush()
                start.add(hook.take())
                members = {str(m.id): m for m in people}
                rng = random.Random(seed)
                clock_of = RoundClock()
                current = clock_of(await world.service.view(table))
                row = Row(str(current))
                rows: list[Row] = []
                held: dict[int, Any] = {}
                last_seat: int | None = None
                moves = 0
                while (info := await world.service.info(table)).status == "running":
                    seat = sorted(info.waiting)[0]
                    row.together |= len(info.waiting) > 1
                    if seat != last_seat:
                        row.turns, last_seat = row.turns + 1, seat
                    member = members[info.seats[seat].user_id or ""]
                    prompt = await world.service.prompt(table, world.actor(member))
                    text = rng.choice([o.text for o in prompt.options])
                    if member.id in in_replies:
                        await _pick_in_reply(world, sim, member, table, text, held)
                    elif typed and moves % typed == typed - 1:
                        await member.send_dm(text)  # answered with a reaction
                    else:
                        await world.pick(member, world.menu_dm(member), text)
                    await world.flush()
                    after = await world.service.info(table)
                    if after.version <= info.version:
                        raise AssertionError(f"{game}: {member.name}'s {text!r} was not played")
                    row.decisions, moves = row.decisions + 1, moves + 1
                    row.add(hook.take())
                    now = clock_of(await world.service.view(table))
                    if now != current or after.status != "running":
                        rows.append(row)
                        if rounds and len(rows) >= rounds:
                            break
                        current, row, last_seat = now, Row(str(now)), None
                finished = (await world.service.info(table)).status != "running"
            finally:
                hook.remove()
            await bot.shutdown()
    return Game(game, lobby, start, rows, finished, time.perf_counter() - began)


# ------------------------------------------------------------------- report


def table_lines(g: Game) -> list[str]:
    head = ["round", "dec", "turns", *KINDS, "total", "per_dec", "failed"]
    lines = [" ".join(head)]
    for r in [g.lobby, g.start, *g.rows]:
        per = f"{r.total / r.decisions:.1f}" if r.decisions else "-"
        lines.append(" ".join([r.label, str(r.decisions), str(r.turns),
                               *(str(r.kinds[k]) for k in KINDS), str(r.total), per,
                               str(r.failed)]))
    return lines


def over_budget(r: Row) -> list[str]:
    """What a round spent beyond bot/service/README.md's budget: per round (per turn in
    a game of turns, where no two seats are asked at once) a news post and a status
    edit, 3 channel requests at most; per decision one DM and at most one DM edit."""
    unit = 1 if r.together else max(r.turns, 1)
    out = []
    if r.channel > CHANNEL_BUDGET * unit:
        per = "" if r.together else f" ({r.turns} turns)"
        out.append(f"channel {r.channel} > {CHANNEL_BUDGET * unit}{per}")
    for kind in ("dm_post", "dm_edit"):
        if r.kinds[kind] > r.decisions:
            out.append(f"{kind} {r.kinds[kind]} > {r.decisions} decisions")
    return [f"round {r.label}: {o}" for o in out]


def summary(g: Game, routes: bool = False) -> list[str]:
    whole = Row("all")
    for r in [g.start, *g.rows]:
        whole.decisions += r.decisions
        whole.turns += r.turns
        whole.kinds.update(r.kinds)
        whole.callbacks.update(r.callbacks)
        whole.routes.update(r.routes)
        whole.failed += r.failed
    rounds = max(len(g.rows), 1)
    token = sum(whole.kinds[k] for k in TOKEN_KINDS)
    worst = max((r.total for r in g.rows), default=0)
    out = [
        f"{g.game}: {len(g.rows)} rounds{'' if g.finished else ' (stopped early)'}, "
        f"{whole.decisions} decisions, {whole.total} requests from the start on: "
        f"{whole.total / max(whole.decisions, 1):.2f} per decision, "
        f"{whole.total / rounds:.1f} per round (worst {worst}), "
        f"channel {whole.channel / rounds:.1f} per round; failed {whole.failed}; "
        f"lobby {g.lobby.total}; {g.seconds:.0f} s",
        "  by kind: " + ", ".join(f"{k} {whole.kinds[k]}" for k in KINDS if whole.kinds[k]),
        f"  with an interaction's token {token}, the rest (global rate limit) "
        f"{whole.total - token} ({(whole.total - token) / max(whole.decisions, 1):.2f} "
        "per decision)",
        "  callbacks: " + ", ".join(f"{k} {v}" for k, v in sorted(whole.callbacks.items())),
    ]
    if routes:
        whole.routes.update(g.lobby.routes)
        out += [f"  {n:5} {route}" for route, n in sorted(whole.routes.items())]
    over = [o for r in g.rows for o in over_budget(r)]
    out.append(f"  over the budget ({len(over)} of {len(g.rows)} rounds): "
               + ("; ".join(over[:6]) + (" ..." if len(over) > 6 else "") if over else "none"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(GAMES),
                        help="comma-separated, from: " + ", ".join(GAMES))
    parser.add_argument("--seed", type=int, default=5, help="the players' choices")
    parser.add_argument("--rounds", type=int, default=0,
                        help="stop each game after this many rounds (0: play to the end)")
    parser.add_argument("--closed-dms", type=int, default=1, choices=range(0, 5),
                        help="how many of the 4 players have closed DMs and play through "
                             "ephemeral replies")
    parser.add_argument("--typed-every", type=int, default=0,
                        help="players with open DMs type every N-th move in their DM "
                             "instead of clicking (0: never)")
    parser.add_argument("--routes", action="store_true",
                        help="list every route called, with its kind and count")
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the checkout to measure (default: this one)")
    args = parser.parse_args()
    repo = args.repo.resolve()
    sys.path[:0] = [str(repo), str(repo / "tests" / "bot" / "discord")]
    print(f"repo {repo}, seed {args.seed}, closed DMs {args.closed_dms}, "
          f"typed every {args.typed_every or '-'}")
    results = []
    for game in args.games.split(","):
        g = asyncio.run(play(game.strip(), args.seed, args.rounds, args.closed_dms,
                             args.typed_every))
        results.append(g)
        print()
        print("\n".join(table_lines(g)))
        print("\n".join(summary(g, args.routes)))
    print()
    for g in results:
        print(summary(g)[0])


if __name__ == "__main__":
    main()
