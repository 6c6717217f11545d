"""What every Discord handler shares: the table service, the templates, labels, who is
asking, and how to answer within Discord's limits. One ``Frontend`` per bot; a clicked
item or a command finds it through ``frontend_of(interaction)``.

It builds no widgets (``components`` does, above it): a refusal is handed its menu, so
that the items, which need the Frontend at click time, are the only ones that import
both."""

from __future__ import annotations

import functools
import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot import images
from bot.discord.labels import Labels, load_labels
from bot.discord.limits import split_message
from bot.discord.livemenus import Closer, MenuKeeper, MenuOf
from bot.discord.pacing import Pacer
from bot.service import Actor, FileSpec, Refused, TableInfo, TableService
from bot.text import Renderer

FRENCH = "fr"
DEFAULT_LOCALE = "en"
# A decision as its DM says it (a game may word its own: templates/<locale>/<game>/discord/).
BRIEF_DECISION = "discord/your_turn"


@dataclass
class Outgoing:
    """A message to send: text (split if long), an optional image, optional components
    (they go on the last part, next to the image). ``menu``: the decision ``view`` is the
    menu of, so the message is closed when that decision closes."""

    content: str
    image: images.Image | None = None
    view: discord.ui.View | None = None
    menu: MenuOf | None = None

    def parts(self) -> list[str]:
        return split_message(self.content) or ([] if self.image or self.view else ["…"])

    def file(self) -> discord.File | None:
        # A discord.File is consumed by sending: make a new one for every send.
        if self.image is None:
            return None
        return discord.File(io.BytesIO(self.image.data), filename=self.image.filename,
                            description=self.image.alt)


def frontend_of(interaction: discord.Interaction[Any]) -> Frontend:
    client: Any = interaction.client
    fe: Frontend = client.frontend
    return fe


def locale_from_discord(locale: discord.Locale | str | None) -> str:
    """The guild's preferred locale decides a new table's language: French for fr,
    English otherwise (the two locales the templates exist in)."""
    value = locale.value if isinstance(locale, discord.Locale) else (locale or "")
    return FRENCH if value.lower().startswith("fr") else DEFAULT_LOCALE


class Frontend:
    def __init__(self, client: discord.Client, renderer: Renderer,
                 seeds: Iterator[int] | None = None, pacer: Pacer | None = None) -> None:
        self.client = client
        self.renderer = renderer
        # Tests pass seeds for reproducible tables; a live bot lets the service draw them.
        self._seeds = seeds
        self._service: TableService | None = None
        self._labels: dict[str, Labels] = {}
        self.pacer = pacer or Pacer()
        # Every menu shown, closed when its decision closes (the delivery worker's
        # transport and the click handlers share it).
        self.menus = MenuKeeper(client, lambda: self.service, self.pacer)

    def attach(self, service: TableService) -> None:
        # The service needs the notifier, which needs this object: attached once built.
        self._service = service

    def next_seed(self) -> int | None:
        return None if self._seeds is None else next(self._seeds)

    @property
    def has_service(self) -> bool:
        return self._service is not None

    @property
    def service(self) -> TableService:
        if self._service is None:
            raise RuntimeError("the table service is not attached yet")
        return self._service

    # ---------------------------------------------------------------- text

    def say(self, template: str, locale: str, game: str | None = None, /,
            **context: Any) -> str:
        return self.renderer.render_template(f"discord/{template}", context, locale=locale,
                                             game=game)

    def refusal(self, exc: Refused, locale: str, game: str | None = None) -> str:
        return self.renderer.refusal(exc, locale=locale, game=game)

    def labels(self, locale: str) -> Labels:
        if locale not in self._labels:
            self._labels[locale] = load_labels(self.renderer, locale)
        return self._labels[locale]

    # ---------------------------------------------------------------- who and where

    @staticmethod
    def actor(interaction: discord.Interaction[Any]) -> Actor:
        """The person clicking. Manage Server or Manage Channels grants the host's powers
        (abort, kick, pause...) on every table of the server, and no other."""
        user = interaction.user
        manager = False
        if interaction.guild is not None:
            perms = interaction.permissions
            manager = perms.manage_guild or perms.manage_channels
        # The right holds in this server only: not over a table of another, nor over a
        # mail table followed here (``Actor.manages``).
        guild = None if interaction.guild_id is None else str(interaction.guild_id)
        return Actor(str(user.id), user.display_name, manager=manager, guild_id=guild)

    @staticmethod
    def guild_locale(interaction: discord.Interaction[Any]) -> str:
        guild = interaction.guild
        if guild is not None:
            return locale_from_discord(guild.preferred_locale)
        return locale_from_discord(interaction.guild_locale or interaction.locale)

    async def channel(self, info: TableInfo) -> discord.abc.Messageable | None:
        """The channel or thread the table lives in; None when it has none (a console table)
        or the bot cannot see it any more."""
        target = info.thread_id or info.channel_id
        if target is None:
            return None
        channel: Any = self.client.get_channel(int(target))
        if channel is None:
            try:
                channel = await self.client.fetch_channel(int(target))
            except discord.HTTPException:
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    # ---------------------------------------------------------------- components

    @staticmethod
    def menu_of(context: Mapping[str, Any], table: int, seat: int | None) -> MenuOf | None:
        """Whose menu ``components.menu_from_context`` builds from ``context``, for
        ``seat``."""
        version = context.get("prompt_version")
        if seat is None or version is None:
            return None
        return MenuOf(table, seat, int(version))

    # ---------------------------------------------------------------- images

    async def image_for(self, game: str, spec: FileSpec, view: Mapping[str, Any] | None,
                        info: TableInfo) -> images.Image | None:
        if view is None:
            if spec.seat is not None:
                seat = info.seats[spec.seat] if spec.seat < len(info.seats) else None
                if seat is None or seat.user_id is None:
                    return None
                view = await self.service.view(info.id, Actor(seat.user_id))
            else:
                view = await self.service.view(info.id, None)
        return await images.render_async(game, spec, view, table_id=info.id, names=info.names,
                                         outcome=info.outcome, locale=info.locale)

    # ---------------------------------------------------------------- replies

    async def reply(self, interaction: discord.Interaction[Any], out: Outgoing | str, *,
                    ephemeral: bool = True) -> None:
        """Answer an interaction (first response or follow-up), in as many messages as the
        text needs; the image and components go with the last one. A decision's menu
        (``out.menu``) is tracked, to be closed with its decision through the token."""
        if isinstance(out, str):
            out = Outgoing(out)
        parts = out.parts()
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            kwargs: dict[str, Any] = {"ephemeral": ephemeral}
            if last:
                file = out.file()
                if file is not None:
                    kwargs["file"] = file
                if out.view is not None:
                    kwargs["view"] = out.view
            close: Closer | None = None
            message: Any = None
            if not interaction.response.is_done():
                answered = await interaction.response.send_message(part, **kwargs)
                message = answered.resource
                close = functools.partial(interaction.edit_original_response, view=None)
            else:
                message = await interaction.followup.send(part, wait=True, **kwargs)
                close = functools.partial(interaction.followup.edit_message, message.id,
                                          view=None)
            if last and out.menu is not None and out.view is not None and message is not None:
                await self.menus.keep(out.menu, message, close=close)

    async def refuse(self, interaction: discord.Interaction[Any], exc: Refused, *,
                     locale: str, game: str | None = None, table: int | None = None,
                     view: discord.ui.View | None = None) -> None:
        """A polite no, with ``view``, the current options as a fresh menu, when the
        refusal has them (a stale button shows what can be done now)."""
        seat = None
        if table is not None and exc.context.get("options"):
            try:
                seat = (await self.service.info(table)).seat_of(str(interaction.user.id))
            except Refused:
                seat = None
        await self.reply(interaction,
                         self.refusal_message(exc, locale, game, table, seat, view))

    def refusal_message(self, exc: Refused, locale: str, game: str | None, table: int | None,
                        seat: int | None, view: discord.ui.View | None) -> Outgoing:
        """The refusal's words, and ``view``, the menu of ``seat``'s current options when
        it has them (tracked, so it is closed with that decision)."""
        menu = None
        if table is None:
            view = None
        elif view is not None:
            menu = self.menu_of(exc.context, table, seat)
        return Outgoing(self.refusal(exc, locale, game), view=view, menu=menu)
