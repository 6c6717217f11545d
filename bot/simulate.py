"""``urbanist simulate GAME``: AI players play a whole game; the final breakdown is printed.

Also what the command line accepts, checked before anything runs (``local`` uses it
too): each ``check_*`` returns None when the value is good, else one line that says
what is wrong and what is valid, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, TextIO

import jinja2

from bot.text import TEMPLATES
from engine.core import Rng, get_game
from engine.core.errors import BadOptions
from engine.core.play import ai_playout, playout
from engine.core.protocol import Action, Event, Game
from engine.core.registry import game_names
from engine.core.textinput import typed_int

AI_KINDS = ("random", "greedy", "search")
# The levels players see, over the engine's AI kinds (bot.service.levels; not imported:
# the command line answers a mistyped option without loading the service).
LEVELS = {"easy": "random", "normal": "greedy", "hard": "search"}
PROGRESS_SECONDS = 5.0


def check_game(name: str) -> str | None:
    if name in game_names():
        return None
    return f"unknown game {name!r}; the games are: {', '.join(game_names())}"


def check_players(game: str, players: int) -> str | None:
    g = get_game(game)
    if g.min_seats <= players <= g.max_seats:
        return None
    return f"{game} is for {g.min_seats} to {g.max_seats} players, not {players}"


def known_ais(game: str) -> list[str]:
    g = get_game(game)
    found = []
    for kind in AI_KINDS:
        try:
            g.ai(kind)
        except (KeyError, ValueError):
            continue
        found.append(kind)
    return found


def check_level(word: str) -> str | None:
    """A bot level (or an AI kind, kept for compatibility) as ``--ai`` takes it."""
    if word.strip().lower() in (*LEVELS, *AI_KINDS):
        return None
    return (f"unknown bot level {word!r}; the levels are: {', '.join(LEVELS)} (the AI "
            f"kinds {', '.join(AI_KINDS)} are accepted too)")


def level_kind(word: str) -> str:
    """The AI kind a level (or a kind) names."""
    word = word.strip().lower()
    return LEVELS.get(word, word)


def check_ais(game: str, kinds: list[str], players: int) -> str | None:
    if len(kinds) != players:
        return f"--ai lists {len(kinds)} players but --players is {players}"
    known = known_ais(game)
    for word in kinds:
        if level_kind(word) not in known:
            levels = [level for level, kind in LEVELS.items() if kind in known]
            return (f"unknown level {word!r} for {game}; the levels are: {', '.join(levels)} "
                    f"(the AI kinds {', '.join(known)} are accepted too)")
    return None


def parse_options(pairs: list[str], game: str | None = None) -> dict[str, Any]:
    """``KEY=VALUE`` pairs as typed (``true``/``false``, numbers, else text); with
    ``game``, keys the game does not have are refused with the ones it has."""
    defaults = get_game(game).default_options() if game else None
    options: dict[str, Any] = {}
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(f"--option {pair!r}: write KEY=VALUE{_listed(defaults)}")
        if defaults is not None and key not in defaults:
            raise ValueError(f"{game} has no option {key!r}{_listed(defaults)}")
        value: Any = raw.strip()
        if value.lower() in ("true", "false"):
            value = value.lower() == "true"
        elif value.lstrip("-").isascii() and value.lstrip("-").isdigit():
            value = typed_int(value, "number")
        options[key] = value
    return options


def check_options(game: str, players: int, options: dict[str, Any]) -> str | None:
    try:
        get_game(game).setup(players, options, 0)
    except BadOptions as exc:
        return f"{exc.message.rstrip('.')}{_listed(get_game(game).default_options())}"
    return None


def _listed(defaults: dict[str, Any] | None) -> str:
    if not defaults:
        return ""
    shown = ", ".join(f"{k}={_value(v)}" for k, v in sorted(defaults.items()))
    return f"; the options and their defaults: {shown}"


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return "-" if v is None else str(v)


class Progress:
    """A line on ``out`` every ``PROGRESS_SECONDS`` of play (the round and the moves so
    far): a search game runs for minutes, and silence reads as a hang. A game shorter
    than that prints none."""

    def __init__(self, game: Game[Any], state: Any, template: jinja2.Template,
                 out: TextIO) -> None:
        self.game, self.state, self.template, self.out = game, state, template, out
        self.moves = 0
        self.last = time.monotonic()

    def moved(self, seat: int, action: Action, events: list[Event]) -> None:
        self.moves += 1
        now = time.monotonic()
        if now - self.last < PROGRESS_SECONDS:
            return
        self.last = now
        # The public view is the one place every game states its round, when it has one.
        view = self.game.view(self.state, None)
        turn = view.get("turn")
        found = view.get("round", turn.get("round") if isinstance(turn, dict) else None)
        print(self.template.render(game=self.game.name, moves=self.moves,
                                   round=found if isinstance(found, int) else None,
                                   rounds=view.get("rounds")).strip(),
              file=self.out, flush=True)


def simulate_text(
    game_name: str, players: int, seed: int, ai: str, options: dict[str, Any], locale: str,
    progress: TextIO | None = None,
) -> str:
    """The final breakdown; with ``progress``, lines on how far the game is as it goes."""
    game = get_game(game_name)
    words = ai.split(",") if "," in ai else [ai] * players
    kinds = [level_kind(w) for w in words]
    state = game.setup(players, options, seed)
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES / locale)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    if progress is None:
        actions = ai_playout(game, state, kinds, seed)
    else:
        # ai_playout's own loop, with a look at the clock after each move.
        rng = Rng.from_seed(seed)
        ais = [game.ai(k) for k in kinds]
        report = Progress(game, state, env.get_template("cli/progress.txt"), progress)
        actions = playout(game, state, lambda st, seat: ais[seat].choose(st, seat, rng),
                          on_apply=report.moved)
    outcome = game.outcome(state)
    assert outcome is not None
    return env.get_template("cli/simulate.txt").render(
        game=game_name,
        players=players,
        seed=seed,
        # What each seat played as: its level (a kind that has none is shown as typed).
        kinds=[next((lv for lv, k in LEVELS.items() if k == kind), kind) for kind in kinds],
        actions=actions,
        outcome=outcome.to_json(),
    )


def simulate_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the command line, in one line, or None."""
    problem = check_game(args.game) or check_players(args.game, args.players)
    if problem:
        return problem
    kinds = args.ai.split(",") if "," in args.ai else [args.ai] * args.players
    return check_ais(args.game, [k.strip() for k in kinds], args.players)


def run_simulate(args: argparse.Namespace) -> int:
    problem = simulate_problem(args)
    try:
        options = {} if problem else parse_options(args.option, args.game)
    except ValueError as exc:
        problem = str(exc)
    if not problem:
        problem = check_options(args.game, args.players, options)
    if problem:
        print(f"urbanist simulate: {problem}", file=sys.stderr)
        return 2
    ai = ",".join(k.strip() for k in args.ai.split(","))
    # Progress goes to stderr: a script reading the breakdown on stdout gets it unchanged.
    print(simulate_text(args.game, args.players, args.seed, ai, options, args.locale,
                        progress=sys.stderr), end="")
    return 0
