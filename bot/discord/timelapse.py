"""The city's timelapse for the end of a game: the public board after every round, from
a replay of the table's log (the log and the seed are the whole history, so a restart
in the middle of the game loses no frame, and nothing is kept in memory meanwhile).

Only public views are drawn; a game whose renderer has no ``render_timelapse`` gets none.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from bot import images
from bot.service import TableService
from bot.store import ActionRecord, TableRecord
from engine.core import Game

log = logging.getLogger(__name__)

MAX_FRAMES = 60


def round_views(game: Game[Any], table: TableRecord, seats: int,
                actions: Sequence[ActionRecord]) -> list[Mapping[str, Any]]:
    """The public view at the start of each round (a view's ``round``), then the end.
    Games without rounds get one frame per move, thinned to ``MAX_FRAMES``."""
    state = game.setup(seats, table.options, table.seed)
    views: list[Mapping[str, Any]] = [game.view(state, None)]
    for record in actions:
        game.apply(state, record.seat, game.action_from_json(record.action))
        view = game.view(state, None)
        if view.get("round") is None or view.get("round") != views[-1].get("round"):
            views.append(view)
    final = game.view(state, None)
    if views[-1] != final:
        views.append(final)
    if len(views) > MAX_FRAMES:
        step = len(views) / MAX_FRAMES
        views = [views[int(i * step)] for i in range(MAX_FRAMES - 1)] + [views[-1]]
    return views


def _render(game: Game[Any], table: TableRecord, seats: int,
            actions: Sequence[ActionRecord]) -> bytes | None:
    return images.render_timelapse(table.game, round_views(game, table, seats, actions),
                                   table.outcome, locale=table.locale)


async def timelapse(service: TableService, table_id: int) -> images.Image | None:
    """The GIF, or None (no renderer, or a replay or a drawing that failed: logged)."""
    record = await service.store.load_table(table_id)
    if record is None or record.snapshot is None:
        return None
    module = images.renderer_module(record.game)
    if module is None or not hasattr(module, "render_timelapse"):
        return None
    seats = len(await service.store.load_seats(table_id))
    actions = await service.store.load_actions(table_id)
    game = service.get_game(record.game)
    job = functools.partial(_render, game, record, seats, actions)
    try:
        data = await asyncio.get_running_loop().run_in_executor(None, job)
    except Exception:
        log.exception("table %d: the timelapse could not be drawn", table_id)
        return None
    if data is None or len(data) > images.MAX_FILE_BYTES:
        return None
    return images.Image(f"timelapse-{table_id}.gif", data)
