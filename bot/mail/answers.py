"""The commands a player mails the bot (``help``, ``new``, ``join``, ``start``, ``tables``,
``rules``, ``leave``, ``stats``, ``follow``, ``unfollow``, ``timezone``, ``stop``; their
French words too: ``bot.mail.commands``), each answered by mail.

A command that changes a table (join, start, leave) is recorded as handled in the same
transaction as the change (a rider on the table's save), and ``new`` in the transaction
that creates the table, so a mail read twice does not join twice nor open a second
table; its answer goes after. A command that changes nothing is recorded once its
answer went out (an SMTP outage: the mail is read again later and answered then).
A sender the bot does not know (no table, ever) gets at most one answer an hour.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any

from bot.mail.commands import MailCommand, fold, parse_command
from bot.mail.parts import MAIL_PREFIX, Front
from bot.mail.render import zone, zoned_time
from bot.service import Actor, Refused, TableSettings
from bot.service.options import parse_options
from bot.store.riders import riding
from engine.core import game_names

if TYPE_CHECKING:
    from bot.mail.incoming import Incoming

MAIL_GUILD = "mail"  # the tables made by mail share one ratings ladder
FRENCH_WORDS = frozenset({"aide", "nouvelle", "nouveau", "creer", "rejoindre", "commencer",
                          "demarrer", "lancer", "liste", "regles", "quitter", "statistiques",
                          "suivre", "nepassuivre", "neplussuivre", "ne", "fuseau",
                          "desabonner", "desinscrire"})
ENGLISH_WORDS = frozenset({"help", "new", "join", "start", "list", "rules", "leave",
                           "statistics", "follow", "unfollow", "timezone", "tz", "unsubscribe"})
_DURATION = re.compile(r"([0-9]{1,4})\s*(d|j|h|m|min)?", re.I)
CHANGES = frozenset({"join", "start", "leave", "stop"})


def language_of(line: str) -> str | None:
    """'fr' or 'en' when the command word says which, else None (``tables``, ``stats``)."""
    words = line.split()
    first = fold(words[0]).lstrip("/") if words else ""
    if first in FRENCH_WORDS:
        return "fr"
    if first in ENGLISH_WORDS:
        return "en"
    return None


def seconds_of(text: str) -> int | None:
    """``48h``, ``2d``/``2j``, ``90m``; None when unreadable."""
    match = _DURATION.fullmatch(text.strip())
    if match is None:
        return None
    unit = (match.group(2) or "h").lower()
    factor = {"d": 86400, "j": 86400, "h": 3600, "m": 60, "min": 60}[unit]
    return int(match.group(1)) * factor


async def command(front: Front, mail: Incoming, uid: int | None, uidvalidity: int | None,
                  *, default_table: int | None = None, verified: bool = False,
                  forced: str | None = None) -> bool:
    """``verified``: the mail came to the sender's personal address (the Reply-To of the
    bot's answers), so the sender reads that mailbox: no hourly limit. ``forced``: the
    command the mail means whatever it says (a reply to an invitation joins)."""
    sender = mail.sender
    user = MAIL_PREFIX + sender
    line = forced or front.line(mail)
    said = None if forced else language_of(line)
    if said is not None:
        await front.mail_store.set_locale(sender, said)
    locale = await front.locale_of(sender)
    # A sender the bot does not know who asked for no more answers (the stop line of an
    # answer: ``MailStore.silence``) is never answered again here: ``may_answer`` says
    # no. A player's commands are still done, unanswered (``MailFront.reply``).
    known = verified or bool(default_table) \
        or bool(await front.service.tables_of(user, active=False))
    if not known and not await front.mail_store.may_answer(sender, front.clock.now()):
        return await front.done(mail, uid, uidvalidity)  # one answer an hour, no more
    parsed = parse_command(line)
    if mail.problem is not None and not (mail.problem == "no_text" and parsed is not None):
        # A mail with no text part may still carry its command in the subject.
        return await _answer(front, mail, uid, uidvalidity, "unreadable",
                             {"problem": mail.problem}, locale)
    if parsed is None and verified and not forced:
        # A move written to the player's own address (a reply to a digest or an answer,
        # not to the decision mail): that address is theirs as surely as a seat's, so
        # it plays when exactly one of their seats is waiting.
        waiting = [(t.id, seat) for t in await front.service.tables_of(user)
                   if (seat := t.seat_of(user)) is not None and seat in t.waiting]
        if len(waiting) == 1:
            table_id, seat = waiting[0]
            return await front.move_at(mail, table_id, seat, uid, uidvalidity)
    if parsed is None:
        return await _answer(front, mail, uid, uidvalidity, "not_a_command",
                             {"line": line[:80], "games": game_names()}, locale)
    if parsed.table_id is None and default_table is not None:
        parsed = dataclasses.replace(parsed, table_id=default_table)
    handler = HANDLERS.get(parsed.verb)
    if handler is None:
        return await _answer(front, mail, uid, uidvalidity, "not_a_command",
                             {"line": line[:80], "games": game_names()}, locale)
    actor = Actor(user, sender.partition("@")[0])
    try:
        if parsed.verb == "new" or (parsed.verb in CHANGES and parsed.table_id is not None):
            # Recorded handled with the change: on the table's save, or for ``new`` on
            # the table's creation (a mail read again never opens a second table).
            rider = front.mail_store.rider(
                mail.message_id, front.clock.now(),
                table_id=None if parsed.verb == "new" else parsed.table_id, actor_id=None,
                uid=uid, uidvalidity=uidvalidity)
            with riding(rider):
                template, context, table_locale = await handler(front, actor, parsed, locale)
            if rider.landed:
                await _send(front, mail, template, context, said or table_locale or locale,
                            rider.table_id)
                return True
        else:
            template, context, table_locale = await handler(front, actor, parsed, locale)
    except Refused as exc:
        renderer = await front.renderer_of(sender)
        return await _answer(front, mail, uid, uidvalidity, "command_refused",
                             {"refusal": renderer.refusal(exc, locale=locale)}, locale)
    return await _answer(front, mail, uid, uidvalidity, template, context,
                         said or table_locale or locale, table_id=parsed.table_id)


async def _send(front: Front, mail: Incoming, template: str, context: dict[str, Any],
                locale: str, table_id: int | None = None) -> bool:
    return await front.reply(mail, template, context, locale, table_id=table_id)


async def _answer(front: Front, mail: Incoming, uid: int | None, uidvalidity: int | None,
                  template: str, context: dict[str, Any], locale: str, *,
                  table_id: int | None = None) -> bool:
    if not await _send(front, mail, template, context, locale, table_id):
        return False
    return await front.done(mail, uid, uidvalidity, table_id)


Answer = tuple[str, dict[str, Any], str | None]  # template, context, the table's locale


def _need_table(cmd: MailCommand) -> int:
    if cmd.table_id is None:
        raise Refused("no_table", "Which table? Give its number, e.g. join 12.")
    return cmd.table_id


async def do_help(front: Front, actor: Actor, cmd: MailCommand, locale: str) -> Answer:
    return "help", {"games": game_names()}, None


async def do_new(front: Front, actor: Actor, cmd: MailCommand, locale: str) -> Answer:
    if not cmd.words:
        raise Refused("unknown_game", "Which game?", game="")
    game = cmd.words[0].lower()
    args = dict(cmd.args)
    players = args.pop("players", None)
    bots = args.pop("bots", "0")
    level = args.pop("level", None)
    deadline = args.pop("deadline", None)
    table_locale = args.pop("locale", None) or locale
    if table_locale not in ("en", "fr"):
        table_locale = locale
    settings = TableSettings(locale=table_locale, ai_level=level)
    if deadline is not None:
        seconds = seconds_of(deadline)
        if seconds is None:
            raise Refused("options", f"deadline={deadline}: write it as 48h or 2d.",
                          problems=[f"deadline={deadline}"])
        settings = dataclasses.replace(settings, deadline_seconds=seconds)
    try:
        max_seats = None if players is None else int(players)
        bot_count = int(bots)
    except ValueError:
        raise Refused("options", "players and bots are numbers.",
                      problems=[f"players={players}", f"bots={bots}"]) from None
    try:
        engine = front.service.get_game(game)
    except KeyError:
        raise Refused("unknown_game", f"no game {game}", game=game) from None
    engine_defaults = engine.default_options()
    if not 0 <= bot_count < (engine.max_seats if max_seats is None else max_seats):
        # Refused before the table is made: a refusal says nothing was changed.
        raise Refused("options", "bots= leaves no seat for you.",
                      problems=[f"bots={bots}"])
    options = parse_options(" ".join(f"{k}={v}" for k, v in args.items()), engine_defaults) \
        if args else None
    info = await front.service.create(actor, game, options=options, settings=settings,
                                      max_seats=max_seats, guild_id=MAIL_GUILD)
    for _ in range(max(0, bot_count)):
        await front.service.add_bot(info.id, actor, level=level)
    await front.mail_store.set_locale(actor.user_id[len(MAIL_PREFIX):], table_locale)
    info = await front.service.info(info.id)
    return "created", {"table_id": info.id, "game": info.game, "seats": len(info.seats),
                       "max_seats": info.max_seats, "min_seats": info.min_seats}, info.locale


async def do_join(front: Front, actor: Actor, cmd: MailCommand, locale: str) -> Answer:
    info = await front.service.join(_need_table(cmd), actor)
    return "joined_you", {"table_id": info.id, "game": info.game, "seats": len(info.seats),
                          "max_seats": info.max_seats}, info.locale


async def do_start(front: Front, actor: Actor, cmd: MailCommand, locale: str) -> Answer:
    info = await front.service.start(_need_table(cmd), actor)
    return "started_you", {"table_id": info.id, "game": info.game,
                           "names": info.names}, info.locale


async def do_leave(front: Front, actor: Actor, cmd: MailCommand, locale: str) -> Answer:
    info = await front.service.leave(_need_table(cmd), actor)
    return "left_you", {"table_id": info.id, "game": info.game,
                        "running": info.status == "running"}, info.locale


async def do_tables(front: Front, actor: Actor, cmd: MailCommand, locale: str) -> Answer:
    tables = await front.service.tables_of(actor.user_id)
    rows = [{"id": t.id, "game": t.game, "status": t.status,
             "waiting": (t.seat_of(actor.user_id) in t.waiting)} for t in tables]
    return "tables", {"tables": rows}, None


async def do_rules(front: Front, actor: Actor, cmd: MailCommand, locale: str) -> Answer:
    game = cmd.words[0].lower() if cmd.words else ""
    if game not in game_names():
        return "rules_which", {"games": game_names()}, None
    text = front_rules(front, game, locale)
    return "rules", {"rules": text, "game": game}, None


def front_rules(front: Front, game: str, locale: str) -> str:
    from bot.mail.render import renderer_for

    return renderer_for(None).render_template(f"discord/rules_{game}", {"games": game_names()},
                                              locale=locale, game=game)


async def do_stats(front: Front, actor: Actor, cmd: MailCommand, locale: str) -> Answer:
    results = await front.service.store.load_results(MAIL_GUILD, player=actor.user_id)
    mine = [r for r in results if r.player == actor.user_id]
    return "stats", {"games": len({r.table_id for r in mine}),
                     "wins": sum(1 for r in mine if r.rank == 1),
                     "active": len(await front.service.tables_of(actor.user_id))}, None


async def do_follow(front: Front, actor: Actor, cmd: MailCommand, locale: str) -> Answer:
    info = await front.service.info(_need_table(cmd))
    await front.mail_store.follow(info.id, actor.user_id[len(MAIL_PREFIX):])
    return "followed", {"table_id": info.id, "game": info.game}, info.locale


async def do_unfollow(front: Front, actor: Actor, cmd: MailCommand, locale: str) -> Answer:
    table = _need_table(cmd)
    await front.mail_store.unfollow(table, actor.user_id[len(MAIL_PREFIX):])
    return "unfollowed", {"table_id": table}, None


async def do_timezone(front: Front, actor: Actor, cmd: MailCommand, locale: str) -> Answer:
    name = cmd.words[0] if cmd.words else ""
    if zone(name) is None:
        return "timezone_unknown", {"zone": name[:60]}, None
    await front.mail_store.set_timezone(actor.user_id[len(MAIL_PREFIX):], name)
    return "timezone_set", {"zone": name, "now": zoned_time(name)(front.clock.now())}, None


async def do_stop(front: Front, actor: Actor, cmd: MailCommand, locale: str) -> Answer:
    """``stop 12``: a follower stops following; a player leaves (a bot takes the seat)."""
    table = _need_table(cmd)
    address = actor.user_id[len(MAIL_PREFIX):]
    if await front.mail_store.unfollow(table, address):
        return "unfollowed", {"table_id": table}, None
    return await do_leave(front, actor, cmd, locale)


HANDLERS = {"help": do_help, "new": do_new, "join": do_join, "start": do_start,
            "tables": do_tables, "rules": do_rules, "leave": do_leave, "stats": do_stats,
            "follow": do_follow, "unfollow": do_unfollow, "timezone": do_timezone,
            "stop": do_stop}


async def stop_by_token(front: Front, mail: Incoming, stop: tuple[int, str],
                        uid: int | None, uidvalidity: int | None) -> bool:
    """A mail to a one-line-stop address (List-Unsubscribe): bound to a table and an
    address, so it works whoever sends it, and only for that address."""
    table, address = stop
    user = MAIL_PREFIX + address
    locale = await front.locale_of(address)
    if table == 0:  # the stop line of an answer about no table of theirs
        await front.mail_store.silence(address)
        await front.done(mail, uid, uidvalidity)
        if mail.sender == address:
            await front.reply(mail, "silenced", {"sender": address}, locale)
        return True
    cmd = MailCommand("stop", table, {}, ())
    rider = front.mail_store.rider(mail.message_id, front.clock.now(), table_id=table,
                                   actor_id=None, uid=uid, uidvalidity=uidvalidity)
    try:
        with riding(rider):
            template, context, table_locale = await do_stop(front, Actor(user), cmd, locale)
    except Refused:
        return await front.done(mail, uid, uidvalidity, table)
    if not rider.landed:
        await front.done(mail, uid, uidvalidity, table)
    if mail.sender == address:
        await front.reply(mail, template, context, table_locale or locale, table_id=table)
    return True
