"""``/stats``, ``/leaderboard``, ``/history`` and ``/table export``: a server's history,
read from the store's result and rating rows (bot/history). Every answer is ephemeral,
and only about the server it is asked in: a member never sees another server's games.

Page buttons (a ``discord.ui.DynamicItem``, so they work after a restart) carry all
they need in their ``custom_id``, under this module's own prefix ``urbh:`` (not
``urb:``, so bot/discord/ids.py's check for forged ids leaves them alone):

- ``urbh:lb:P:GAME``    page P (from 0) of ``GAME``'s leaderboard;
- ``urbh:hi:P:USER``    page P of the history of the member ``USER`` (a Discord id).

The server is the one the button is clicked in, never a value of the id.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

import discord
from discord import app_commands

from bot.discord.frontend import frontend_of
from bot.discord.limits import MESSAGE_CHARS, truncate
from bot.discord.slash import Answer, playable_games, table_here
from bot.history import stats
from bot.history.chart import rating_chart
from bot.history.export import export_table
from bot.service import Refused
from engine.core import game_names

Interaction = discord.Interaction[Any]
PREFIX = "urbh:"
PAGE = r"urbh:(?P<kind>lb|hi):(?P<page>\d{1,4}):(?P<arg>[a-z0-9_]{1,40})"
LEADERBOARD_ROWS = 15
HISTORY_ROWS = 8


def page_id(kind: str, page: int, arg: str) -> str:
    assert kind in ("lb", "hi"), kind
    custom_id = f"urbh:{kind}:{page}:{arg}"
    assert re.fullmatch(PAGE, custom_id), custom_id
    return custom_id


class NotHere(Exception):
    """A refusal of this module, said with templates/<locale>/history/refusal.txt."""

    def __init__(self, code: str, **context: Any) -> None:
        super().__init__(code)
        self.code, self.context = code, context


def _guild(interaction: Interaction) -> str:
    if interaction.guild_id is None:
        raise NotHere("guild_only")
    return str(interaction.guild_id)


async def _refuse(interaction: Interaction, exc: NotHere, locale: str) -> None:
    await interaction.response.send_message(
        _say(interaction, "refusal", locale, code=exc.code, **exc.context), ephemeral=True)


def _say(interaction: Interaction, template: str, locale: str, **context: Any) -> str:
    text = frontend_of(interaction).renderer.render_template(
        f"history/{template}", context, locale=locale)
    return truncate(text, MESSAGE_CHARS)


def _check_game(game: str | None) -> None:
    if game is not None and game not in game_names():
        raise NotHere("no_game", game=game, games=playable_games())


async def stats_text(interaction: Interaction, member_id: str, name: str, game: str | None,
                     locale: str) -> tuple[str, discord.File | None]:
    fe = frontend_of(interaction)
    guild = _guild(interaction)
    results = await fe.service.store.load_results(guild, player=member_id)
    record = stats.player_stats(results, member_id, game)
    chart_game = game or record.favourite
    rating = None
    points: list[tuple[float, float]] = []
    if chart_game is not None:
        ratings = await fe.service.store.load_ratings(guild, chart_game)
        rating = next((r for r in ratings if r.player == member_id), None)
        points = stats.rating_points(results, member_id, chart_game)
    text = _say(interaction, "stats", locale, name=name, game=game, stats=record,
                win_share=round(100 * record.win_share), rating=rating, rating_game=chart_game,
                longest_hours=round(record.longest_seconds / 3600, 1))
    file = None
    if len(points) >= 2 and chart_game is not None:
        png = rating_chart(points, f"{name} · {chart_game.capitalize()}")
        file = discord.File(io.BytesIO(png), filename="rating.png",
                            description=_say(interaction, "chart_alt", locale, name=name,
                                             game=chart_game, games=len(points) - 1))
    return text, file


async def leaderboard_page(interaction: Interaction, game: str, page: int,
                           locale: str) -> tuple[str, discord.ui.View | None]:
    fe = frontend_of(interaction)
    # The same rows as `urbanist ratings` shows, a page of them at a time.
    ranked, apart = stats.leaderboard_rows(
        await fe.service.store.load_ratings(_guild(interaction), game))
    pages = max(1, -(-len(ranked) // LEADERBOARD_ROWS))
    page = min(page, pages - 1)
    start = page * LEADERBOARD_ROWS
    rows = ranked[start:start + LEADERBOARD_ROWS]
    text = _say(interaction, "leaderboard", locale, game=game, rows=rows, apart=apart,
                page=page + 1, pages=pages, min_games=stats.MIN_GAMES)
    return text, _pager("lb", page, pages, game, locale, interaction)


async def history_page(interaction: Interaction, member_id: str, page: int,
                       locale: str) -> tuple[str, discord.ui.View | None]:
    fe = frontend_of(interaction)
    guild = _guild(interaction)
    results = await fe.service.store.load_results(guild, player=member_id)
    tables = stats.tables_of(results)
    pages = max(1, -(-len(tables) // HISTORY_ROWS))
    page = min(page, pages - 1)
    entries = []
    for rows in tables[page * HISTORY_ROWS:(page + 1) * HISTORY_ROWS]:
        record = await fe.service.store.load_table(rows[0].table_id)
        link = None
        if record is not None and record.status_message_id and record.status_channel_id:
            link = (f"https://discord.com/channels/{guild}/{record.status_channel_id}/"
                    f"{record.status_message_id}")
        mine = next((r for r in rows if r.player == member_id), None)
        entries.append({"table_id": rows[0].table_id, "game": rows[0].game, "link": link,
                        "unrated": rows[0].unrated, "mine": mine,
                        "standings": [{"name": r.name, "rank": r.rank, "score": r.score,
                                       "is_bot": r.is_bot} for r in rows]})
    text = _say(interaction, "history", locale, entries=entries, page=page + 1, pages=pages)
    return text, _pager("hi", page, pages, member_id, locale, interaction)


def _pager(kind: str, page: int, pages: int, arg: str, locale: str,
           interaction: Interaction) -> discord.ui.View | None:
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    for target, template in ((page - 1, "button_previous"), (page + 1, "button_next")):
        button = PageButton(kind, max(0, min(target, pages - 1)), arg)
        button.item.label = _say(interaction, template, locale)
        button.item.disabled = not 0 <= target < pages
        view.add_item(button)
    return view


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE):
    def __init__(self, kind: str, page: int, arg: str) -> None:
        super().__init__(discord.ui.Button(style=discord.ButtonStyle.secondary,
                                           custom_id=page_id(kind, page, arg)))
        self.kind, self.page, self.arg = kind, page, arg

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PageButton:
        return cls(match["kind"], int(match["page"]), match["arg"])

    async def callback(self, interaction: Interaction) -> None:
        fe = frontend_of(interaction)
        locale = fe.guild_locale(interaction)
        try:
            if self.kind == "lb":
                text, view = await leaderboard_page(interaction, self.arg, self.page, locale)
            else:
                text, view = await history_page(interaction, self.arg, self.page, locale)
        except NotHere as exc:
            await _refuse(interaction, exc, locale)
            return
        await interaction.response.edit_message(content=text, view=view)


def register(tree: app_commands.CommandTree[Any]) -> None:
    tree.client.add_dynamic_items(PageButton)
    games = playable_games()

    @tree.command(name="stats", description="A member's games, wins, scores and rating here")
    @app_commands.describe(member="Whose (default: yours)", game="Only this game")
    @app_commands.choices(game=[app_commands.Choice(name=g.capitalize(), value=g)
                                for g in games])
    async def stats_command(interaction: Interaction, member: discord.Member | None = None,
                            game: str | None = None) -> None:
        async with Answer(interaction) as answer:
            try:
                _check_game(game)
                who = member or interaction.user
                text, file = await stats_text(interaction, str(who.id), who.display_name,
                                              game, answer.locale)
            except NotHere as exc:
                await _refuse(interaction, exc, answer.locale)
                return
            kwargs: dict[str, Any] = {"ephemeral": True}
            if file is not None:
                kwargs["file"] = file
            await interaction.response.send_message(text, **kwargs)

    @tree.command(name="leaderboard", description="The server's ratings in one game")
    @app_commands.describe(game="The game")
    @app_commands.choices(game=[app_commands.Choice(name=g.capitalize(), value=g)
                                for g in games])
    async def leaderboard_command(interaction: Interaction, game: str) -> None:
        async with Answer(interaction) as answer:
            try:
                _check_game(game)
                text, view = await leaderboard_page(interaction, game, 0, answer.locale)
            except NotHere as exc:
                await _refuse(interaction, exc, answer.locale)
                return
            await _send(interaction, text, view)

    @tree.command(name="history", description="A member's last finished tables here")
    @app_commands.describe(member="Whose (default: yours)")
    async def history_command(interaction: Interaction,
                              member: discord.Member | None = None) -> None:
        async with Answer(interaction) as answer:
            who = member or interaction.user
            try:
                text, view = await history_page(interaction, str(who.id), 0, answer.locale)
            except NotHere as exc:
                await _refuse(interaction, exc, answer.locale)
                return
            await _send(interaction, text, view)

    table_group = tree.get_command("table")
    if isinstance(table_group, app_commands.Group):
        table_group.add_command(app_commands.Command(
            name="export", description="This channel's table (or table:) as a JSON file",
            callback=export_command, parent=table_group))


async def _send(interaction: Interaction, text: str, view: discord.ui.View | None) -> None:
    kwargs: dict[str, Any] = {"ephemeral": True}
    if view is not None:
        kwargs["view"] = view
    await interaction.response.send_message(text, **kwargs)


@app_commands.describe(table="A table number of this server (default: this channel's)")
async def export_command(interaction: Interaction, table: int | None = None) -> None:
    fe = frontend_of(interaction)
    async with Answer(interaction) as answer:
        if interaction.guild_id is None:
            await _refuse(interaction, NotHere("guild_only"), answer.locale)
            return
        info = answer.about(await table_here(interaction, table, ended=True))
        bundle = await fe.service.store.load_bundle(info.id)
        if bundle is None:
            raise Refused("no_table", "There is no such table here.", table_id=info.id)
        record, seats, _ = bundle
        document = export_table(record, seats, await fe.service.store.load_actions(info.id))
        data = json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")
        file = discord.File(io.BytesIO(data), filename=f"urbanist-table-{info.id}.json")
        text = _say(interaction, "export", answer.locale, table_id=info.id, game=info.game,
                    over=record.status == "finished")
        await interaction.response.send_message(text, file=file, ephemeral=True)
