"""``urbanist mail``: the play-by-email front end on its own (settings from the
environment; with none, what to set, step by step, and exit 2); and the mail settings of
``urbanist run --mail``. Nothing heavy is imported until the command runs."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.mail.runtime import MailRuntime
    from bot.mail.settings import MailSettings


def add_mail(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "mail", help="run the play-by-email front end (settings: $URBANIST_MAIL_ADDRESS, "
        "$URBANIST_SMTP_HOST ...; see README 'Playing by email')",
        description="Play by email: commands and moves arrive in the bot's mailbox (IMAP) "
        "or at its own SMTP listener; decisions and news go out by SMTP. To play Discord "
        "and mail tables in one process, use `urbanist run --mail`.")
    p.add_argument("--db", default=None, help="SQLite file or postgresql:// URL (default: "
                   "$URBANIST_DB or ./urbanist.sqlite3)")
    p.add_argument("--locale", default="en", choices=["en", "fr"],
                   help="language of this command's own help")
    p.set_defaults(func=mail_command)


def settings_or_help(locale: str) -> MailSettings | None:
    """The settings from the environment, or None after printing what is missing."""
    from bot.mail.settings import MailSettings
    from bot.text import Renderer

    settings = MailSettings.from_env(os.environ)
    steps = settings.missing(locale)
    if not steps:
        return settings
    head = Renderer().render_template("mail/cli_help", {"count": len(steps)}, locale=locale)
    numbered = [f"{i}. {step}" for i, step in enumerate(steps, 1)]
    tail = Renderer().render_template("mail/cli_help_end", {}, locale=locale)
    print("\n\n".join([head, *numbered, tail]), file=sys.stderr)
    return None


def runtime_for_run(args: argparse.Namespace) -> MailRuntime | bool | None:
    """For ``urbanist run``: None without --mail; False when --mail lacks settings (the
    help is printed); else the runtime to hand to the bot."""
    if not getattr(args, "mail", False):
        return None
    settings = settings_or_help(getattr(args, "locale", "en"))
    if settings is None:
        return False
    from bot.mail.runtime import MailRuntime

    return MailRuntime(settings)


def mail_command(args: argparse.Namespace) -> int:
    settings = settings_or_help(args.locale)
    if settings is None:
        return 2
    import asyncio
    import logging
    from pathlib import Path

    from bot.store.factory import default_target
    from bot.store.health import hold_database
    from bot.store.pg_faults import is_postgres_url

    target: str | Path = args.db or default_target()
    if not is_postgres_url(target):
        target = Path(target)
        hold_database(target)  # one process per SQLite file
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(serve(settings, target))
    except KeyboardInterrupt:
        return 130
    return 0


class NoHome:
    """The table's home when only mail runs: no channel, no other front end."""

    inline = False

    async def deliver(self, notes: Any) -> dict[int, Any]:
        return {}


async def serve(settings: MailSettings, target: Any) -> None:
    from datetime import UTC

    from apscheduler.schedulers.asyncio import AsyncIOScheduler

    from bot.gc_tuning import settle_after_start
    from bot.mail.runtime import MailRuntime
    from bot.service import TableService
    from bot.store.factory import open_store

    runtime = MailRuntime(settings)
    store = await open_store(target)
    scheduler = AsyncIOScheduler(timezone=UTC)
    service = TableService(store, runtime.route(NoHome()), scheduler=scheduler)
    try:
        await service.boot()
        settle_after_start()
        service.start_sweeping(scheduler)
        scheduler.start()
        await runtime.start(service)
        import asyncio

        await asyncio.Event().wait()  # until Ctrl-C or a signal
    finally:
        await runtime.stop()
        if scheduler.running:
            scheduler.shutdown(wait=False)
        await service.delivery.idle()
        await service.close()
        await store.close()
