"""Games for the page tests: whole games of bots, a live table with one human, and the
private markers of every seat at every version of a game."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from bot.service import Actor, TableService, TableSettings
from bot.store import Store
from engine.core import get_game

HOST = Actor("u0", "Alice")
GAMES = ("ginkgopolis", "quadropolis", "neotopia", "skybridge")
SETTINGS = TableSettings(seat_order="join", ai_level="easy")

# What a seat's hand holds, as its private view says it: card and tile ids (``Y14``,
# ``C07``) and picks written as moves (``A1@T3``).
_MARKER = re.compile(r"^(?:[A-Z]{1,2}\d{1,3}|[A-Z]\d@[A-Z]\d)$")
# The options a seat could take are no secret of its hand (anyone may take them too).
_NOT_HELD = ("legal", "takes_nothing")


async def bot_game(service: TableService, game: str, *, seats: int = 3, seed: int = 1,
                   guild: str | None = "g1") -> int:
    """A whole game of bots (the cheap AI), finished when this returns."""
    info = await service.create(HOST, game, settings=SETTINGS, seed=seed, guild_id=guild,
                                join=False)
    for _ in range(seats):
        await service.add_bot(info.id, HOST, level="easy")
    await service.start(info.id, HOST)
    await service.settle(info.id)
    return info.id


async def live_table(service: TableService, game: str = "skybridge", *, seed: int = 4,
                     guild: str | None = "g1", locale: str = "en") -> int:
    """A running table where Alice (seat 0) has a move to make against a bot."""
    settings = TableSettings(seat_order="join", ai_level="easy", locale=locale)
    info = await service.create(HOST, game, settings=settings, seed=seed, guild_id=guild)
    await service.add_bot(info.id, HOST, level="easy")
    await service.start(info.id, HOST)
    await service.settle(info.id)
    return info.id


async def play_one(service: TableService, table_id: int) -> str:
    """Alice plays her first option (the bot answers at once); the move's text."""
    prompt = await service.prompt(table_id, HOST)
    option = prompt.options[0]
    await service.act(table_id, HOST, option.json, version=prompt.version)
    await service.settle(table_id)
    return option.text


def _leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, f"{path}/{key}")
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, f"{path}[]")
    else:
        yield path, value


def markers_of(game_name: str, state: Any, seats: int, told: str = "") -> set[str]:
    """Every seat's private markers in ``state``: what its own view holds that the public
    view does not, nor ``told`` (JSON of what the game told everyone already: the public
    log, the final scores)."""
    game = get_game(game_name)
    public = json.dumps(game.view(state, None), ensure_ascii=False)
    found: set[str] = set()
    for seat in range(seats):
        for path, value in _leaves(game.view(state, seat)):
            if any(word in path for word in _NOT_HELD) or not isinstance(value, str):
                continue
            quoted = json.dumps(value, ensure_ascii=False)
            if _MARKER.match(value) and quoted not in public and quoted not in told:
                found.add(value)
    return found


async def public_log(store: Store, table_id: int) -> list[str]:
    """The log as everyone reads it, as JSON: item ``i`` holds every move's public text
    and public events up to version ``i + 1`` (item 0: nothing yet)."""
    told = [""]
    for a in await store.load_actions(table_id):
        told.append(told[-1] + json.dumps([a.public_text, a.events], ensure_ascii=False))
    return told


async def markers_by_version(store: Store, table_id: int, only: set[int] | None = None
                             ) -> list[tuple[int, set[str]]]:
    """(version, the private markers then) from the setup to the end (or at the versions
    ``only``), replayed from the log; what the log told by a version is public by then (a
    card drawn from the open offer), so it is no marker."""
    table = await store.load_table(table_id)
    assert table is not None
    seats = len(await store.load_seats(table_id))
    game = get_game(table.game)
    told = await public_log(store, table_id)
    state = game.setup(seats, table.options, table.seed)
    found = []
    if only is None or 1 in only:
        found.append((1, markers_of(table.game, state, seats, told[0])))
    for record in await store.load_actions(table_id):
        game.apply(state, record.seat, game.action_from_json(record.action))
        if only is None or record.version in only:
            found.append((record.version, markers_of(table.game, state, seats,
                                                     told[record.version - 1])))
    return found


async def current_markers(store: Store, table_id: int) -> set[str]:
    """The markers now, but for what the log so far (and the scores, once over)
    revealed."""
    table = await store.load_table(table_id)
    assert table is not None and table.snapshot is not None
    game = get_game(table.game)
    state = game.state_from_json(json.loads(table.snapshot))
    told = (await public_log(store, table_id))[-1]
    seats = len(await store.load_seats(table_id))
    return markers_of(table.game, state, seats,
                      told + json.dumps(table.outcome, ensure_ascii=False))


def leaked(text: str, markers: set[str]) -> set[str]:
    """The markers ``text`` holds as words of their own."""
    return {m for m in markers if re.search(rf"(?<![\w@]){re.escape(m)}(?![\w@])", text)}
