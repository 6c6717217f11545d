"""Slash commands: ``/table ...``, ``/hand`` and ``/rules``.

A table lives in one channel or thread; commands act on the table of the channel they
are typed in (or on ``table:`` for an ended one). Every answer that only concerns the
person asking is ephemeral: the table's own news reaches the channel through the
service's notifications, so nothing is said twice.
"""

from __future__ import annotations

import asyncio
import re
from collections import defaultdict
from typing import Any

import discord
from discord import app_commands

from bot.discord import follow, history_commands, pages
from bot.discord.components import hand_message, hand_view
from bot.discord.frontend import Frontend, Outgoing, frontend_of
from bot.discord.limits import MESSAGE_CHARS, truncate
from bot.discord.settings import settings_text, wanted_settings
from bot.discord.slash import Answer, playable_games, table_here
from bot.discord.status import status_context, status_text
from bot.service import FileSpec, Refused, TableInfo, TableSettings
from bot.service.options import parse_options
from engine.core import get_game

Interaction = discord.Interaction[Any]
HOUR = 3600
EMAIL = re.compile(r"[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+")  # one plain address, no name
LOG_LINES = 20


async def my_tables(interaction: Interaction, table: int | None) -> list[TableInfo]:
    """For ``/hand``: in a server, the channel's table (or ``table`` of this server); in
    DMs, ``table`` if the user sits at it, else the user's tables that wait for them (or
    their only one): several mean the player chooses."""
    fe = frontend_of(interaction)
    if interaction.guild is not None:
        return [await table_here(interaction, table)]
    actor = fe.actor(interaction)
    if table is not None:
        # A DM belongs to no server: the table is theirs if they hold a seat at it.
        try:
            info = await fe.service.info(table)
        except Refused:
            info = None
        if info is None or info.seat_of(actor.user_id) is None:
            raise Refused("no_table", "You hold no seat at that table.", table_id=table)
        return [info]
    tables = await fe.service.tables_of(actor.user_id)
    waiting = [t for t in tables if t.seat_of(actor.user_id) in t.waiting]
    chosen = waiting or tables[:1]
    if not chosen:
        raise Refused("no_table", "You have no table in play.")
    return chosen


def _done(fe: Frontend, verb: str, info: TableInfo, **extra: Any) -> str:
    return fe.say("done", info.locale, info.game, verb=verb, table_id=info.id, **extra)


def _seat_of_member(info: TableInfo, member: discord.abc.User | None,
                    seat: int | None) -> int | None:
    if member is not None:
        found = info.seat_of(str(member.id))
        if found is None:
            raise Refused("no_seat", f"{member.display_name} has no seat here.",
                          member=member.display_name)
        return found
    if seat is not None:
        return seat - 1  # players count seats from 1
    return None


LOCALES = [app_commands.Choice(name="English", value="en"),
           app_commands.Choice(name="Français", value="fr")]
TIMEOUTS = [app_commands.Choice(name="The AI plays for the late player", value="ai"),
            app_commands.Choice(name="No deadlines", value="none")]
LEVELS = [app_commands.Choice(name="Easy (plays at random)", value="easy"),
          app_commands.Choice(name="Normal (the best move now)", value="normal"),
          app_commands.Choice(name="Hard (thinks ahead)", value="hard")]
LEVEL_HELP = "The bots' level, and the AI's that plays for a late player (default: hard)"
SEAT_ORDERS = [app_commands.Choice(name="Shuffled at the start", value="shuffle"),
               app_commands.Choice(name="In the order of joining", value="join")]
OPTIONS_HELP = "Game options as key=value, e.g. characters=intro strict_screens=true"
PUBLIC_HELP = ("False: the table's web page opens only by a secret link, not by its number "
               "(host)")
LISTED_HELP = "False: this server's tables are not listed on the web index (moderator)"


def game_defaults(game: str) -> dict[str, Any]:
    """A game's default options, to read typed options by; {} for an unknown game (the
    service refuses it by name)."""
    try:
        return dict(get_game(game).default_options())
    except KeyError:
        return {}


class TableCommands(app_commands.Group):
    def __init__(self, games: list[str]) -> None:
        super().__init__(name="table", description="Run a board game table in this channel",
                         guild_only=True)
        self.new_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        # Offered by autocomplete: a choices list would have to be fixed at import time.
        self._game_choices = [app_commands.Choice(name=g.capitalize(), value=g) for g in games]

    @app_commands.command(name="new", description="Open a new table in this channel")
    @app_commands.describe(
        game="The game to play", seats="Most players (humans and bots)",
        deadline_hours="Hours for each decision before the AI plays for a late player",
        locale="Language of the table (default: the server's)",
        timeout="What happens at a deadline", options=OPTIONS_HELP, level=LEVEL_HELP)
    @app_commands.choices(locale=LOCALES, timeout=TIMEOUTS, level=LEVELS)
    async def new(self, interaction: Interaction, game: str,
                  seats: app_commands.Range[int, 1, 8] | None = None,
                  deadline_hours: app_commands.Range[int, 1, 720] = 24,
                  locale: str | None = None, timeout: str = "ai",
                  options: str | None = None, level: str | None = None) -> None:
        fe = frontend_of(interaction)
        async with Answer(interaction) as answer:
            channel_id = interaction.channel_id or 0
            # One table per channel: two /table new at once must not both succeed.
            async with self.new_locks[channel_id]:
                existing = await fe.service.table_in_channel(str(channel_id))
                if existing is not None:
                    await fe.reply(interaction, fe.say("table_exists", existing.locale,
                                                       existing.game, table_id=existing.id))
                    return
                table_locale = locale or answer.locale
                settings = TableSettings(deadline_seconds=deadline_hours * HOUR,
                                         timeout_policy=timeout, locale=table_locale,
                                         ai_level=level)
                thread = str(channel_id) if isinstance(interaction.channel, discord.Thread) \
                    else None
                typed = parse_options(options or "", game_defaults(game))
                info = await fe.service.create(
                    fe.actor(interaction), game, options=typed, settings=settings,
                    max_seats=seats,
                    guild_id=str(interaction.guild_id), channel_id=str(channel_id),
                    thread_id=thread, seed=fe.next_seed())
            await fe.reply(interaction, _done(fe, "new", answer.about(info)))

    @new.autocomplete("game")
    async def _game_autocomplete(self, interaction: Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        return [c for c in self._game_choices if current.lower() in c.value][:25]

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: Interaction) -> None:
        await self._simple(interaction, "join")

    @app_commands.command(name="leave", description="Leave the table (a bot takes your seat "
                          "once the game has started)")
    async def leave(self, interaction: Interaction) -> None:
        await self._simple(interaction, "leave")

    @app_commands.command(name="start", description="Start the game (host)")
    async def start(self, interaction: Interaction) -> None:
        await self._simple(interaction, "start")

    @app_commands.command(name="invite", description="Invite someone to play by email: "
                          "they take a seat by replying (host)")
    @app_commands.describe(email="Their email address")
    async def invite(self, interaction: Interaction, email: str) -> None:
        """A mail player for this lobby (``urbanist run --mail``): the invitation's reply
        address is bound to the table and to that address."""
        fe = frontend_of(interaction)
        async with Answer(interaction) as answer:
            info = answer.about(await table_here(interaction))
            mail = getattr(getattr(interaction.client, "config", None), "mail", None)
            address = email.strip()
            if mail is None or not EMAIL.fullmatch(address):
                key = "invite_no_mail" if mail is None else "invite_bad_address"
                await fe.reply(interaction, fe.say(key, info.locale, info.game,
                                                   email=address[:80]))
                return
            sent = await mail.front.invite(info.id, address, fe.actor(interaction))
            await fe.reply(interaction, fe.say("invited" if sent else "invite_later",
                                               info.locale, info.game, email=address,
                                               table_id=info.id))

    @app_commands.command(name="pause", description="Pause the table: deadlines freeze (host)")
    async def pause(self, interaction: Interaction) -> None:
        await self._simple(interaction, "pause")

    @app_commands.command(name="resume", description="Resume a paused table (host)")
    async def resume(self, interaction: Interaction) -> None:
        await self._simple(interaction, "resume")

    @app_commands.command(name="abort", description="End the table now (host or moderator)")
    async def abort(self, interaction: Interaction) -> None:
        await self._simple(interaction, "abort")

    async def _simple(self, interaction: Interaction, verb: str) -> None:
        fe = frontend_of(interaction)
        async with Answer(interaction) as answer:
            info = answer.about(await table_here(interaction))
            actor = fe.actor(interaction)
            service = fe.service
            call = {"join": service.join, "leave": service.leave, "start": service.start,
                    "pause": service.pause, "resume": service.resume,
                    "abort": service.abort}[verb]
            info = await call(info.id, actor)
            await fe.reply(interaction, _done(fe, verb, info))

    @app_commands.command(name="status", description="Who the table is waiting for")
    @app_commands.describe(table="A table number (default: this channel's)")
    async def status(self, interaction: Interaction, table: int | None = None) -> None:
        fe = frontend_of(interaction)
        async with Answer(interaction) as answer:
            info = answer.about(await table_here(interaction, table, ended=True))
            text = status_text(fe, info, named=True, link=await pages.link_of(fe, info))
            view = None
            if info.status in ("running", "paused") and info.seat_of(
                    str(interaction.user.id)) is not None:
                view = hand_view(info.id, fe.labels(info.locale))
            await fe.reply(interaction, Outgoing(text, view=view))

    @app_commands.command(name="board", description="Show the public board")
    @app_commands.describe(table="A table number (default: this channel's)")
    async def board(self, interaction: Interaction, table: int | None = None) -> None:
        fe = frontend_of(interaction)
        async with Answer(interaction) as answer:
            info = answer.about(await table_here(interaction, table, ended=True))
            view = await fe.service.view(info.id, None)  # the public view, even for a player
            await interaction.response.defer(thinking=True)  # rendering takes a moment
            image = await fe.image_for(info.game, FileSpec("board"), view, info)
            if image is not None:
                text = fe.say("board_caption", info.locale, info.game, table_id=info.id)
            else:
                board = fe.renderer.render_template("view", {"view": view, **status_context(
                    info)}, locale=info.locale, game=info.game)
                text = "```\n" + truncate(board, MESSAGE_CHARS - 8) + "\n```"
            await fe.reply(interaction, Outgoing(text, image), ephemeral=False)

    @app_commands.command(name="settings", description="How this table is run; the host "
                          "changes it before the start")
    @app_commands.describe(
        table="A table number (default: this channel's)",
        seats="Most players (humans and bots)",
        deadline_hours="Hours for each decision before the AI plays for a late player",
        reminder_hours="Reminders, in hours before the deadline: e.g. 12 1, or none",
        timeout="What happens at a deadline",
        seat_order="How the seats are ordered at the start",
        locale="Language of the table", options=OPTIONS_HELP, level=LEVEL_HELP,
        public=PUBLIC_HELP, listed=LISTED_HELP)
    @app_commands.choices(locale=LOCALES, timeout=TIMEOUTS, seat_order=SEAT_ORDERS,
                          level=LEVELS)
    async def settings(self, interaction: Interaction, table: int | None = None,
                       seats: app_commands.Range[int, 1, 8] | None = None,
                       deadline_hours: app_commands.Range[int, 1, 720] | None = None,
                       reminder_hours: str | None = None, timeout: str | None = None,
                       seat_order: str | None = None, locale: str | None = None,
                       options: str | None = None, level: str | None = None,
                       public: bool | None = None, listed: bool | None = None) -> None:
        """Without a change, anyone reads the settings; with one, the host (or a manager)
        changes them in the lobby, and the channel is told what changed. ``public`` and
        ``listed`` (the web page's) change at any time."""
        fe = frontend_of(interaction)
        async with Answer(interaction) as answer:
            info = answer.about(await table_here(interaction, table, ended=True))
            wanted = wanted_settings(info, deadline_hours=deadline_hours,
                                     reminder_hours=reminder_hours, timeout=timeout,
                                     seat_order=seat_order, level=level)
            typed = parse_options(options or "", info.default_options)
            if wanted is not None or typed or seats is not None or locale is not None:
                info = answer.about(await fe.service.configure(
                    info.id, fe.actor(interaction), settings=wanted, options=typed or None,
                    max_seats=seats, locale=locale))
            page = await pages.change(fe, info, fe.actor(interaction), public=public,
                                      listed=listed)
            if public is not None:
                await pages.refresh_status(interaction, info)
            await fe.reply(interaction, settings_text(fe, info) + "\n\n" + page)

    @app_commands.command(name="extend", description="Give more time (host)")
    @app_commands.describe(hours="How many hours more",
                           member="Only this player (default: everyone who has to decide)")
    async def extend(self, interaction: Interaction, hours: app_commands.Range[int, 1, 720],
                     member: discord.Member | None = None) -> None:
        fe = frontend_of(interaction)
        async with Answer(interaction) as answer:
            info = answer.about(await table_here(interaction))
            seat = _seat_of_member(info, member, None)
            info = await fe.service.extend(info.id, fe.actor(interaction), hours * HOUR, seat)
            await fe.reply(interaction, _done(fe, "extend", info, hours=hours))

    @app_commands.command(name="kick", description="Remove a player; in a game a bot takes "
                          "the seat (host or moderator)")
    @app_commands.describe(member="The player to remove", seat="Or a seat number (from 1)")
    async def kick(self, interaction: Interaction, member: discord.Member | None = None,
                   seat: app_commands.Range[int, 1, 8] | None = None) -> None:
        fe = frontend_of(interaction)
        async with Answer(interaction) as answer:
            info = answer.about(await table_here(interaction))
            number = _seat_of_member(info, member, seat)
            if number is None:
                raise Refused("no_seat", "Name a member or a seat.", unnamed=True)
            name = info.seats[number].name if number < len(info.seats) else str(number + 1)
            info = await fe.service.kick(info.id, fe.actor(interaction), number)
            await fe.reply(interaction, _done(fe, "kick", info, kicked=name))

    @app_commands.command(name="log", description="The table's public log")
    @app_commands.describe(table="A table number (default: this channel's)")
    async def log(self, interaction: Interaction, table: int | None = None) -> None:
        fe = frontend_of(interaction)
        async with Answer(interaction) as answer:
            info = answer.about(await table_here(interaction, table, ended=True))
            entries = await fe.service.log(info.id)
            lines = [{"version": e.version, "name": e.name, "source": e.source,
                      "text": e.text, "at": e.at, "level": e.level} for e in entries]
            # The newest lines that fit in one message.
            for count in range(min(LOG_LINES, len(lines)), -1, -1):
                text = fe.say("log", info.locale, info.game, table_id=info.id,
                              entries=lines[len(lines) - count:], total=len(lines))
                if len(text) <= MESSAGE_CHARS:
                    break
            await fe.reply(interaction, truncate(text))


def build_commands(tree: app_commands.CommandTree[Any]) -> None:
    games = playable_games()
    table = TableCommands(games)
    tree.add_command(table)
    follow.register(table, table.new_locks)  # /table follow, /table unfollow
    history_commands.register(tree)  # /stats /leaderboard /history /table export

    @tree.command(name="hand", description="Your private hand and choices, only for you")
    @app_commands.describe(table="A table number (default: this channel's, or yours in DMs)")
    async def hand(interaction: Interaction, table: int | None = None) -> None:
        fe = frontend_of(interaction)
        async with Answer(interaction) as answer:
            found = await my_tables(interaction, table)
            if len(found) > 1:  # several tables wait for this player: they choose
                await fe.reply(interaction, fe.say(
                    "hand_choose", answer.locale, None,
                    tables=[{"id": t.id, "game": t.game} for t in found]))
                return
            info = answer.about(found[0])
            await interaction.response.defer(ephemeral=True, thinking=True)
            out = await hand_message(fe, info.id, fe.actor(interaction))
            await fe.reply(interaction, out)

    @tree.command(name="rules", description="How to play, and how to type your moves")
    @app_commands.describe(game="The game (default: this channel's table)")
    @app_commands.choices(game=[app_commands.Choice(name=g.capitalize(), value=g)
                                for g in games])
    async def rules(interaction: Interaction, game: str | None = None) -> None:
        fe = frontend_of(interaction)
        async with Answer(interaction) as answer:
            locale = answer.locale
            if game is None and interaction.guild is not None:
                found = await fe.service.table_in_channel(str(interaction.channel_id))
                if found is not None:
                    game, locale = found.game, found.locale
            text = fe.renderer.render_template(
                f"discord/rules_{game}" if game else "discord/rules",
                {"game": game, "games": games}, locale=locale, game=game,
                fallback="discord/rules")
            await fe.reply(interaction, text)
