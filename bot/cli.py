"""``urbanist`` command line: subcommands dispatched with argparse.

Each subcommand module adds its parser with ``add_<name>(subparsers)`` and sets
``func``; optional modules (``bot.simulate``, the Discord front end) are imported
lazily so that one missing piece never breaks the others.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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
        if not source.exists():
            print(f"no database at {source}", file=sys.stderr)
            return 1
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
        store = await SqliteStore.open(args.db or default_db_path())
        try:
            problems = await store.integrity_check()
            for problem in problems:
                print(f"integrity: {problem}")
            bad = len(problems)
            if not args.no_replay:
                service = TableService(store, MemoryNotifier())
                tables = await store.find_tables(statuses=["running", "paused", "finished"])
                for table in tables:
                    report = await service.verify(table.id)
                    if not report.ok:
                        bad += 1
                        print(f"table {table.id}: {report.problem}")
                print(f"replayed {len(tables)} tables")
            print("ok" if not bad else f"{bad} problems")
            return 0 if not bad else 1
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
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
