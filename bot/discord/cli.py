"""``urbanist run``: the bot on Discord, with ``DISCORD_TOKEN``; without it, how to get one."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import Any

from bot.store.factory import default_target
from bot.store.health import hold_database
from bot.store.pg_faults import is_postgres_url
from bot.store.sqlite_writable import probe
from bot.text import Renderer

TOKEN_VARIABLE = "DISCORD_TOKEN"


def invite_permissions() -> int:
    """What posting a table's messages and images, in channels and threads, and finding
    its status message again after a restart need; nothing more."""
    import discord

    return discord.Permissions(
        view_channel=True, send_messages=True, send_messages_in_threads=True,
        embed_links=True, attach_files=True, read_message_history=True).value


def add_run(subparsers: Any) -> None:
    p = subparsers.add_parser("run", help=f"run the bot on Discord (needs ${TOKEN_VARIABLE})")
    p.add_argument("--db", default=None, help="SQLite file or postgresql:// URL (default: "
                   "$URBANIST_DB or ./urbanist.sqlite3)")
    p.add_argument("--no-sync", action="store_true",
                   help="do not re-register the slash commands with Discord at start")
    p.add_argument("--locale", default="en", choices=["en", "fr"],
                   help="language of this command's own help")
    p.set_defaults(func=run_command)


def run_command(args: argparse.Namespace) -> int:
    token = os.environ.get(TOKEN_VARIABLE, "").strip()
    if not token:
        help_text = Renderer().render_template(
            "discord/run_help", {"variable": TOKEN_VARIABLE, "permissions": invite_permissions()},
            locale=args.locale)
        print(help_text, file=sys.stderr)
        return 2
    from bot.mail.cli import runtime_for_run

    mail = runtime_for_run(args)  # --mail: the mail front end in this process
    if mail is False:
        return 2
    from bot.discord.bot import create_bot

    shard_count = getattr(args, "shard_count", None)
    shard_ids = getattr(args, "shard_ids", None)
    if shard_ids is not None and shard_count is None:
        print("urbanist run: --shard-ids needs --shard-count", file=sys.stderr)
        return 2
    if shard_ids is not None and shard_count is not None and max(shard_ids) >= shard_count:
        print(f"urbanist run: shard ids go from 0 to {shard_count - 1}", file=sys.stderr)
        return 2
    target: str | Path = args.db or default_target()
    if not is_postgres_url(target):
        target = Path(target)
        # One bot per database file, for this process's life; a storage fault stops it
        # here, as one line (bot.cli prints StorageError), before it connects to Discord.
        # A PostgreSQL database is shared by several processes through leases instead.
        hold_database(target)
    asyncio.run(probe_any(target))
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    bot = create_bot(target, sync_commands=not args.no_sync, shard_count=shard_count,
                     shard_ids=shard_ids, web=getattr(args, "web", None), mail=mail)
    # discord.py's own handler would log twice next to basicConfig's.
    bot.run(token, log_handler=None)
    return 0


async def probe_any(target: str | Path) -> None:
    """Open the database and close it again, so a storage fault stops the bot before it
    connects to Discord (SQLite or PostgreSQL alike)."""
    if not is_postgres_url(target):
        await probe(target)
        return
    from bot.store.factory import open_store

    store = await open_store(target)
    await store.close()
