"""Random 4-player play through the service, as the benchmarks drive it: tables one after
another (a table that ends is followed by a new one), each next move chosen at random
among the prompt's options of the lowest waiting seat."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

from bot.service import Actor, TableService, TableSettings
from engine.core import Rng


@dataclass(frozen=True)
class Move:
    """The next move: ``await service.act(move.table, move.actor, move.json,
    version=move.version)``, the caller timing it as it likes."""

    table: int
    actor: Actor
    json: dict[str, Any]
    version: int


async def new_table(service: TableService, game: str, players: Sequence[Actor]) -> int:
    info = await service.create(players[0], game, settings=TableSettings(seat_order="join"))
    for player in players[1:]:
        await service.join(info.id, player)
    await service.start(info.id, players[0])
    return info.id


async def random_moves(service: TableService, game: str, players: Sequence[Actor],
                       rng: Rng) -> AsyncIterator[Move]:
    """Endless; the caller plays each move before asking for the next."""
    while True:
        table = await new_table(service, game, players)
        while (current := await service.info(table)).status == "running":
            seat = min(current.waiting)
            prompt = await service.prompt(table, players[seat])
            option = prompt.options[rng.randbelow(len(prompt.options))]
            yield Move(table, players[seat], dict(option.json), prompt.version)
