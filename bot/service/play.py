"""A seat's moves: from a button (JSON), typed (text), or by the AI at the host's request."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from bot.service.compose import note
from bot.service.core import (
    MAX_ECHO,
)
from bot.service.errors import Refused
from bot.service.levels import level_of
from bot.service.settings import Actor
from bot.service.turns import TurnVerbs
from bot.service.values import ActResult
from engine.core import IllegalAction, ParseError

log = logging.getLogger(__name__)


class PlayVerbs(TurnVerbs):
    async def act(self, table_id: int, actor: Actor, action: Mapping[str, Any], *,
                  version: int | None, in_place: bool = False) -> ActResult:
        """Apply an action given in its JSON form (a button, a select). ``version`` is the
        table version the button was built for (``Prompt.version``); None skips the check
        (only for front ends that read the action against the current state).
        ``in_place``: the front end answers the actor itself, in the message clicked
        (what they chose, the next step of the same decision), so the private notes that
        would say the same are marked ``quiet``."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            seat = self._require_turn_seat(live, actor, version)
            try:
                parsed = live.game.action_from_json(action)
            except Exception:
                raise Refused("forged", "That is not an action of this game.",
                              **self._options_context(live, seat.seat)) from None
            return await self._act(live, seat, parsed, actor, in_place=in_place)

    async def act_text(self, table_id: int, actor: Actor, text: str, *,
                       version: int | None = None, in_place: bool = False) -> ActResult:
        """Apply an action typed in the engine's text form."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            seat = self._require_turn_seat(live, actor, version)
            if not live.game.legal_actions(live.state, seat.seat):
                raise Refused("not_your_turn", "You have nothing to decide right now.")
            try:
                parsed = live.game.parse_action(live.state, seat.seat, text)
            except (ParseError, IllegalAction) as exc:
                code = "parse" if isinstance(exc, ParseError) else "illegal"
                # The engine's own code and values, so a template can say why in any
                # language (a message too long, a card not in hand...).
                raise Refused(code, exc.message, typed=text[:MAX_ECHO], reason=exc.code,
                              reason_params=dict(exc.params),
                              **self._options_context(live, seat.seat)) from None
            return await self._act(live, seat, parsed, actor, in_place=in_place)

    async def play_for(self, table_id: int, actor: Actor, seat: int) -> ActResult:
        """Host or manager: let the AI make the seat's current decision now (source=admin)."""
        async with self._lock(table_id):
            live = await self._load(table_id)
            self._require_host(live, actor)
            self._require_running(live)
            target = self._require_seat_number(live, seat)
            if not live.game.legal_actions(live.state, seat):
                raise Refused("not_your_turn", f"{target.name} has nothing to decide now.")
            kind = self._timeout_ai(live)
            # A search AI thinks off the lock (and again if the table moves meanwhile).
            chosen = await self._choose_for(
                table_id, live, seat, kind,
                lambda t: t.record.status == "running"
                and bool(t.game.legal_actions(t.state, seat)))
            if chosen is None:
                raise Refused("not_your_turn", f"{target.name} has nothing to decide now.")
            live, action = chosen
            level = level_of(kind)
            await self._commit(live, seat, action, "admin", actor.user_id, level=level,
                               extra=lambda t: [note(t, seat, "timeout_played",
                                                     {"played": action.text(),
                                                      "by_admin": True, "level": level})])
            await self._after_change(live)
            return ActResult(live.id, seat, live.record.version, action.text(),
                             live.record.status == "finished")
