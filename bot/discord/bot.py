"""The Discord client: slash commands, persistent components, DMs, and the service.

Intents: ``guilds`` (channels and threads the tables live in) and ``dm_messages``
(moves typed in DMs). Neither is privileged; the bot reads no guild message at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from discord import app_commands

from bot.clock import Clock
from bot.discord import components, ids, typed
from bot.discord.commands import build_commands
from bot.discord.frontend import Frontend
from bot.discord.notifier import DiscordNotifier
from bot.discord.pacing import Pacer
from bot.discord.translator import UrbanistTranslator
from bot.gc_tuning import settle_after_start
from bot.service import BootReport, TableService
from bot.store import Store, open_store
from bot.store.pg_faults import is_postgres_url
from bot.text import Renderer, discord_time

if TYPE_CHECKING:
    from bot.web.server import WebServer

log = logging.getLogger(__name__)


@dataclass
class BotConfig:
    db_path: str | Path  # an SQLite file, or a postgresql:// URL
    clock: Clock | None = None  # tests move a fake clock instead of waiting
    # APScheduler fires deadlines and reminders; tests call the job functions instead.
    scheduler: bool = True
    sync_commands: bool = True
    # An already open store, which the bot then owns and closes. Tests open it outside
    # the bot's tasks: SqliteStore.open leaves its PRAGMA cursors to the garbage collector,
    # and simcord's loop instrumentation keeps them alive long enough to break the
    # migration's COMMIT ("SQL statements in progress").
    store: Store | None = None
    seeds: Iterator[int] | None = None  # tables' seeds, for reproducible tests
    # Pace requests under Discord's limits (tests on simcord's virtual clock turn it off:
    # a paced request would wait for virtual time that nobody advances).
    pacing: bool = True
    # Discord sharding (``urbanist run --shard-count N --shard-ids ...``): this process
    # connects the shards ``shard_ids`` of ``shard_count``; None: one unsharded client.
    shard_count: int | None = None
    shard_ids: list[int] | None = None
    # Beside other processes on one PostgreSQL (always, on a URL): this process's name
    # in the leases table; None picks a unique one.
    owner: str | None = None
    # Serve the tables' web pages (bot.web) at this (host, port), over the bot's store.
    web: tuple[str, int] | None = None
    # Also play by email (bot.mail.runtime.MailRuntime): its notifier routes each seat's
    # messages where it plays, and it reads the mailbox beside the bot.
    mail: Any = None


def process_owner() -> str:
    """A name no other process ever had: host, pid and a random part (a restarted pid
    must not inherit the leases of the process that died)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def shares_database(config: BotConfig) -> bool:
    return is_postgres_url(config.db_path)


def intents() -> discord.Intents:
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.dm_messages = True
    return wanted


class UrbanistBot(discord.Client):
    def __init__(self, config: BotConfig) -> None:
        shards: dict[str, Any] = {}
        if config.shard_count is not None:
            shards = {"shard_count": config.shard_count, "shard_ids": config.shard_ids}
        super().__init__(intents=intents(), allowed_mentions=discord.AllowedMentions.none(),
                         **shards)
        self.config = config
        self.tree: app_commands.CommandTree[UrbanistBot] = app_commands.CommandTree(self)
        self.tree.on_error = self._on_command_error  # type: ignore[method-assign]
        build_commands(self.tree)
        pacer = Pacer(enabled=config.pacing)  # one budget for posts, DMs and menu edits
        self.frontend = Frontend(self, Renderer(time_format=discord_time), config.seeds, pacer)
        self.notifier: Any = DiscordNotifier(self.frontend, pacer)
        if config.mail is not None:
            self.notifier = config.mail.route(self.notifier)
        self.store: Store | None = None
        self.scheduler: AsyncIOScheduler | None = None
        self.boot_report: BootReport | None = None
        self._audit: asyncio.Task[list[str]] | None = None
        self.web: WebServer | None = None

    @property
    def service(self) -> TableService:
        return self.frontend.service

    async def setup_hook(self) -> None:
        self.store = self.config.store or await open_store(self.config.db_path)
        self.config.store = None  # a restart with this config opens the file anew
        if self.config.scheduler:
            self.scheduler = AsyncIOScheduler(timezone=UTC)
        service = TableService(self.store, self.notifier, clock=self.config.clock,
                               scheduler=self.scheduler)
        if shares_database(self.config):
            # Any process applies any action; each table's deadlines, reminders, bot
            # turns and outbox are done by the one process holding its lease.
            service.share(self.config.owner or process_owner())
        self.frontend.attach(service)
        # Deadlines and reminders are rebuilt from the database before anything runs.
        self.boot_report = await service.boot()
        settle_after_start()
        if self.scheduler is not None:
            service.start_sweeping(self.scheduler)
            self.scheduler.start()
        # The check of every row runs beside the tables, never before their deadlines.
        self._audit = asyncio.get_running_loop().create_task(service.audit())
        # Every button and select ever sent answers again, whatever its message.
        self.add_dynamic_items(*components.DYNAMIC_ITEMS)
        await self.tree.set_translator(UrbanistTranslator())  # French names for French clients
        if self.config.sync_commands:
            await self.tree.sync()
        if self.config.web is not None:
            from bot.web.server import start_web

            self.web = await start_web(self.store, *self.config.web)
        if self.config.mail is not None:
            await self.config.mail.start(service)
        log.info("ready: %d running tables, %d jobs", self.boot_report.running_tables,
                 self.boot_report.jobs)

    async def shutdown(self) -> None:
        """Stop the jobs, publish what is queued, close the database."""
        if self.web is not None:
            await self.web.stop()  # the pages read the store: they stop first
            self.web = None
        if self.config.mail is not None:
            await self.config.mail.stop()  # no mail read while the rest stops
        if self.scheduler is not None and self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        if self._audit is not None:
            self._audit.cancel()
            await asyncio.gather(self._audit, return_exceptions=True)
            self._audit = None
        await self.notifier.idle()
        if self.frontend.has_service:
            await self.frontend.menus.close_all()
            await self.service.close()  # the bots' thinking and the AI's worker processes
        if self.store is not None and self.frontend.has_service:
            with contextlib.suppress(Exception):  # they expire anyway
                await self.service.leases.release_all(self.store, self.service.clock.now())
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def close(self) -> None:
        try:
            await self.shutdown()
        finally:
            await super().close()

    async def on_message(self, message: discord.Message) -> None:
        if message.guild is not None or message.author.bot:
            return
        if self.user is not None and message.author.id == self.user.id:
            return
        await typed.on_direct_message(self.frontend, message)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if ids.is_ours(custom_id) and not ids.is_known(custom_id):
            await components.unknown_component(interaction)

    async def _on_command_error(self, interaction: discord.Interaction[Any],
                                error: app_commands.AppCommandError) -> None:
        log.error("command %s failed", interaction.command and interaction.command.name,
                  exc_info=error)
        text = self.frontend.say("error", self.frontend.guild_locale(interaction))
        with contextlib.suppress(discord.HTTPException):
            await self.frontend.reply(interaction, text)


class ShardedUrbanistBot(UrbanistBot, discord.AutoShardedClient):
    """The bot over several shards in one process (``BotConfig.shard_count``)."""


def create_bot(db_path: str | Path, **options: Any) -> UrbanistBot:
    config = BotConfig(db_path=db_path, **options)
    return (ShardedUrbanistBot if config.shard_count is not None else UrbanistBot)(config)
