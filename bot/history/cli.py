"""``urbanist export TABLE``, ``urbanist replay FILE`` and ``urbanist ratings --rebuild``.
Nothing heavy is imported until a subcommand runs (``urbanist --help`` stays light)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

ANY_DB_HELP = ("SQLite file or postgresql://user:password@host/database URL (default: "
               "$URBANIST_DB or ./urbanist.sqlite3)")


def add_history_commands(subparsers: Any) -> None:
    p = subparsers.add_parser("export", help="write one table as JSON (see "
                              "docs/export-format.md)")
    p.add_argument("table", type=int, help="the table number")
    p.add_argument("--db", default=None, help=ANY_DB_HELP)
    p.add_argument("-o", "--output", type=Path, default=None,
                   help="the file to write (default: standard output)")
    p.set_defaults(func=run_export)

    p = subparsers.add_parser("replay", help="rebuild an exported table's final state from "
                              "its seed and actions, and check it")
    p.add_argument("file", type=Path, help="a file written by urbanist export")
    p.set_defaults(func=run_replay)

    p = subparsers.add_parser("ratings", help="the ratings of the finished tables")
    p.add_argument("--rebuild", action="store_true",
                   help="recompute every result and rating from the stored finished tables")
    p.add_argument("--db", default=None, help=ANY_DB_HELP)
    p.set_defaults(func=run_ratings)


def _db(args: argparse.Namespace) -> str:
    return str(args.db or os.environ.get("URBANIST_DB") or "urbanist.sqlite3")


def _is_url(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def run_export(args: argparse.Namespace) -> int:
    from bot.history.export import export_table
    from bot.store import open_store
    from bot.store.health import require_existing

    async def main() -> int:
        db = _db(args)
        if not _is_url(db):
            require_existing(db)
        store = await open_store(db)
        try:
            bundle = await store.load_bundle(args.table)
            if bundle is None:
                print(f"urbanist: there is no table {args.table}", file=sys.stderr)
                return 1
            table, seats, _ = bundle
            document = export_table(table, seats, await store.load_actions(args.table))
        finally:
            await store.close()
        text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
        if args.output is None:
            sys.stdout.write(text)
        else:
            args.output.write_text(text, "utf-8")
            print(f"table {args.table} written to {args.output}")
        return 0

    return asyncio.run(main())


def run_replay(args: argparse.Namespace) -> int:
    from bot.history.export import ExportError, replay
    from engine.core import get_game

    try:
        document = json.loads(Path(args.file).read_text("utf-8"))
        result = replay(document, get_game)
    except (OSError, ValueError) as exc:  # ExportError and JSON errors are ValueErrors
        kind = "" if isinstance(exc, ExportError) else f"{type(exc).__name__}: "
        print(f"urbanist: {args.file}: {kind}{exc}", file=sys.stderr)
        return 1
    names = {seat.get("seat"): seat.get("name") for seat in document.get("seats", [])}
    ranks = ", ".join(f"{names.get(s['seat']) or s['name']} {s['total']} (#{s['rank']})"
                      for s in (result.outcome or {}).get("standings", []))
    print(f"{result.game} table {result.table_id}: {result.actions} actions replayed; "
          f"final state and outcome match ({ranks})")
    return 0


def run_ratings(args: argparse.Namespace) -> int:
    if not args.rebuild:
        print("urbanist ratings: say --rebuild to recompute the ratings", file=sys.stderr)
        return 2
    from bot.history.rebuild import rebuild
    from bot.store import open_store
    from bot.store.health import require_existing

    async def main() -> int:
        db = _db(args)
        if not _is_url(db):
            require_existing(db)
        store = await open_store(db)
        try:
            count = await rebuild(store)
        finally:
            await store.close()
        print(f"ratings rebuilt from {count} finished tables")
        return 0

    return asyncio.run(main())
