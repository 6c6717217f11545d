"""The mail front end over the table service: what comes in by mail becomes service
calls, what the service owes goes out through ``MailNotifier``.

Incoming (``handle``), for every mail the mailbox (IMAP) or the SMTP listener hands over:

- a Message-ID handled before is not handled again (a mailbox read twice, a replay);
- a bounce marks the bounced address's seats unreachable (the tables are told); other
  automatic mail (auto-replies, lists, ``Auto-Submitted``) is never answered;
- a mail to a seat's reply address (a token bound to the table, seat and decision
  version nobody can guess) is that seat's move: its first fresh line, or ``#3`` for the
  third move listed. It is committed with the mail's handled row in ONE transaction
  (``bot.store.riders``), so a crash between reading and committing re-reads it and
  applies it once. A refused move (stale, illegal) is answered with the reason and the
  moves possible now, and a Reply-To for the current decision;
- anything else is a command at the bot's address (``bot.mail.answers``); a sender the
  bot does not know gets at most one answer an hour (no backscatter to forged senders).

Every answer to a command is in the language of its command word when it tells (French
``rejoindre``, English ``join``), else in the table's, else the player's (``mail_people``),
else English; a refused move in the table's; times in the player's time zone.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from collections.abc import Callable, Sequence
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any

from bot.clock import Clock, SystemClock
from bot.mail import render
from bot.mail.notifier import MailNotifier
from bot.mail.parts import MAIL_PREFIX, Sender, address_of, mail_user
from bot.mail.render import Letter, renderer_for, say, thread_id
from bot.mail.store import MailStore
from bot.service import Actor, Refused, TableInfo
from bot.store.riders import riding
from bot.web.links import table_link

if TYPE_CHECKING:
    from bot.mail.incoming import Incoming
    from bot.mail.tokens import ReplyTokens
    from bot.service import TableService

log = logging.getLogger(__name__)

# Refusals that say nothing about the move: the database could not save, or another
# writer came first. The mail is read again later rather than answered.
RETRY_LATER = frozenset({"storage", "busy"})
GIVE_UP = 5  # handlings of one mail that raised before it is put aside
_PICK = re.compile(r"#\s*([0-9]{1,4})")
# The Message-IDs the bot writes (``render.message_id``): kind, key, then the recipient's
# digest and the bot's domain.
_OUR_ID = re.compile(r"<urbanist\.([a-z]+)\.(.+)\.[0-9a-f]{20}@([^@<>\s]+)>", re.I)


class MailFront:
    def __init__(self, address: str, sender: Sender, mail_store: MailStore | None = None, *,
                 clock: Clock | None = None,
                 parse: Callable[[bytes], Incoming] | None = None,
                 first_line: Callable[[Incoming], str] | None = None) -> None:
        """``parse`` and ``first_line``: how a raw mail is read (by default
        ``bot.mail.incoming``'s ``parse_incoming`` and ``command_line``)."""
        self.address = address.strip().lower()
        self.sender = sender
        # None: the service's store, once attached (the store opens with the bot).
        self._mail_store = mail_store
        self.clock: Clock = clock or SystemClock()
        self._service: TableService | None = None
        self._tokens: ReplyTokens | None = None
        # One mail at a time: two copies of the same mail (IDLE and a poll, the listener
        # and the mailbox) must never both pass the "handled already?" check.
        self._lock = asyncio.Lock()
        self._parse = parse
        self._failures: dict[str, int] = {}  # Message-ID -> handlings that raised
        self.notifier = MailNotifier(self)  # the transport of what the service owes
        self._first_line = first_line

    # ---------------------------------------------------------------- wiring

    def attach(self, service: TableService) -> None:
        self._service = service
        if self._mail_store is None:
            self._mail_store = MailStore(service.store)

    @property
    def mail_store(self) -> MailStore:
        if self._mail_store is None:
            raise RuntimeError("the table service is not attached yet")
        return self._mail_store

    @property
    def service(self) -> TableService:
        if self._service is None:
            raise RuntimeError("the table service is not attached yet")
        return self._service

    async def start(self) -> None:
        """Read the tokens' secret from the database (made there at the first start)."""
        from bot.mail.tokens import ReplyTokens

        self._tokens = ReplyTokens(await self.mail_store.secret(), self.address)

    @property
    def tokens(self) -> ReplyTokens:
        if self._tokens is None:
            raise RuntimeError("MailFront.start() was not awaited")
        return self._tokens

    def build(self, letter: Letter) -> EmailMessage:
        return render.build(letter, self.address)

    def reply_address(self, table_id: int, seat: int, version: int) -> str:
        from bot.mail.tokens import SeatRef

        return self.tokens.reply_to(SeatRef(table_id, seat, version))

    def stop_address(self, table_id: int, address: str) -> str:
        return self.tokens.unsubscribe(table_id, address)

    async def seen(self, uidvalidity: int, uid: int) -> bool:
        """For the IMAP reader: was this mailbox message handled already?"""
        return await self.mail_store.seen(uidvalidity, uid)

    # ---------------------------------------------------------------- incoming

    async def handle(self, raw: bytes, *, uid: int | None = None,
                     uidvalidity: int | None = None,
                     envelope: Sequence[str] = ()) -> bool:
        """Handle one mail; True once it is handled and recorded (the IMAP reader then
        marks it seen), False when it must be read again later (an answer could not be
        sent for now, the database failed)."""
        mail = self.parse(raw)
        async with self._lock:
            try:
                if await self.mail_store.handled(mail.message_id):
                    return True
                return await self._handle(mail, uid, uidvalidity,
                                          tuple(a.lower() for a in envelope))
            except Exception:
                return await self._failed(mail, uid, uidvalidity)

    async def _failed(self, mail: Incoming, uid: int | None, uidvalidity: int | None) -> bool:
        """A mail whose handling raised is read again later; one that keeps failing (a
        bug its content trips) is put aside after ``GIVE_UP`` attempts, so that it
        cannot be read again at every pass for ever."""
        count = self._failures.get(mail.message_id, 0) + 1
        self._failures[mail.message_id] = count
        if count < GIVE_UP:
            log.exception("a mail could not be handled (attempt %d); it is read again "
                          "later", count)
            return False
        log.exception("a mail failed %d times: put aside unanswered", count)
        self._failures.pop(mail.message_id, None)
        try:
            return await self.done(mail, uid, uidvalidity)
        except Exception:
            return False

    def parse(self, raw: bytes) -> Incoming:
        if self._parse is None:
            from bot.mail.incoming import parse_incoming

            self._parse = parse_incoming
        return self._parse(raw)

    def line(self, mail: Incoming) -> str:
        """The command or move a mail carries: its first fresh line (or its subject)."""
        if self._first_line is None:
            from bot.mail.incoming import command_line

            self._first_line = command_line
        return self._first_line(mail).strip()

    async def handle_smtp(self, raw: bytes, recipients: tuple[str, ...]) -> None:
        """For the SMTP listener (own domain): the envelope's recipients count too. A
        mail not handled for now raises, so the listener answers 451 and the sending
        server tries again later (the mail is never acknowledged and lost)."""
        if not await self.handle(raw, envelope=recipients):
            raise RuntimeError("the mail could not be handled now")

    async def done(self, mail: Incoming, uid: int | None, uidvalidity: int | None,
                   table_id: int | None = None) -> bool:
        await self.mail_store.mark_handled(mail.message_id, self.clock.now(), uid=uid,
                                           uidvalidity=uidvalidity, table_id=table_id)
        return True

    async def _handle(self, mail: Incoming, uid: int | None, uidvalidity: int | None,
                      envelope: tuple[str, ...]) -> bool:
        if mail.bounce is not None:
            if mail.bounce.permanent:
                addresses = mail.bounce.recipients
                if not addresses and mail.bounce.original_message_id:
                    addresses = await self._bounced_to(mail.bounce.original_message_id)
                for address in addresses:
                    await self._unreachable(address)
            return await self.done(mail, uid, uidvalidity)
        if mail.automatic or not mail.sender or mail.sender == self.address:
            return await self.done(mail, uid, uidvalidity)  # never answered: no loops
        await self._welcome_back(mail.sender)
        for recipient in (*mail.recipients, *envelope):
            ref = self.tokens.read(recipient)
            if ref is not None:
                return await self._move(mail, ref, uid, uidvalidity)
            invited = self.tokens.read_invite(recipient)
            if invited is not None and invited[0] != 0:
                return await self._accept(mail, invited, uid, uidvalidity)
            stop = self.tokens.read_unsubscribe(recipient)
            if stop is not None:
                from bot.mail.answers import stop_by_token

                return await stop_by_token(self, mail, stop, uid, uidvalidity)
        from bot.mail.answers import command

        return await command(self, mail, uid, uidvalidity,
                             verified=any(self.verified(r, mail.sender)
                                          for r in (*mail.recipients, *envelope)))

    def personal_address(self, address: str) -> str:
        """The bot's address for ``address`` alone (the Reply-To of every answer): a
        mail that arrives there comes from someone who reads ``address``'s mail, so it
        is never a forged sender's, and is answered without the hourly limit."""
        return self.tokens.invite_to(0, address)

    def verified(self, recipient: str, sender: str) -> bool:
        bound = self.tokens.read_invite(recipient)
        return bound is not None and bound == (0, sender)

    async def _welcome_back(self, address: str) -> None:
        """A mail from an address that bounced says it works again: its seats are marked
        reachable, and each decision it owes is mailed again (the first went nowhere)."""
        user = MAIL_PREFIX + address
        for info in await self.service.tables_of(user):
            seat = info.seat_of(user)
            if seat is None or info.seats[seat].dm_ok:
                continue
            await self.service.set_dm_reachable(info.id, user, True)
            if seat in info.waiting:
                note = await self.service.hand(info.id, Actor(user))
                await self.notifier.prompt_again(await self.service.info(info.id), seat, note)

    # ---------------------------------------------------------------- invitations

    async def invite(self, table_id: int, address: str, by: Actor) -> bool:
        """Invite ``address`` to the lobby ``table_id`` by mail (another front end's host,
        e.g. a Discord ``/table invite email:``): replying to it takes a seat. An address
        that never wrote to the bot gets at most one mail an hour (no mail bombing by
        invitation). False when the mail could not be sent now; raises Refused when the
        table is not a lobby ``by`` hosts."""
        from bot.mail.smtp_out import PermanentFailure, TemporaryFailure

        address = address.strip().lower()
        info = await self.service.info(table_id)
        if info.status != "lobby":
            raise Refused("not_lobby", "The table has started already.")
        if info.host_id != by.user_id and not by.manages(info.guild_id):
            raise Refused("not_host", "Only the host can invite.")
        person = await self.mail_store.person(address)
        known = not person.silenced and bool(
            await self.service.tables_of(MAIL_PREFIX + address, active=False))
        if not known and not await self.mail_store.may_answer(address, self.clock.now()):
            return True  # one invitation an hour is enough; the table says nothing
        renderer = await self.renderer_of(address)
        context = {"table_id": info.id, "game": info.game, "host": by.name or info.names[0],
                   "seats": len(info.seats), "max_seats": info.max_seats,
                   "address": self.address}
        stop = await self.stop_line(address, None)  # not seated yet: no more invitations
        text = say(renderer, "invite", context, locale=info.locale, game=info.game) \
            + "\n\n" + say(renderer, "_answer_footer", {**context, **stop, "invited": True},
                            locale=info.locale, game=info.game)
        letter = Letter(
            to=address, subject=say(renderer, "subject_invite", context, locale=info.locale,
                                    game=info.game),
            text=text, unsubscribe=str(stop["unsubscribe"]),
            locale=info.locale, reply_to=self.tokens.invite_to(info.id, address),
            message_id=render.message_id("i", info.id, address, self.address),
            thread=thread_id(info.id, self.address))
        try:
            await self.sender.send(self.build(letter))
        except TemporaryFailure:
            return False
        except PermanentFailure:
            return True
        return True

    async def _accept(self, mail: Incoming, invited: tuple[int, str], uid: int | None,
                      uidvalidity: int | None) -> bool:
        """A reply to an invitation: the invited address takes a seat (from that address
        only: the invitation is bound to it); 'no' declines."""
        table_id, address = invited
        if mail.sender != address:
            return await self.done(mail, uid, uidvalidity, table_id)
        line = self.line(mail).strip().lower()
        if line.split()[:1] in (["no"], ["non"], ["decline"], ["refuser"]):
            return await self.done(mail, uid, uidvalidity, table_id)
        from bot.mail.answers import command

        return await command(self, mail, uid, uidvalidity, default_table=table_id,
                             verified=True, forced=f"join {table_id}")

    async def _bounced_to(self, original: str) -> tuple[str, ...]:
        """Who the mail ``original`` (a Message-ID) went to, for a bounce that names no
        recipient: our Message-IDs are ``render.message_id(kind, key, recipient)``, a
        digest of the recipient, so each player at a table not over is tried (one hash
        each); a Message-ID not ours matches nobody."""
        match = _OUR_ID.fullmatch(original.strip())
        if match is None or match.group(3).lower() != render.domain_of(self.address):
            return ()
        kind, key = match.group(1), match.group(2)
        wanted = original.strip().lower()
        return tuple(a for a in await self.mail_store.seated_addresses()
                     if render.message_id(kind, key, a, self.address).lower() == wanted)

    async def _unreachable(self, address: str) -> None:
        user = MAIL_PREFIX + address.lower()
        for info in await self.service.tables_of(user):
            try:
                await self.service.set_dm_reachable(info.id, user, False)
            except Refused:
                continue

    # ---------------------------------------------------------------- moves

    async def move_at(self, mail: Incoming, table_id: int, seat: int, uid: int | None,
                      uidvalidity: int | None) -> bool:
        """The mail's first line as the move of ``seat``'s current decision (a move
        written to the player's own address rather than to the decision mail)."""
        from bot.mail.tokens import SeatRef

        info = await self.service.info(table_id)
        version = info.prompt_versions.get(seat, info.version)
        return await self._move(mail, SeatRef(table_id, seat, version), uid, uidvalidity)

    async def _move(self, mail: Incoming, ref: Any, uid: int | None,
                    uidvalidity: int | None) -> bool:
        try:
            info = await self.service.info(ref.table_id)
        except Refused:
            return await self.done(mail, uid, uidvalidity)
        seat = info.seats[ref.seat] if ref.seat < len(info.seats) else None
        user = MAIL_PREFIX + mail.sender
        if seat is None or seat.user_id != user:
            # A reply address used by someone else (a forwarded mail, a forged sender):
            # never a move, and at most one answer an hour to that sender.
            if await self.mail_store.may_answer(mail.sender, self.clock.now()):
                await self.reply(mail, "not_yours", {"table_id": info.id}, info.locale)
            return await self.done(mail, uid, uidvalidity, info.id)
        line = self.line(mail)
        from bot.mail.commands import parse_command

        parsed = parse_command(line)
        if mail.problem is not None and not (mail.problem == "no_text" and parsed is not None
                                             and parsed.verb not in ("new", "join", "start")):
            # (a mail with no text part may still carry a command in its subject)
            return await self._refuse_unreadable(mail, info, ref, uid, uidvalidity)
        if parsed is not None and parsed.verb not in ("new", "join", "start"):
            # A command typed at a seat's address (help, leave, timezone...): about
            # this table when it names none.
            from bot.mail.answers import command

            return await command(self, mail, uid, uidvalidity, default_table=info.id)
        actor = Actor(user, seat.name)
        rider = self.mail_store.rider(mail.message_id, self.clock.now(), table_id=info.id,
                                      actor_id=user, uid=uid, uidvalidity=uidvalidity)
        try:
            with riding(rider):
                pick = _PICK.fullmatch(line)
                if pick is not None:
                    prompt = await self.service.prompt(info.id, actor)
                    number = int(pick.group(1))
                    if not 1 <= number <= len(prompt.options):
                        renderer = await self.renderer_of(mail.sender)
                        text = say(renderer, "no_such_number",
                                   {"number": number, "count": len(prompt.options)},
                                   locale=info.locale, game=info.game)
                        return await self._refused(mail, info, ref.seat, actor, text, uid,
                                                   uidvalidity)
                    await self.service.act(info.id, actor, prompt.options[number - 1].json,
                                           version=ref.version)
                else:
                    await self.service.act_text(info.id, actor, line, version=ref.version)
        except Refused as exc:
            if await self.mail_store.handled(mail.message_id):
                return True  # landed meanwhile (another process): nothing to say
            if exc.code in RETRY_LATER:
                return False  # nothing changed; the mailbox hands it over again later
            renderer = await self.renderer_of(mail.sender)
            text = renderer.refusal(exc, locale=info.locale, game=info.game)
            return await self._refused(mail, info, ref.seat, actor, text, uid, uidvalidity)
        if not rider.landed:
            await self.done(mail, uid, uidvalidity, info.id)
        return True

    async def _refused(self, mail: Incoming, info: TableInfo, seat: int, actor: Actor,
                       refusal: str, uid: int | None, uidvalidity: int | None) -> bool:
        """A move refused: the reason, and the moves possible now with a Reply-To for the
        current decision. Recorded as handled only once the answer went out."""
        context: dict[str, Any] = {"table_id": info.id, "game": info.game,
                                   "refusal": refusal}
        reply_to = self.address
        try:
            prompt = await self.service.prompt(info.id, actor)
        except Refused:
            prompt = None
        if prompt is not None and prompt.options:
            context["choices"] = [o.text for o in prompt.options]
            context["example"] = prompt.options[0].text
            reply_to = self.reply_address(info.id, seat, prompt.version)
        else:
            context["choices"] = []
            context["example"] = ""
        if not await self.reply(mail, "refused", context, info.locale, reply_to=reply_to,
                                table_id=info.id):
            return False
        return await self.done(mail, uid, uidvalidity, info.id)

    async def _refuse_unreadable(self, mail: Incoming, info: TableInfo, ref: Any,
                                 uid: int | None, uidvalidity: int | None) -> bool:
        context = {"table_id": info.id, "game": info.game, "problem": mail.problem}
        if not await self.reply(mail, "unreadable", context, info.locale,
                                reply_to=self.reply_address(info.id, ref.seat, ref.version),
                                table_id=info.id):
            return False
        return await self.done(mail, uid, uidvalidity, info.id)

    # ---------------------------------------------------------------- answers

    async def renderer_of(self, address: str) -> Any:
        person = await self.mail_store.person(address)
        return renderer_for(person.timezone)

    async def locale_of(self, address: str, default: str = "en") -> str:
        person = await self.mail_store.person(address)
        return person.locale or default

    def _proven(self, mail: Incoming) -> bool:
        """Whether ``mail`` came to an address only its sender (or a seat's player) has:
        their own address, an invitation or a stop line bound to them, a seat's."""
        for recipient in mail.recipients:
            bound = self.tokens.read_invite(recipient) or \
                self.tokens.read_unsubscribe(recipient)
            if (bound is not None and bound[1] == mail.sender) \
                    or self.tokens.read(recipient) is not None:
                return True
        return False

    async def stop_line(self, address: str, table_id: int | None) -> dict[str, Any]:
        """What an answer's one-line stop (``mail/_answer_footer``) and List-Unsubscribe
        say: a player at ``table_id`` leaves it, a follower unfollows it (as in decision
        mails and digests); anyone else asks for no more answers (``stop_by_token`` with
        table 0: ``MailStore.silence``)."""
        if table_id:
            try:
                info = await self.service.info(table_id)
            except Refused:
                info = None
            if info is not None and info.status in ("lobby", "running", "paused"):
                if info.seat_of(MAIL_PREFIX + address) is not None:
                    return {"table_id": table_id, "follower": False,
                            "unsubscribe": self.stop_address(table_id, address)}
                if address in await self.mail_store.followers(table_id):
                    return {"table_id": table_id, "follower": True,
                            "unsubscribe": self.stop_address(table_id, address)}
        return {"table_id": None, "follower": False,
                "unsubscribe": self.stop_address(0, address)}

    async def reply(self, mail: Incoming, template: str, context: dict[str, Any],
                    locale: str, *, reply_to: str | None = None,
                    table_id: int | None = None) -> bool:
        """Answer ``mail`` with ``templates/<locale>/mail/<template>.txt``; False when
        the answer could not be sent now (the mail is then read again later)."""
        from bot.mail.smtp_out import PermanentFailure, TemporaryFailure

        person = await self.mail_store.person(mail.sender)
        if person.silenced and not self._proven(mail):
            # They asked for no more answers (the stop line of an answer): what they
            # mailed is done, and only mail that proves it is theirs is answered.
            return True
        renderer = renderer_for(person.timezone)
        game = context.get("game")
        full = {"address": self.address, **context}
        if table_id is not None:
            # The table's page, as in every mail about a table (issue 26, item 4).
            full["link"] = await table_link(self.service.store, table_id)
        stop = await self.stop_line(mail.sender, table_id)
        text = say(renderer, template, full, locale=locale, game=game) + "\n\n" + say(
            renderer, "_answer_footer", {**full, **stop}, locale=locale, game=game)
        subject = say(renderer, "subject_reply", {**full, "subject": mail.subject},
                      locale=locale, game=game)
        letter = Letter(
            to=mail.sender, subject=subject, text=text, locale=locale,
            unsubscribe=str(stop["unsubscribe"]),
            # Keyed by a digest of the mail answered: its Message-ID in ours would nest
            # '<>' and '@', and a bounce of the answer would read the wrong id.
            message_id=render.message_id(
                "r", hashlib.sha256(mail.message_id.encode()).hexdigest()[:16], mail.sender,
                self.address),
            reply_to=reply_to or self.personal_address(mail.sender),
            in_reply_to=mail.message_id,
            thread=None if table_id is None else thread_id(table_id, self.address),
            auto="auto-replied")
        try:
            await self.sender.send(self.build(letter))
        except TemporaryFailure as exc:
            log.info("an answer could not be sent now (%s); the mail is read again later",
                     exc.reason)
            return False
        except PermanentFailure as exc:
            log.info("an answer was refused for good (%s)", exc.reason)
        return True


__all__ = ["MailFront", "address_of", "mail_user"]
