"""The mail transport: the delivery worker hands it a table's stored notifications (the
router, ``bot.service.routing``, passes it the private notes of mail seats and every
public note), and it says what became of each.

The budget: ONE mail per seat per decision (the private situation in words, the moves
numbered, the seat's image inline, a Reply-To that belongs to that seat and decision),
and at most ONE digest of a round's public news per reader (mail seats and followers):
public news is held (``defer``) until its round ends, as on Discord. A seat that gets a
decision in the same delivery as the round's news reads the news in its decision mail,
not in a second mail; its private news (what its own pick did, the AI playing for it
when late) waits for its next decision mail too. A reminder is a decision mail again;
the final scores come as the last digest, with the scores image.

Failures: an SMTP 4xx, a refused or lost connection -> ``Retry`` (the worker backs off);
a 5xx for the recipient -> ``Failed`` for a seat's private mail (the service marks the
seat unreachable and tells the table), and for a digest the seat is marked unreachable
here (a follower is unfollowed). Every mail's Message-ID is derived from its outbox rows
and its recipient and recorded once sent, so a retry or an in-doubt resend skips what
went out (and a resend after a crash between the send and the record carries the same
Message-ID, which the recipient's client recognises).

The table's page: with ``URBANIST_PUBLIC_URL`` set, every mail of a table carries its link
(``bot.web.links``: a private table's token, never its number), read once per delivery
for all the mails of that delivery. Not kept longer: a table made private in another
process must not be mailed its number's link.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import logging
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot import images
from bot.mail.parts import Front, address_of, is_mail_user
from bot.mail.render import Letter, message_id, renderer_for, say, thread_id
from bot.service import Actor, FileSpec, Notification, Refused, TableInfo
from bot.service.notifications import HELD, Delivery, Failed, Retry
from bot.web.links import table_link

log = logging.getLogger(__name__)

# Status notifications a channel reads in its status message; a digest leaves them out
# (the lobby's changes come as their own news: joined, left, configured...).
STATUS_ONLY = frozenset({"lobby", "waiting"})
DECISIONS = frozenset({"your_turn", "reminder"})
# Private notes that need no mail: the pick a player just mailed is in (their next
# mail, the round's digest, says what came of it).
SILENT = frozenset({"submitted"})
# The game's timelapse goes with the final digest when it is no bigger than this (the
# four games' are 40-140 KB).
MAX_TIMELAPSE = 1024 * 1024
# A board image bigger than this goes out with a palette of 256 colours (see palette_png).
PALETTE_ABOVE = 64 * 1024


@dataclass(frozen=True)
class Reader:
    address: str
    user_id: str | None  # a seat's user; None for a follower


def palette_png(data: bytes) -> bytes:
    """A big board as a 256-colour PNG: the boards are flat colours and text, and a mail
    with its image stays well under 200 KB (a late Neotopia board: 137 KB -> 53 KB)."""
    with Image.open(io.BytesIO(data)) as picture:
        reduced = picture.convert("RGB").quantize(256)
        out = io.BytesIO()
        reduced.save(out, "PNG", optimize=True)
    smaller = out.getvalue()
    return smaller if len(smaller) < len(data) else data


def plain(text: str) -> str:
    """A sentence written for Discord as plain mail text: without its bold marks."""
    return str(text).replace("**", "")


def about_self(n: Notification, seat: int | None, user_id: str | None) -> bool:
    """News a reader made themselves by a command already answered by mail: their own
    join or leave, the bots the host added."""
    if seat is not None and n.template in ("joined", "left"):
        return bool(n.context.get(n.template) == seat)
    return n.template == "bot_added" and user_id is not None \
        and n.context.get("host_id") == user_id


def _key(notes: Sequence[Notification]) -> str:
    """What identifies a mail made of ``notes``: their outbox rows (notes never stored,
    in tests, by their version and templates)."""
    ids = sorted(n.outbox_id for n in notes if n.outbox_id)
    if ids:
        return f"{ids[0]}-{ids[-1]}"
    return f"v{notes[0].version}-" + "-".join(n.template for n in notes)


class MailNotifier:
    inline = False

    def __init__(self, front: Front) -> None:
        self.front = front

    # ---------------------------------------------------------------- the transport

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        if not notes:
            return {}
        try:
            info = await self.front.service.info(notes[0].table_id)
        except Refused:
            return {n.outbox_id: Failed("the table is gone") for n in notes}
        results: dict[int, Delivery] = {}
        private: defaultdict[int, list[Notification]] = defaultdict(list)
        for n in notes:
            if n.seat is not None and is_mail_user(n.user_id):
                private[n.seat].append(n)
        deciding = {seat for seat, seat_notes in private.items()
                    if any(n.template in DECISIONS for n in seat_notes)}
        public = [n for n in notes if n.seat is None]
        held = all(n.defer for n in public)
        link = await self._link(info) if deciding or not held else None
        news: list[Notification] = []
        if public:
            if held:
                results.update({n.outbox_id: HELD for n in public})
            else:
                news = [n for n in public if n.template not in STATUS_ONLY]
                outcome = await self._digests(info, public, news, skip=deciding, link=link)
                results.update({n.outbox_id: outcome for n in public})
        for seat, seat_notes in private.items():
            if seat not in deciding:
                # A seat's private news (what its own pick did, what it drew, the AI
                # playing for it) goes with its next decision mail, one mail a decision;
                # once the game is over, the final digest tells the rest.
                moot = info.status != "running"
                results.update({n.outbox_id: "sent" if moot else HELD for n in seat_notes})
                continue
            outcome = await self._private(info, seat, seat_notes,
                                          news if seat in deciding else [], link=link)
            results.update({n.outbox_id: outcome for n in seat_notes})
        return results

    # ---------------------------------------------------------------- sending

    async def _link(self, info: TableInfo) -> str | None:
        """The table's page, for every mail of one delivery (None without a public URL:
        then no database read at all)."""
        return await table_link(self.front.service.store, info.id)

    @staticmethod
    def _page(info: TableInfo, link: str | None) -> dict[str, Any]:
        """What the footer's link line reads (templates ``<locale>/mail/_link.txt``)."""
        return {"link": link, "over": info.status == "finished"}

    async def _send(self, letter: Letter, user_id: str | None, info: TableInfo) -> Delivery:
        """Send once: a Message-ID recorded as sent is not sent again."""
        from bot.mail.smtp_out import PermanentFailure, TemporaryFailure

        front = self.front
        if await front.mail_store.was_sent(letter.message_id):
            return "sent"
        try:
            await front.sender.send(front.build(letter))
        except TemporaryFailure as exc:
            return Retry(float(exc.after or 0.0), f"smtp: {exc.reason}")
        except PermanentFailure as exc:
            return Failed(f"smtp refused the recipient: {exc.reason}", expected=True)
        except (OSError, TimeoutError) as exc:
            return Retry(0.0, f"smtp: {exc!r}")
        await front.mail_store.record_sent(letter.message_id, front.clock.now())
        return "sent"

    async def _image(self, info: TableInfo, spec: FileSpec, view: Any,
                     user_id: str | None) -> images.Image | None:
        if view is None:
            actor = None if spec.seat is None or user_id is None else Actor(user_id)
            try:
                view = await self.front.service.view(info.id, actor)
            except Refused:
                return None
        image = await images.render_async(info.game, spec, view, table_id=info.id,
                                          names=info.names, outcome=info.outcome,
                                          locale=info.locale)
        if image is not None and len(image.data) > PALETTE_ABOVE:
            data = await asyncio.to_thread(palette_png, image.data)
            image = dataclasses.replace(image, data=data)
        return image

    # ---------------------------------------------------------------- private

    async def _private(self, info: TableInfo, seat: int, notes: Sequence[Notification],
                       news: Sequence[Notification], *, link: str | None) -> Delivery:
        notes = [n for n in notes if not n.context.get("quiet") and n.template not in SILENT]
        if not notes:
            return "sent"
        user_id = notes[-1].user_id
        seat_info = info.held_by(seat, user_id)
        if user_id is None or seat_info is None:
            return "sent"  # the seat changed hands meanwhile: the mail is moot
        if not seat_info.dm_ok:
            return "sent"  # the address bounced: nothing reaches it (the table was told)
        address = address_of(user_id)
        person = await self.front.mail_store.person(address)
        renderer = renderer_for(person.timezone)
        locale = info.locale
        decision = next((n for n in reversed(notes) if n.template in DECISIONS), None)
        others = [n for n in notes if n is not decision]
        texts = [plain(renderer.render(n)) for n in others]
        headlines = [self._public_text(renderer, n) for n in news]
        context: dict[str, Any] = {"table_id": info.id, "game": info.game,
                                   "texts": [t for t in texts if t.strip()],
                                   "news": [t for t in headlines if t.strip()],
                                   "unsubscribe": self.front.stop_address(info.id, address),
                                   "address": self.front.address, "seat_mail": True,
                                   **self._page(info, link)}
        reply_to = self.front.personal_address(address)
        image = None
        extra: tuple[images.Image, ...] = ()
        if decision is not None:
            ctx = dict(decision.context)
            body = plain(renderer.render_template(
                decision.template, {**ctx, "numbered_apart": True}, locale=locale,
                game=info.game, fallback=decision.fallback))
            options = list(ctx.get("options") or [])
            context.update(body=body, choices=[o["text"] for o in options],
                           example=options[0]["text"] if options else "",
                           reminder=decision.template == "reminder")
            template, subject = "decision", "subject_decision"
            reply_to = self.front.reply_address(info.id, seat, int(ctx["prompt_version"]))
            if any(s.kind == "board" and s.seat == seat for s in decision.files):
                image = await self._image(info, FileSpec("board", seat), ctx.get("view"),
                                          user_id)
            board = next((n for n in news for s in n.files
                          if s.kind == "board" and s.seat is None), None)
            if board is not None:
                public = await self._image(info, FileSpec("board"), board.context.get("view"),
                                           None)
                extra = () if public is None else (public,)
        else:
            template, subject = "private", "subject_private"
            context["decision"] = (notes[-1].context.get("decision") or "")
        text = say(renderer, template, context, locale=locale, game=info.game)
        letter = Letter(
            to=address, subject=say(renderer, subject, context, locale=locale, game=info.game),
            text=text, locale=locale, image=image, extra_images=extra, reply_to=reply_to,
            message_id=message_id("s", _key(notes), address,
                                  self.front.address),
            unsubscribe=context["unsubscribe"], thread=thread_id(info.id, self.front.address),
            link=link)
        return await self._send(letter, user_id, info)

    async def prompt_again(self, info: TableInfo, seat: int, note: Notification) -> Delivery:
        """The seat's current decision mailed again (``note``: ``service.hand``), e.g.
        to an address that bounced and works again; a Message-ID of its own."""
        again = dataclasses.replace(note, template="your_turn", fallback="hand",
                                    outbox_id=0, version=info.version)
        return await self._private(info, seat, [again], [], link=await self._link(info))

    # ---------------------------------------------------------------- public

    async def _readers(self, info: TableInfo) -> list[Reader]:
        readers: dict[str, Reader] = {}
        for s in info.seats:
            if not s.is_bot and is_mail_user(s.user_id) and s.dm_ok and s.user_id:
                readers[address_of(s.user_id)] = Reader(address_of(s.user_id), s.user_id)
        for address in await self.front.mail_store.followers(info.id):
            readers.setdefault(address, Reader(address, None))
        return list(readers.values())

    async def _digests(self, info: TableInfo, public: Sequence[Notification],
                       news: Sequence[Notification], *, skip: set[int],
                       link: str | None) -> Delivery:
        """The round's news, one mail per reader (``skip``: the seats that read it in
        their decision mail of this same delivery)."""
        readers = [r for r in await self._readers(info)
                   if r.user_id is None or info.seat_of(r.user_id) not in skip]
        if not readers or not news:
            return "sent"
        board = next((n for n in public for s in n.files
                      if s.kind == "board" and s.seat is None), None)
        scores = next((n for n in public for s in n.files if s.kind == "scores"), None)
        image = None
        if scores is not None:
            image = await self._image(info, FileSpec("scores"), scores.context.get("view"),
                                      None)
        elif board is not None:
            image = await self._image(info, FileSpec("board"), board.context.get("view"), None)
        movie = None
        if any(n.template == "game_over" for n in news):
            from bot.discord.timelapse import timelapse

            found = await timelapse(self.front.service, info.id)
            movie = found if found is not None and len(found.data) <= MAX_TIMELAPSE else None
        worst: Delivery = "sent"
        for reader in readers:
            outcome = await self._digest(info, public, news, reader, image, movie, link=link)
            if isinstance(outcome, Failed):
                await self._unreachable(info, reader, outcome.error)
            elif isinstance(outcome, Retry):
                worst = outcome  # the others went out and are recorded: only this one again
        return worst

    async def _digest(self, info: TableInfo, public: Sequence[Notification],
                      news: Sequence[Notification], reader: Reader,
                      image: images.Image | None,
                      movie: images.Image | None = None, *, link: str | None) -> Delivery:
        person = await self.front.mail_store.person(reader.address)
        renderer = renderer_for(person.timezone)
        seat = None if reader.user_id is None else info.seat_of(reader.user_id)
        lines = [self._public_text(renderer, n) for n in news
                 if not about_self(n, seat, reader.user_id)]
        lines = [t for t in lines if t.strip()]
        if not lines:
            return "sent"
        final = any(n.template == "game_over" for n in news)
        stop = self.front.stop_address(info.id, reader.address)
        context = {"table_id": info.id, "game": info.game, "lines": lines, "final": final,
                   "follower": reader.user_id is None, "address": self.front.address,
                   "unsubscribe": stop, **self._page(info, link)}
        letter = Letter(
            to=reader.address,
            subject=say(renderer, "subject_digest", context, locale=info.locale,
                        game=info.game),
            text=say(renderer, "digest", context, locale=info.locale, game=info.game),
            locale=info.locale, image=image, attachments=() if movie is None else (movie,),
            reply_to=self.front.personal_address(reader.address),
            message_id=message_id("d", _key(public), reader.address, self.front.address),
            unsubscribe=stop, thread=thread_id(info.id, self.front.address), link=link)
        return await self._send(letter, reader.user_id, info)

    def _public_text(self, renderer: Any, n: Notification) -> str:
        if n.template == "dm_unreachable":
            # Discord's words speak of DMs and /hand: a mail reader reads the mail ones.
            return plain(say(renderer, "unreachable", dict(n.context), locale=n.locale,
                             game=n.game))
        return plain(renderer.render(n))

    async def _unreachable(self, info: TableInfo, reader: Reader, why: str) -> None:
        log.info("table %d: mail to a reader refused for good (%s)", info.id, why)
        if reader.user_id is None:
            await self.front.mail_store.unfollow(info.id, reader.address)
            return
        with contextlib.suppress(Refused):
            await self.front.service.set_dm_reachable(info.id, reader.user_id, False)
