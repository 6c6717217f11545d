"""``urbanist`` command line: subcommands dispatched with argparse.

Each subcommand module adds its parser with ``add_<name>(subparsers)`` and sets
``func``; optional modules (``bot.simulate``, the Discord front end) are imported
lazily so that one missing piece never breaks the others.

Exit codes: 0 done; 1 ``check`` found problems; 2 usage; 3 a storage fault (the database
cannot be opened, is not one, is corrupted, is from a newer Urbanist, or is used by
another bot process), said in one line on stderr, never as a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.store.health import (
    EXIT_STORAGE,
    StorageError,
    hold_database,
    require_existing,
    table_ids_at,
)
from bot.store.sqlite import default_db_path

# (module, function) pairs registering optional subcommands, if the module exists.
OPTIONAL_COMMANDS = (("bot.simulate", "add_simulate"), ("bot.discord.cli", "add_run"))


def add_local(subparsers: Any) -> None:
    p = subparsers.add_parser("local", help="play a table in this terminal (no Discord needed)")
    p.add_argument("game")
    p.add_argument("--players", type=int, default=2, help="seats in all, humans and bots")
    p.add_argument("--bots", type=int, default=0, help="how many of the seats are bots")
    p.add_argument("--db", type=Path, default=None,
                   help="SQLite file to keep the table in (default: a temporary one)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--locale", default="en", choices=["en", "fr"])
    p.set_defaults(func=run_local_command)


def run_local_command(args: argparse.Namespace) -> int:
    from bot.console import run_local

    if args.db is not None:
        hold_database(args.db)  # one process per database file, for this one's life
    return asyncio.run(run_local(args.game, args.players, args.bots, db=args.db, seed=args.seed,
                                 locale=args.locale, stdin=sys.stdin, out=sys.stdout))


def add_backup(subparsers: Any) -> None:
    p = subparsers.add_parser("backup", help="copy the live database (SQLite online backup)")
    p.add_argument("path", type=Path)
    p.add_argument("--db", type=Path, default=None, help="default: $URBANIST_DB or "
                   "./urbanist.sqlite3")
    p.set_defaults(func=run_backup)


def run_backup(args: argparse.Namespace) -> int:
    from bot.store import SqliteStore

    async def main() -> int:
        source = args.db or default_db_path()
        require_existing(str(source))
        store = await SqliteStore.open(source)
        try:
            await store.backup(args.path)
        finally:
            await store.close()
        print(f"backed up {source} to {args.path}")
        return 0

    return asyncio.run(main())


def add_check(subparsers: Any) -> None:
    p = subparsers.add_parser("check", help="integrity check, and replay every table's log")
    p.add_argument("--db", type=Path, default=None)
    p.add_argument("--no-replay", action="store_true", help="only the SQLite integrity check")
    p.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    from bot.service import MemoryNotifier, TableService
    from bot.store import SqliteStore

    async def main() -> int:
        path = str(args.db or default_db_path())
        require_existing(path)  # check never creates a database
        store = await SqliteStore.open(path)
        try:
            # Every problem is listed: a bad row is one line, never the end of the check.
            problems = await store.integrity_check()
            if not args.no_replay:
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
            print("ok" if not problems else f"{len(problems)} problems")
            return 0 if not problems else 1
        finally:
            await store.close()

    return asyncio.run(main())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="urbanist")
    subparsers = parser.add_subparsers(dest="command", required=True)
    add_local(subparsers)
    add_backup(subparsers)
    add_check(subparsers)
    for module_name, function in OPTIONAL_COMMANDS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not module_name.startswith(exc.name):
                raise  # a real missing dependency inside the module: say so
            continue
        getattr(module, function)(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result: int = args.func(args)
    except StorageError as fault:
        print(f"urbanist: {fault.message}", file=sys.stderr)
        return EXIT_STORAGE
    return result


if __name__ == "__main__":
    raise SystemExit(main())
