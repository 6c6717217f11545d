"""The table service: lobby, start, actions, bots, deadlines, admin, end of game.

Rules of the house:
- one asyncio.Lock per table; every change happens under it;
- the engine decides what is legal; the service only checks who may ask;
- one accepted change = one store transaction (action, snapshot, version, and the
  notifications it owes, in the outbox), conditional on the rev it read; the delivery
  worker sends the outbox only after that commit;
- a refusal (``Refused``) leaves the table exactly as it was.

The verbs live in modules named after what they hold, over one base (``core``):
``turns`` (the road every move takes), ``lobby``, ``seats``, ``play``, ``admin`` and
``queries``. Importers see only ``TableService``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.clock import Clock
from bot.service.admin import AdminVerbs
from bot.service.channels import ChannelVerbs
from bot.service.core import StoreCorrupt
from bot.service.delivery import DeliveryWorker
from bot.service.lobby import LobbyVerbs
from bot.service.notifications import Notifier
from bot.service.play import PlayVerbs
from bot.service.queries import Queries
from bot.service.scheduler import DeadlineScheduler
from bot.service.seats import SeatVerbs
from bot.service.thinking import Thinker
from bot.store import Store
from engine.core import Game
from engine.core import get_game as registry_get_game

__all__ = ["StoreCorrupt", "TableService"]


class TableService(LobbyVerbs, SeatVerbs, PlayVerbs, AdminVerbs, Queries, ChannelVerbs):
    def __init__(
        self,
        store: Store,
        notifier: Notifier,
        *,
        clock: Clock | None = None,
        scheduler: AsyncIOScheduler | None = None,
        get_game: Callable[[str], Game[Any]] = registry_get_game,
        cache_size: int = 256,
        thinker: Thinker | None = None,
    ) -> None:
        """``thinker``: where the bots' AIs think (by default ``search`` in a process
        pool started at its first use; ``close`` stops it)."""
        super().__init__(store, notifier, clock=clock, get_game=get_game,
                         cache_size=cache_size, thinker=thinker)
        self.deadlines = DeadlineScheduler(
            scheduler, on_deadline=self.on_deadline, on_reminder=self.on_reminder,
            now=self.clock.now)
        self.delivery = DeliveryWorker(store, notifier, self.clock,
                                       on_failed=self._private_failed)
        self.delivery.fill = self._filler
