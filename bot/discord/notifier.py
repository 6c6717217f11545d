"""The Discord transport: the delivery worker (bot/service/delivery.py) hands it a table's
stored notifications, and it says what became of each.

The request budget of a round: the table's news in ONE channel post (a round's public
events are held until the round ends, then posted together with the board image when
the board changed), ONE edit of the status message when its text changed, ONE DM per seat
per decision, and reminders. A secret step is never announced; the click that makes it
is answered by editing the menu it came from (an interaction response, not a message).
When a decision closes, its menu is disabled (one edit), so only the current decision's
menu is live.

Failures: 429, 5xx and network errors come back as ``Retry`` (the worker backs off and
tries again, after a restart too); any other refusal of a DM is ``Failed``, and the
service then marks the seat unreachable and tells the player in the channel to use
``/hand``. A notification that was being sent when the process died is *in doubt*: the
destination's recent messages are read first, and what is already there is not sent
again. A message too long for one Discord message goes out in parts; each part sent is
recorded on its outbox rows at once, so a retry (a 503 on a later part, or a crash)
resumes after the parts that went out instead of posting them twice.
"""

from __future__ import annotations

import hashlib
import logging
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import aiohttp
import discord

from bot import images
from bot.discord.components import menu_from_context
from bot.discord.frontend import BRIEF_DECISION, Frontend, Outgoing
from bot.discord.news import news_lines
from bot.discord.pacing import Pacer
from bot.discord.pages import link_line, link_of
from bot.discord.status import StatusBoard
from bot.discord.timelapse import timelapse
from bot.service import FileSpec, Notification, Refused, TableInfo
from bot.service.notifications import HELD, Delivery, Failed, Retry
from bot.text import Renderer

log = logging.getLogger(__name__)

# Status notifications whose news is the status message itself; others (the result,
# an abort) are news the channel should also read as a message.
STATUS_ONLY = frozenset({"lobby", "waiting"})
# Private notifications that ask the seat for a decision.
DECISIONS = frozenset({"your_turn", "reminder"})
PINGS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
# Discord's "Cannot send messages to this user": the player closed their DMs. Expected,
# and handled (the seat plays through /hand), so not a warning for an operator.
DMS_CLOSED = 50007
IN_DOUBT_SEARCH = 20  # recent messages read to find one sent before a crash


class Undeliverable(Exception):
    def __init__(self, delivery: Retry | Failed) -> None:
        super().__init__(delivery.error)
        self.delivery = delivery


def classify(exc: BaseException) -> Retry | Failed:
    """What an error from Discord means for a message: try again later, or never."""
    if isinstance(exc, discord.RateLimited):
        # discord.py waited and retried already, then gave up: honour what Discord said.
        return Retry(float(exc.retry_after), f"rate limited for {exc.retry_after:.1f} s")
    if isinstance(exc, discord.HTTPException):
        if exc.status == 429:
            headers = getattr(exc.response, "headers", None) or {}
            after = float(headers.get("Retry-After", 1) or 1)
            return Retry(after, f"429 {exc.text}")
        if exc.status >= 500:
            return Retry(0.0, f"{exc.status} {exc.text}")
        return Failed(f"{exc.status} (code {exc.code}) {exc.text}",
                      expected=exc.code == DMS_CLOSED)
    if isinstance(exc, aiohttp.ClientError | TimeoutError | OSError):
        return Retry(0.0, repr(exc))
    return Failed(repr(exc))


def part_key(index: int, text: str) -> str:
    """Which part of a message this is: its place and a digest of its text. A retry
    renders the message again from the same notifications, so the parts that went out
    before are recognised (and a message that changed meanwhile is sent whole)."""
    return f"{index}:{hashlib.sha256(text.encode()).hexdigest()[:16]}"


def news_of(notes: Sequence[Notification]) -> list[Notification]:
    """The public notes a channel reads as the round's post (the status message tells
    the rest)."""
    return [n for n in notes if not (n.slot == "status" and n.template in STATUS_ONLY)]


def news_text(texts: Sequence[str]) -> str:
    """The round's post, from its lines (``news.news_lines``)."""
    return "\n".join(t for t in texts if t.strip())


def dm_text(texts: Sequence[str]) -> str:
    """A seat's DM, from its notes' rendered texts."""
    return "\n\n".join(t for t in texts if t.strip())


def render_private(renderer: Renderer, n: Notification) -> str:
    """A private note as its DM says it. A decision leads with what to do: the menu
    below holds the options and the image shows the hand, so the game's long text (the
    hand in words, how to type each move) is one step away, in ``/hand``."""
    if n.template == "your_turn":
        return renderer.render_template(BRIEF_DECISION, n.context, locale=n.locale,
                                        game=n.game)
    return renderer.render(n)


class DiscordNotifier:
    inline = False

    def __init__(self, fe: Frontend, pacer: Pacer | None = None) -> None:
        self.fe = fe
        self.pacer = pacer or fe.pacer
        self.status = StatusBoard(fe, self.pacer)
        self._boards: dict[int, str] = {}  # digest of the last board image posted

    async def idle(self) -> None:
        """Wait until everything queued so far is published (tests, shutdown)."""
        if self.fe.has_service:
            await self.fe.service.delivery.idle()

    # ---------------------------------------------------------------- the transport

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        if not notes:
            return {}
        table = notes[0].table_id
        try:
            info = await self.fe.service.info(table)
        except Refused:
            return {n.outbox_id: Failed("the table is gone") for n in notes}
        results: dict[int, Delivery] = {}
        channel = await self.fe.channel(info)
        public = [n for n in notes if n.seat is None]
        if public:
            results.update(await self._deliver_public(info, channel, public))
        private: defaultdict[int, list[Notification]] = defaultdict(list)
        for n in notes:
            if n.seat is not None:
                private[n.seat].append(n)
        for seat, seat_notes in private.items():
            if all(n.defer for n in seat_notes):
                # Private news of a round going on: it goes with the seat's next decision,
                # and is moot once the game is over (the final post tells the rest).
                moot = info.status != "running"
                results.update({n.outbox_id: "sent" if moot else HELD for n in seat_notes})
                continue
            outcome = await self._deliver_private(info, channel, seat, seat_notes)
            results.update({n.outbox_id: outcome for n in seat_notes})
        # After every change: the menus of the decisions it closed.
        await self.fe.menus.close(info)
        return results

    # ---------------------------------------------------------------- public

    async def _deliver_public(self, info: TableInfo, channel: discord.abc.Messageable | None,
                              notes: Sequence[Notification]) -> dict[int, Delivery]:
        if channel is None:
            return {}  # a table without a channel (or one the bot lost): nothing to post
        if all(n.defer for n in notes):
            # The round goes on: what the channel reads of it waits for the round's end,
            # to be told in one post and one status edit.
            return {n.outbox_id: HELD for n in notes}
        results: dict[int, Delivery] = {}
        news = news_of(notes)
        try:
            await self._post_news(info, channel, notes, news)
        except Undeliverable as exc:
            return {n.outbox_id: exc.delivery for n in notes}
        try:
            await self.status.show(info, channel)
        except (discord.HTTPException, discord.RateLimited, aiohttp.ClientError, TimeoutError,
                OSError) as exc:
            # The news went out; only the status edit waits (it is redone from the table,
            # so retrying the status notes alone is enough).
            outcome = classify(exc)
            results.update({n.outbox_id: outcome for n in notes
                            if n.slot == "status" and isinstance(outcome, Retry)})
        return results

    async def _post_news(self, info: TableInfo, channel: discord.abc.Messageable,
                         notes: Sequence[Notification], news: Sequence[Notification]) -> None:
        texts = news_lines(news, self._render_public)
        board: Notification | None = None
        scores: Notification | None = None
        for n in notes:
            for spec in n.files:
                if spec.kind == "board" and spec.seat is None:
                    board = n
                elif spec.kind == "scores":
                    scores = n
        files: list[images.Image] = []
        digest: str | None = None
        # The board goes with news, never alone: a post per board change would spend the
        # round's budget on pictures.
        if board is not None and any(t.strip() for t in texts):
            image = await self.fe.image_for(info.game, FileSpec("board"),
                                            board.context.get("view"), info)
            digest = None if image is None else hashlib.sha256(image.data).hexdigest()
            if image is not None and digest != self._boards.get(info.id):
                files.append(image)
            else:
                digest = None
        if scores is not None:
            image = await self.fe.image_for(info.game, FileSpec("scores"),
                                            scores.context.get("view"), info)
            if image is not None:
                files.append(image)
            movie = await timelapse(self.fe.service, info.id)
            if movie is not None:
                files.append(movie)
            # The game's page: its replay, for whoever wants to go through it again.
            texts.append(link_line(self.fe, info, await link_of(self.fe, info)))
        content = news_text(texts)
        if not content and not files:
            return
        if not content:
            content = self.fe.say("board_caption", info.locale, info.game, table_id=info.id)
        pings = any(n.template == "dm_unreachable" for n in news)
        await self._send(channel, Outgoing(content), files, notes=notes, pings=pings)
        if digest is not None:
            self._boards[info.id] = digest  # only once the post went out

    def _render_public(self, n: Notification) -> str:
        if n.template == "dm_unreachable":
            user = n.context.get("unreachable_user")
            if not str(user).isdigit():
                # A seat played elsewhere (by mail): no mention, its own words.
                return self.fe.renderer.render_template("mail/unreachable", n.context,
                                                        locale=n.locale, game=n.game)
            # Discord mentions the player, so the words reach them where they are.
            return self.fe.say("dm_closed", n.locale, n.game, mention=f"<@{user}>",
                               table_id=n.table_id)
        return self.fe.renderer.render(n)

    async def _send(self, channel: discord.abc.Messageable, out: Outgoing,
                    files: Sequence[images.Image] = (), *, notes: Sequence[Notification],
                    pings: bool = False,
                    view: discord.ui.View | None = None) -> discord.Message | None:
        """Post ``out``, the message of ``notes`` (split if long), part after part. Each
        part but the last is recorded on the notes' outbox rows as soon as it went out,
        so that when a later part fails, or the process dies, the retry sends only the
        parts missing; parts in doubt (a crash before the record) are first looked for
        among the channel's recent messages. Returns the last part's message (None when
        it went out before and was not found). Raises Undeliverable."""
        parts = out.parts()
        marks = list(dict.fromkeys(mark for n in notes for mark in n.sent))
        done = dict(mark.rsplit(":", 1) for mark in marks)
        keys = [part_key(i, part) for i, part in enumerate(parts)]
        todo = [i for i in range(len(parts)) if keys[i] not in done]
        ids = [n.outbox_id for n in notes]
        last: discord.Message | None = None
        if any(n.in_doubt for n in notes):
            after = max((int(m) for m in done.values() if m.isdigit()), default=None)
            found = await self._find_sent(channel, {i: parts[i] for i in todo}, after)
            if found:
                # Parts go out in order: the newest one found went out with all before it.
                newest = max(found)
                last = found[newest]
                todo = [i for i in todo if i > newest]
        for i in todo:
            kwargs: dict[str, Any] = {"nonce": f"urb{min(ids, default=0)}-{i}"[:25]}
            if pings:
                kwargs["allowed_mentions"] = PINGS
            final = i == len(parts) - 1
            if final:
                if files:
                    kwargs["files"] = [Outgoing("", image).file() for image in files]
                if view is not None:
                    kwargs["view"] = view
            await self.pacer.wait(getattr(channel, "id", None))
            try:
                last = await channel.send(parts[i], **kwargs)
            except (TimeoutError, discord.HTTPException, discord.RateLimited,
                    aiohttp.ClientError, OSError) as exc:
                raise Undeliverable(classify(exc)) from exc
            if not final:
                marks.append(f"{keys[i]}:{last.id}")
                await self._progress(ids, marks)
        return last

    async def _progress(self, outbox_ids: Sequence[int], marks: Sequence[str]) -> None:
        try:
            await self.fe.service.delivery.progress(outbox_ids, marks)
        except Exception:
            # The parts stay marked in memory for this attempt's result; after a crash,
            # the in-doubt lookup finds them in the channel.
            log.exception("could not record the parts sent of outbox %s", list(outbox_ids))

    async def _find_sent(self, channel: discord.abc.Messageable, parts: Mapping[int, str],
                         after: int | None) -> dict[int, discord.Message]:
        """Which of ``parts`` (by index) are already among the bot's messages in the
        channel: its recent ones, or those after ``after`` (the last part recorded)."""
        me = self.fe.client.user
        if me is None or not parts:
            return {}
        found: dict[int, discord.Message] = {}
        since = None if after is None else discord.Object(id=after)
        try:
            async for message in channel.history(limit=IN_DOUBT_SEARCH, after=since):
                if message.author.id != me.id:
                    continue
                for i, text in parts.items():
                    if i not in found and message.content == text:
                        found[i] = message
        except (TimeoutError, discord.HTTPException, discord.RateLimited,
                aiohttp.ClientError, OSError) as exc:
            outcome = classify(exc)
            if isinstance(outcome, Retry):
                # Sending blind could post twice: look again later.
                raise Undeliverable(outcome) from exc
            return {}  # no right to read the channel: what is owed is sent
        return found

    # ---------------------------------------------------------------- private

    async def _deliver_private(self, info: TableInfo, channel: discord.abc.Messageable | None,
                               seat: int, notes: Sequence[Notification]) -> Delivery:
        # "Your choice is in": the click that made it was answered in place already.
        notes = [n for n in notes if not n.context.get("quiet")]
        if not notes:
            return "sent"
        user_id = notes[-1].user_id
        seat_info = info.held_by(seat, user_id)
        if user_id is None or seat_info is None:
            return "sent"  # the seat changed hands meanwhile: the message is moot
        if not seat_info.dm_ok:
            # Known closed DMs: say in the channel that the seat is awaited, without a
            # word of its content; the player reads it with /hand.
            if any(n.template in DECISIONS for n in notes) and channel is not None:
                text = self.fe.say("dm_turn", info.locale, info.game,
                                   mention=f"<@{user_id}>", table_id=info.id)
                try:
                    await self._send(channel, Outgoing(text), pings=True, notes=notes)
                except Undeliverable as exc:
                    return exc.delivery if isinstance(exc.delivery, Retry) else "sent"
            return "sent"
        out = await self._private_message(info, seat, notes)
        try:
            dm = await self.fe.client.create_dm(discord.Object(id=int(user_id)))
        except discord.HTTPException as exc:
            return classify(exc)
        try:
            message = await self._send(dm, out, [out.image] if out.image else [],
                                       view=out.view, notes=notes)
        except Undeliverable as exc:
            log.info("table %d: DM to seat %d not sent (%s)", info.id, seat, exc)
            return exc.delivery
        if message is not None and out.menu is not None:
            # Closed with its decision: by the close that ends this delivery, if it is over.
            await self.fe.menus.keep(out.menu, message, check=False)
        return "sent"

    async def _private_message(self, info: TableInfo, seat: int,
                               notes: Sequence[Notification]) -> Outgoing:
        texts = [render_private(self.fe.renderer, n) for n in notes]
        image_note = next((n for n in reversed(notes)
                           if any(s.kind == "board" and s.seat == seat for s in n.files)), None)
        image = None
        if image_note is not None:
            image = await self.fe.image_for(info.game, FileSpec("board", seat),
                                            image_note.context.get("view"), info)
        # The newest decision wins: older menus in the batch were already superseded.
        view = menu = None
        for n in reversed(notes):
            if n.context.get("options"):
                view = menu_from_context(self.fe, n.context, info.id, info.locale)
                menu = self.fe.menu_of(n.context, info.id, seat) if view else None
                break
        return Outgoing(dm_text(texts), image, view, menu)
