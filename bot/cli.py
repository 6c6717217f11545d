"""``urbanist`` command line: subcommands dispatched with argparse.

Every subcommand's parser is built here without importing what runs it: ``urbanist
--help`` and a mistyped option answer at once, and discord.py is imported only by
``urbanist run``.

Exit codes: 0 done; 1 ``check`` found problems; 2 usage; 3 a storage fault (the database
cannot be opened, is not one, is corrupted, is from a newer Urbanist, or is used by
another bot process), said in one line on stderr, never as a traceback; 130 a local game
left with Ctrl-C (it is saved).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.history.cli import add_history_commands
from bot.mail.cli import add_mail

if TYPE_CHECKING:
    from bot.store import SqliteStore

TOKEN_VARIABLE = "DISCORD_TOKEN"
DB_HELP = "SQLite file (default: $URBANIST_DB or ./urbanist.sqlite3)"
ANY_DB_HELP = ("SQLite file or postgresql://user:password@host/database URL (default: "
               "$URBANIST_DB or ./urbanist.sqlite3)")


def default_db() -> Path:
    # The same rule as bot.store.sqlite.default_db_path, without importing the store.
    return Path(os.environ.get("URBANIST_DB") or "urbanist.sqlite3")


def default_any_db() -> str:
    """$URBANIST_DB (a path or a PostgreSQL URL) or ./urbanist.sqlite3."""
    return os.environ.get("URBANIST_DB") or "urbanist.sqlite3"


def is_url(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def shard_ids(text: str) -> list[int]:
    """``0,2,5`` or ``0-3`` (or both mixed), ascending, each once."""
    found: set[int] = set()
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            first, last = int(low), int(high or low)
            if first < 0 or last < first:
                raise ValueError(part)
            found.update(range(first, last + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: shard numbers like 0,1 or 0-3") from None
    return sorted(found)


def listen_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` for the table pages (``[::1]:8080`` for IPv6, ``:8080`` for every
    address)."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) < 65536:
        raise argparse.ArgumentTypeError(f"{text!r}: HOST:PORT, such as 127.0.0.1:8080")
    return host.strip("[]") or "0.0.0.0", int(port)


def refuse_url(command: str, db: str | None) -> str | None:
    """The one line ``local`` and ``tables`` answer a PostgreSQL URL with (they keep
    their tables in an SQLite file), without the URL itself; None for a path."""
    if not is_url(db or os.environ.get("URBANIST_DB") or ""):
        return None
    where = "--db" if db else "$URBANIST_DB"
    return (f"{where} is a PostgreSQL URL, but `urbanist {command}` keeps its tables in an "
            "SQLite file: give one with --db")


def lazy(module: str, function: str) -> Any:
    """A ``func`` that imports ``module`` only when the subcommand runs."""
    def run(args: argparse.Namespace) -> int:
        result: int = getattr(importlib.import_module(module), function)(args)
        return result
    return run


def add_local(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "local", help="play a table in this terminal (no Discord needed); resumes the "
        "unfinished one", description="Play in this terminal. The table is kept in the "
        "database and saved after every move: running the command again resumes it.")
    p.add_argument("game", nargs="?", help="the game (leave out to resume the latest table)")
    p.add_argument("--players", type=int, default=2, help="seats in all, humans and bots")
    p.add_argument("--bots", type=int, default=0, help="how many of the seats are bots")
    p.add_argument("--ai", default=None, metavar="LEVEL",
                   help="the bots' level: easy, normal or hard (default: hard, unless the "
                        "game names another)")
    p.add_argument("--name", action="append", default=[], metavar="NAME",
                   help="a human player's name, once per player in seat order")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, as for simulate (e.g. characters=intro)")
    p.add_argument("--resume", type=int, default=None, metavar="TABLE",
                   help="resume this table (`urbanist tables` lists them)")
    p.add_argument("--new", action="store_true",
                   help="start a new table even if one is unfinished")
    p.add_argument("--db", default=None, help=DB_HELP)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--locale", default=None, choices=["en", "fr"],
                   help="the table's language (default: a resumed table's own, else en)")
    p.set_defaults(func=run_local_command)


def local_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with ``local``'s command line, in one line, or None."""
    from bot.simulate import (
        check_game,
        check_level,
        check_options,
        check_players,
        parse_options,
    )

    if args.game is None:
        return None
    problem = check_game(args.game) or check_players(args.game, args.players)
    if problem:
        return problem
    if not 0 <= args.bots <= args.players:
        return f"--bots must be 0 to {args.players} (the seats in all)"
    if args.ai is not None and (problem := check_level(args.ai)):
        return problem
    try:
        args.options = parse_options(args.option, args.game)
    except ValueError as exc:
        return str(exc)
    return check_options(args.game, args.players, args.options)


def run_local_command(args: argparse.Namespace) -> int:
    import asyncio

    problem = refuse_url("local", args.db) or local_problem(args)
    if problem:
        print(f"urbanist local: {problem}", file=sys.stderr)
        return 2
    from bot.store.health import hold_database

    db = Path(args.db) if args.db else default_db()
    hold_database(db)  # one process per database file, for this one's life
    quiet_storage_logs()
    from bot.console import run_local

    try:
        return asyncio.run(run_local(
            args.game, args.players, args.bots, db=db, seed=args.seed, locale=args.locale,
            stdin=sys.stdin, out=sys.stdout, options=getattr(args, "options", {}),
            names=args.name, resume=args.resume, new=args.new, level=args.ai))
    except KeyboardInterrupt:  # Ctrl-C outside a turn (while the table is being set up)
        print("\ninterrupted", file=sys.stderr)
        return 130


def quiet_storage_logs() -> None:
    """The console ends on a storage fault with one line naming the file (see main):
    the service's log line about the same fault would be a second one. Its other log
    lines still reach stderr, as Python's last-resort handler would print them."""
    import logging

    from bot.store.health import StorageError

    def not_storage(record: logging.LogRecord) -> bool:
        # Logged while the fault is being handled: the exception in hand, or the
        # refusal made of it, says which.
        error = sys.exc_info()[1]
        while error is not None:
            if isinstance(error, StorageError):
                return False
            error = error.__context__
        return True

    handler = logging.StreamHandler()
    handler.setLevel(logging.WARNING)
    handler.addFilter(not_storage)
    logger = logging.getLogger("bot")
    logger.addHandler(handler)
    logger.propagate = False


def add_tables(subparsers: Any) -> None:
    p = subparsers.add_parser("tables", help="list the local tables of the database")
    p.add_argument("--all", action="store_true",
                   help="the finished ones too, with their winner (for urbanist export)")
    p.add_argument("--db", default=None, help=DB_HELP)
    p.add_argument("--locale", default="en", choices=["en", "fr"])
    p.set_defaults(func=run_tables)


def db_flag(db: str | None) -> str:
    """`` --db PATH`` for a hint to work as printed, or nothing for the default file."""
    import shlex

    return f" --db {shlex.quote(db)}" if db else ""


def run_tables(args: argparse.Namespace) -> int:
    import asyncio

    from bot.clitext import say
    from bot.console.tables import LOCAL_CHANNEL, local_tables
    from bot.store import SqliteStore

    refused = refuse_url("tables", args.db)
    if refused:
        print(f"urbanist tables: {refused}", file=sys.stderr)
        return 2

    async def listing() -> int:
        path = Path(args.db) if args.db else default_db()
        if not Path(path).exists():
            print(say("tables", args.locale, missing=str(path)))
            return 0
        store = await SqliteStore.open(path)
        try:
            unfinished = await local_tables(store)
            finished = await store.find_tables(channel_id=LOCAL_CHANNEL,
                                               statuses=["finished"])
            # Only listed ones are read whole: their seats name the winners.
            shown = [await finished_row(store, t.id) for t in finished] if args.all else []
        finally:
            await store.close()
        print(say("tables", args.locale, missing=None, unfinished=unfinished,
                  finished=sorted(shown, key=lambda t: -t["id"]), all=args.all,
                  finished_count=len(finished), db=db_flag(args.db)))
        return 0

    return asyncio.run(listing())


async def finished_row(store: SqliteStore, table_id: int) -> dict[str, Any]:
    """A finished table as ``urbanist tables --all`` shows it: who won, with what."""
    bundle = await store.load_bundle(table_id)
    assert bundle is not None  # listed by the same store a moment ago; tables stay
    table, seats, _ = bundle
    names = {s.seat: s.name for s in seats}
    standings = (table.outcome or {}).get("standings", [])
    first = [s for s in standings if s.get("rank") == 1]
    return {"id": table.id, "game": table.game, "updated_at": table.updated_at,
            "winners": [names.get(s.get("seat")) or s.get("name") for s in first],
            "total": first[0].get("total") if first else None}


def add_simulate(subparsers: Any) -> None:
    p = subparsers.add_parser("simulate", help="AI players play a whole game and print the scores")
    p.add_argument("game", help="the game (ginkgopolis, skybridge...; a wrong name lists them)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ai", default="normal", help="one level for every seat (easy, normal, "
                   "hard), or a comma-separated list (e.g. hard,normal,easy); the AI kinds "
                   "random, greedy and search are accepted too")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--locale", default="en", choices=["en", "fr"])
    p.set_defaults(func=lazy("bot.simulate", "run_simulate"))


def add_run(subparsers: Any) -> None:
    p = subparsers.add_parser("run", help=f"run the bot on Discord (needs ${TOKEN_VARIABLE})")
    p.add_argument("--db", default=None, help=ANY_DB_HELP)
    p.add_argument("--shard-count", type=positive, default=None, metavar="N",
                   help="Discord shards in all, over every process (needs a PostgreSQL "
                   "--db when several processes run)")
    p.add_argument("--shard-ids", type=shard_ids, default=None, metavar="IDS",
                   help="the shards this process connects, e.g. 0,1 or 0-3 (default: all)")
    p.add_argument("--no-sync", action="store_true",
                   help="do not re-register the slash commands with Discord at start")
    p.add_argument("--mail", action="store_true",
                   help="also play by email in this process (settings as for `urbanist mail`)")
    p.add_argument("--web", type=listen_address, default=None, metavar="HOST:PORT",
                   help="also serve the tables' read-only web pages there (docs/web.md)")
    p.add_argument("--locale", default="en", choices=["en", "fr"],
                   help="language of this command's own help")
    p.set_defaults(func=lazy("bot.discord.cli", "run_command"))


def add_web(subparsers: Any) -> None:
    p = subparsers.add_parser("web", help="serve the tables' read-only web pages (beside a "
                              "running bot, over the same database)")
    p.add_argument("listen", nargs="?", type=listen_address, default=("127.0.0.1", 8080),
                   metavar="HOST:PORT", help="where to listen (default: 127.0.0.1:8080)")
    p.add_argument("--db", default=None, help=ANY_DB_HELP)
    p.set_defaults(func=lazy("bot.web.server", "web_command"))


def add_backup(subparsers: Any) -> None:
    p = subparsers.add_parser("backup", help="copy the live database to an SQLite file")
    p.add_argument("path", type=Path)
    p.add_argument("--db", default=None, help=ANY_DB_HELP)
    p.add_argument("--force", action="store_true", help="overwrite PATH if it exists")
    p.add_argument("--locale", default="en", choices=["en", "fr"])
    p.set_defaults(func=run_backup)


def overwrites(target: Path, source: str) -> bool:
    """Whether a backup to ``target`` would replace a file of someone's: the database
    itself is not counted, its own refusal (a storage fault) says more."""
    if not (target.exists() or target.is_symlink()):
        return False
    return is_url(source) or target.resolve() != Path(source).resolve()


def run_backup(args: argparse.Namespace) -> int:
    import asyncio

    from bot.store import describe, open_store
    from bot.store.health import require_existing
    from bot.store.sqlite_backup import backup_file

    async def main() -> int:
        source = str(args.db or default_any_db())
        if not args.force and overwrites(args.path, source):
            from bot.clitext import refuse

            refuse("backup", "backup_refused", args.locale, path=str(args.path))
            return 2
        if not is_url(source):
            require_existing(source)
            # Read-only: a backup only reads, so a file it may not write is no obstacle.
            await asyncio.to_thread(backup_file, source, args.path)
            print(f"backed up {source} to {args.path}")
            return 0
        store = await open_store(source)
        try:
            await store.backup(args.path)
        finally:
            await store.close()
        print(f"backed up {describe(source)} to {args.path}")
        return 0

    return asyncio.run(main())


def add_check(subparsers: Any) -> None:
    p = subparsers.add_parser("check", help="integrity check, and replay every table's log")
    p.add_argument("--db", default=None, help=ANY_DB_HELP)
    p.add_argument("--no-replay", action="store_true", help="only the SQLite integrity check")
    p.add_argument("--locale", default="en", choices=["en", "fr"])
    p.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    import asyncio

    from bot.service import MemoryNotifier, TableService
    from bot.store import open_store
    from bot.store.health import require_existing, table_ids_at
    from bot.store.sqlite_read_only import open_read_only, unwritable

    async def main() -> int:
        path = str(args.db or default_any_db())
        read_only = False
        if not is_url(path):
            require_existing(path)  # check never creates a database
            read_only = await asyncio.to_thread(unwritable, path)
        # A read-only file is checked without the bot's open, which would write it.
        store = await (open_read_only(path) if read_only else open_store(path))
        try:
            # Every problem is listed: a bad row is one line, never the end of the check.
            problems = await store.integrity_check()
            if not args.no_replay:
                unread: list[str] = []
                if is_url(path):
                    ids = await store.table_ids(("running", "paused", "finished"))
                else:
                    ids, unread = await asyncio.to_thread(table_ids_at, path)
                problems += unread
                service = TableService(store, MemoryNotifier())
                for table_id in ids:
                    try:
                        report = await service.verify(table_id)
                    except Exception as exc:  # a corrupted row: say which, go on
                        problems.append(f"table {table_id}: cannot be replayed: "
                                        f"{type(exc).__name__}: {exc}")
                        continue
                    if not report.ok:
                        problems.append(f"table {table_id}: {report.problem}")
                print(f"replayed {len(ids)} tables")
            for problem in problems:
                print(problem)
            if read_only:
                from bot.clitext import say

                print(say("check_read_only", args.locale, path=path))
            print("ok" if not problems else f"{len(problems)} problems")
            return 0 if not problems else 1
        finally:
            await store.close()

    return asyncio.run(main())


def add_migrate(subparsers: Any) -> None:
    p = subparsers.add_parser("migrate", help="copy every table into a new, empty database "
                              "(SQLite <-> PostgreSQL), verified by replay")
    p.add_argument("source", help="SQLite file or postgresql:// URL")
    p.add_argument("target", help="SQLite file or postgresql:// URL, empty")
    p.set_defaults(func=lazy("bot.store.migrate", "run_migrate_command"))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="urbanist", description="Asynchronous tables of "
                                     "city-building board games, on Discord or in a terminal.")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for add in (add_local, add_tables, add_simulate, add_run, add_web, add_mail, add_backup,
                add_check, add_migrate, add_history_commands):
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from bot.store.health import EXIT_STORAGE, StorageError, disk_fault

    try:
        result: int = args.func(args)
    except StorageError as fault:
        print(f"urbanist: {fault.message}", file=sys.stderr)
        return EXIT_STORAGE
    except BrokenPipeError:
        # The reader went away (``urbanist tables | head -1``): stop quietly; a local
        # table is already saved. Later writes to the closed pipe go nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as error:
        disk = disk_fault(error, error.filename or output_name())
        if disk is None:
            raise
        # The disk under the output may be the full one: what is still buffered for it
        # goes nowhere, rather than failing again at exit with a second message.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"urbanist: {disk.message}", file=sys.stderr)
        return EXIT_STORAGE
    return result


def output_name() -> str:
    """What a write with no file name of its own failed on: the command's output, named
    by its file when the system says (``urbanist local > game.txt``)."""
    try:
        return f"the output ({os.readlink(f'/proc/self/fd/{sys.stdout.fileno()}')})"
    except (OSError, ValueError):
        return "the output"


if __name__ == "__main__":
    raise SystemExit(main())
