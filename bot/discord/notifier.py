"""The service's notifications, turned into Discord messages.

``deliver`` is called under the table's lock, so it only queues; one worker task per
table then publishes, in order. Whatever has piled up meanwhile (a chain of bot moves)
is published together: one channel message for the table's news, the board image when
the board changed, one edit of the status message, and one DM per seat.

Private notifications go by DM. When Discord answers 403 with code 50007 (the user does
not accept DMs from the bot), the seat is marked unreachable and the player is told in
the channel to use ``/hand``; from then on a decision for that seat is announced in the
channel (without any of its content) instead of DMed. The game never waits on a DM.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import discord

from bot import images
from bot.discord.frontend import Frontend, Outgoing
from bot.discord.status import StatusBoard
from bot.discord.timelapse import timelapse
from bot.service import FileSpec, Notification, Refused, TableInfo

log = logging.getLogger(__name__)

DMS_CLOSED = 50007
# Status notifications whose news is the status message itself; others (the result,
# an abort) are news the channel should also read as a message.
STATUS_ONLY = frozenset({"lobby", "waiting"})
# Private notifications that ask the seat for a decision.
DECISIONS = frozenset({"your_turn", "reminder"})
PINGS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


class DiscordNotifier:
    def __init__(self, fe: Frontend) -> None:
        self.fe = fe
        self.status = StatusBoard(fe)
        self._pending: dict[int, list[Notification]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._boards: dict[int, str] = {}  # digest of the last board image posted

    async def deliver(self, notes: Sequence[Notification]) -> None:
        for n in notes:
            self._pending.setdefault(n.table_id, []).append(n)
        for table in dict.fromkeys(n.table_id for n in notes):
            if table not in self._workers:
                self._workers[table] = asyncio.get_running_loop().create_task(
                    self._drain(table), name=f"urbanist-notify-{table}")

    async def idle(self) -> None:
        """Wait until everything queued so far is published (tests, shutdown)."""
        while self._workers:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)

    async def _drain(self, table: int) -> None:
        try:
            while self._pending.get(table):
                notes = self._pending.pop(table)
                try:
                    await self.publish(table, notes)
                except Exception:
                    # A Discord hiccup must not stop the next notifications of the table.
                    log.exception("table %d: publishing %d notifications failed", table,
                                  len(notes))
        finally:
            self._workers.pop(table, None)

    # ---------------------------------------------------------------- publishing

    async def publish(self, table: int, notes: Sequence[Notification]) -> None:
        try:
            info = await self.fe.service.info(table)
        except Refused:
            return
        channel = await self.fe.channel(info)
        public = [n for n in notes if n.seat is None]
        if channel is not None and public:
            await self._publish_public(info, channel, public)
            await self.status.show(info, channel)
        private: defaultdict[int, list[Notification]] = defaultdict(list)
        for n in notes:
            if n.seat is not None:
                private[n.seat].append(n)
        for seat, seat_notes in private.items():
            await self._publish_private(info, channel, seat, seat_notes)

    async def _publish_public(self, info: TableInfo, channel: discord.abc.Messageable,
                              notes: Sequence[Notification]) -> None:
        texts: list[str] = []
        board: Notification | None = None
        scores: Notification | None = None
        for n in notes:
            if not (n.slot == "status" and n.template in STATUS_ONLY):
                texts.append(self.fe.renderer.render(n))
            for spec in n.files:
                if spec.kind == "board" and spec.seat is None:
                    board = n
                elif spec.kind == "scores":
                    scores = n
        files: list[images.Image] = []
        if board is not None:
            image = await self.fe.image_for(info.game, FileSpec("board"),
                                            board.context.get("view"), info)
            digest = None if image is None else hashlib.sha256(image.data).hexdigest()
            if image is not None and digest != self._boards.get(info.id):
                files.append(image)
                self._boards[info.id] = digest or ""
        if scores is not None:
            image = await self.fe.image_for(info.game, FileSpec("scores"),
                                            scores.context.get("view"), info)
            if image is not None:
                files.append(image)
            movie = await timelapse(self.fe.service, info.id)
            if movie is not None:
                files.append(movie)
        if not texts and not files:
            return
        content = "\n".join(t for t in texts if t.strip())
        if not content:
            content = self.fe.say("board_caption", info.locale, info.game, table_id=info.id)
        await self._post(channel, Outgoing(content), files)

    async def _post(self, channel: discord.abc.Messageable, out: Outgoing,
                    files: Sequence[images.Image] = ()) -> None:
        parts = out.parts()
        for i, part in enumerate(parts):
            kwargs: dict[str, Any] = {}
            if i == len(parts) - 1 and files:
                kwargs["files"] = [Outgoing("", image).file() for image in files]
            try:
                await channel.send(part, **kwargs)
            except discord.HTTPException:
                log.warning("could not post to channel %s", getattr(channel, "id", "?"))
                return

    async def _publish_private(self, info: TableInfo, channel: discord.abc.Messageable | None,
                               seat: int, notes: Sequence[Notification]) -> None:
        user_id = notes[-1].user_id
        if user_id is None:
            return
        seat_info = info.seats[seat] if seat < len(info.seats) else None
        wants_action = any(n.template in DECISIONS for n in notes)
        if seat_info is not None and seat_info.user_id == user_id and not seat_info.dm_ok:
            # Known closed DMs: a failed DM per move would only annoy Discord. Say in
            # the channel that the seat is awaited, without a word of its content.
            if wants_action and channel is not None:
                await self._ping(channel, info, user_id, "dm_turn")
            return
        out = await self._private_message(info, seat, notes)
        try:
            await self._dm(int(user_id), out)
        except discord.Forbidden as exc:
            if exc.code != DMS_CLOSED:
                log.warning("table %d: DM to seat %d refused (%s)", info.id, seat, exc.code)
                return
            log.info("table %d: seat %d does not accept DMs", info.id, seat)
            await self.fe.service.set_dm_reachable(info.id, user_id, False)
            if channel is not None:
                await self._ping(channel, info, user_id, "dm_closed")
        except discord.HTTPException:
            log.warning("table %d: DM to seat %d failed", info.id, seat)

    async def _private_message(self, info: TableInfo, seat: int,
                               notes: Sequence[Notification]) -> Outgoing:
        texts = [self.fe.renderer.render(n) for n in notes]
        image_note = next((n for n in reversed(notes)
                           if any(s.kind == "board" and s.seat == seat for s in n.files)), None)
        image = None
        if image_note is not None:
            image = await self.fe.image_for(info.game, FileSpec("board", seat),
                                            image_note.context.get("view"), info)
        # The newest decision wins: older menus in the batch were already superseded.
        view = None
        for n in reversed(notes):
            if n.context.get("options"):
                view = self.fe.menu_from_context(n.context, info.id, info.locale)
                break
        return Outgoing("\n\n".join(t for t in texts if t.strip()), image, view)

    async def _dm(self, user_id: int, out: Outgoing) -> None:
        dm = await self.fe.client.create_dm(discord.Object(id=user_id))
        parts = out.parts()
        for i, part in enumerate(parts):
            kwargs: dict[str, Any] = {}
            if i == len(parts) - 1:
                file = out.file()
                if file is not None:
                    kwargs["file"] = file
                if out.view is not None:
                    kwargs["view"] = out.view
            await dm.send(part, **kwargs)

    async def _ping(self, channel: discord.abc.Messageable, info: TableInfo, user_id: str,
                    template: str) -> None:
        text = self.fe.say(template, info.locale, info.game, mention=f"<@{user_id}>",
                           table_id=info.id)
        try:
            await channel.send(text, allowed_mentions=PINGS)
        except discord.HTTPException:
            log.warning("table %d: could not post in the channel", info.id)
