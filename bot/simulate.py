"""``urbanist simulate GAME``: AI players play a whole game; the final breakdown is printed."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import jinja2

from engine.core import get_game
from engine.core.play import ai_playout

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def add_simulate(subparsers: Any) -> None:
    p = subparsers.add_parser("simulate", help="AI players play a whole game and print the scores")
    p.add_argument("game", help="ginkgopolis or skybridge")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--ai",
        default="greedy",
        help="one AI kind for every seat, or a comma-separated list (e.g. greedy,random,random)",
    )
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--locale", default="en", choices=["en", "fr"])
    p.set_defaults(func=run_simulate)


def parse_options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, _, raw = pair.partition("=")
        value: Any = raw
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        options[key.strip()] = value
    return options


def simulate_text(
    game_name: str, players: int, seed: int, ai: str, options: dict[str, Any], locale: str
) -> str:
    game = get_game(game_name)
    kinds = ai.split(",") if "," in ai else [ai] * players
    if len(kinds) != players:
        raise SystemExit(f"--ai lists {len(kinds)} players but --players is {players}")
    state = game.setup(players, options, seed)
    actions = ai_playout(game, state, kinds, seed)
    outcome = game.outcome(state)
    assert outcome is not None
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES / locale)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env.get_template("cli/simulate.txt").render(
        game=game_name,
        players=players,
        seed=seed,
        kinds=kinds,
        actions=actions,
        outcome=outcome.to_json(),
    )


def run_simulate(args: argparse.Namespace) -> int:
    print(
        simulate_text(
            args.game, args.players, args.seed, args.ai, parse_options(args.option), args.locale
        ),
        end="",
    )
    return 0
