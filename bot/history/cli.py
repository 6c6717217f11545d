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
    p.add_argument("--locale", default="en", choices=["en", "fr"])
    p.set_defaults(func=run_replay)

    p = subparsers.add_parser("ratings", help="the ratings of the finished tables, per "
                              "game and server, as /leaderboard shows them")
    p.add_argument("--rebuild", action="store_true",
                   help="first recompute every result and rating from the stored finished "
                   "tables")
    p.add_argument("--game", default=None, help="only this game")
    p.add_argument("--locale", default="en", choices=["en", "fr"])
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
    """Exit 2 for a file that is not a replayable export (missing, unreadable, not JSON,
    not an export, damaged), 1 for an export whose replay disagrees with it."""
    from bot.clitext import refuse, say
    from bot.history.export import ExportError, replay
    from engine.core import get_game

    def refused(code: str, status: int = 2, **context: Any) -> int:
        refuse("replay", "replay_refused", args.locale, code=code, file=str(args.file),
               **context)
        return status

    try:
        text = Path(args.file).read_text("utf-8")
    except FileNotFoundError:
        return refused("missing")
    except IsADirectoryError:
        return refused("directory")
    except PermissionError:
        return refused("forbidden")
    except UnicodeDecodeError:
        return refused("not_json", line=None, column=None)
    except OSError as exc:
        return refused("unreadable", reason=exc.strerror or str(exc))
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        return refused("not_json", line=exc.lineno, column=exc.colno)
    try:
        result = replay(document, get_game)
    except ExportError as exc:
        return refused(exc.code, 1 if exc.mismatch else 2, **exc.context)
    names = {seat.get("seat"): seat.get("name") for seat in document["seats"]
             if isinstance(seat, dict)}
    standings = [{"name": names.get(s["seat"]) or s["name"], "total": s["total"],
                  "rank": s["rank"]} for s in (result.outcome or {}).get("standings", [])]
    print(say("replayed", args.locale, game=result.game, table_id=result.table_id,
              actions=result.actions, standings=standings))
    return 0


def run_ratings(args: argparse.Namespace) -> int:
    from bot.clitext import say
    from bot.history import stats
    from bot.history.rebuild import finished_games
    from bot.store import open_store
    from bot.store.health import require_existing

    async def main() -> int:
        db = _db(args)
        if not _is_url(db):
            require_existing(db)
        store = await open_store(db)
        try:
            # The store keeps no list of servers: the finished tables name them.
            games = await finished_games(store)
            if args.rebuild:
                await store.rebuild_history(games)
            boards = []
            for guild, game in sorted({(g.guild_id, g.game) for g in games}):
                if args.game is not None and game != args.game:
                    continue
                rows, apart = stats.leaderboard_rows(await store.load_ratings(guild, game))
                if rows or apart:
                    boards.append({"guild": guild, "game": game, "rows": rows,
                                   "apart": apart})
        finally:
            await store.close()
        print(say("ratings", args.locale, rebuilt=len(games) if args.rebuild else None,
                  boards=boards, min_games=stats.MIN_GAMES))
        return 0

    return asyncio.run(main())
