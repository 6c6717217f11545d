"""``urbanist run``: the bot on Discord, with ``DISCORD_TOKEN``; without it, how to get one."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import Any

from bot.store.health import hold_database, probe
from bot.store.sqlite import default_db_path
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
    p.add_argument("--db", type=Path, default=None,
                   help="SQLite file (default: $URBANIST_DB or ./urbanist.sqlite3)")
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
    from bot.discord.bot import BotConfig, UrbanistBot

    db_path = args.db or default_db_path()
    # One bot per database file, for this process's life; a storage fault stops it here,
    # as one line (bot.cli prints StorageError), before it connects to Discord.
    hold_database(db_path)
    asyncio.run(probe(db_path))
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    bot = UrbanistBot(BotConfig(db_path=db_path, sync_commands=not args.no_sync))
    # discord.py's own handler would log twice next to basicConfig's.
    bot.run(token, log_handler=None)
    return 0
