"""The CPU of Neotopia's views and menus after an action (issue 25), per action.

    python benchmarks/neotopia_views.py [--games 12] [--compare OLD_COMMIT] [--slowest 8]

After each action the service makes a view per seat it notifies and the public view,
and the menu of the seat that decides next (its legal actions, with their text, JSON
and the game's ``action_note`` if it has one): ``bot/service/fill.py``. Here ``--games``
seeded 4-player games are played by random legal moves with the engine alone, and after
every action the CPU (``time.thread_time``) of that work is measured: every seat's view,
the public view, and the menu of each deciding seat. Two ways, each in its own child
process (so that one's caches do not serve the other):

- ``live``: on the state the action left, as played;
- ``json``: on a state read back through ``state_from_json(state_to_json(...))`` (the
  service reads a state back from its snapshot); the read itself is not counted.

The process's first view of a data set builds the copies of every pattern once (some
30 ms, once per process and data set): one untimed view of a new table first.

Printed per way: the count of actions, the median, p90, p99 and max in ms per action,
then the slowest actions with what happened in them (the action, the stage after it,
whether the turn passed, the next seat's hand size, what the time went to, and the
garbage collections that ran in it, whose CPU is counted: they are part of the cost).

With ``--compare``, the engine of ``OLD_COMMIT`` (exported with ``git archive`` into a
temporary folder, as ``benchmarks/equivalence.py`` does) plays the same games in child
processes too, old and new turn about, and both sets of figures are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WAYS = ("live", "json")


def measure(way: str, games: int, first_seed: int, tables: int) -> None:
    """One child: plays the games, ``tables`` at a time turn about (one action each in
    turn, as a service with several tables), and prints one JSON line per action."""
    import gc

    from engine.core import Rng
    from engine.neotopia import GAME

    note = getattr(GAME, "action_note", None)
    GAME.view(GAME.setup(4, {}, first_seed + games), 0)  # the data set's one-time index
    gc.collect()  # and the one collection that walks it all before it is left alone
    clock = time.thread_time
    # The garbage collections that run inside a measure (their CPU is in it): generation
    # and CPU ms, by a callback around each collection.
    runs: list[list[float]] = []
    began = [0.0]

    def collection(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = clock()
        else:
            runs.append([info["generation"], (clock() - began[0]) * 1e3])

    gc.callbacks.append(collection)
    waiting = list(range(first_seed, first_seed + games))
    playing: list[dict[str, Any]] = []
    while waiting or playing:
        while waiting and len(playing) < tables:
            seed = waiting.pop(0)
            playing.append({"seed": seed, "step": 0, "state": GAME.setup(4, {}, seed),
                            "rng": Rng.from_seed(seed * 7919 + 4)})
        for table in list(playing):
            st, rng = table["state"], table["rng"]
            seat = min(GAME.pending(st).waiting)
            legal = GAME.legal_actions(st, seat)
            # Random forward moves (going back only when nothing else is left).
            forward = [a for a in legal if a.text() != "back"] or legal
            action = forward[rng.randbelow(len(forward))]
            before = (st.round, st.current)
            GAME.apply(st, seat, action)
            shown = st if way == "live" else GAME.state_from_json(GAME.state_to_json(st))
            parts: dict[str, float] = {}
            runs.clear()
            start = clock()
            t = start
            GAME.view(shown, None)
            parts["public"] = clock() - t
            for s in range(st.seats):
                t = clock()
                GAME.view(shown, s)
                parts[f"view{s}"] = clock() - t
            for s in sorted(GAME.pending(shown).waiting):
                t = clock()
                [(a.text(), a.to_json(), None if note is None else note(shown, s, a))
                 for a in GAME.legal_actions(shown, s)]
                parts[f"menu{s}"] = clock() - t
            total = clock() - start
            gcs = list(runs)
            print(json.dumps({
                "game": table["seed"], "step": table["step"], "seat": seat,
                "action": action.text(), "stage": st.stage,
                "turn_passed": (st.round, st.current) != before, "next": st.current,
                "hand": len(st.hands[st.current]), "ms": total * 1e3, "gc": gcs,
                "parts": {k: v * 1e3 for k, v in parts.items()}}))
            table["step"] += 1
            if GAME.outcome(st) is not None:
                playing.remove(table)


def child(root: Path, way: str, games: int, seed: int, tables: int) -> list[dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", way, "--games",
         str(games), "--seed", str(seed), "--tables", str(tables)],
        cwd=root, env=env, check=True, capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def quantile(sorted_ms: list[float], q: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, int(q * len(sorted_ms)))]


def report(label: str, rows: list[dict[str, Any]], slowest: int) -> None:
    ms = sorted(r["ms"] for r in rows)
    print(f"{label}.actions {len(ms)}")
    print(f"{label}.median_ms {statistics.median(ms):.3f}")
    for name, q in (("p90", 0.90), ("p99", 0.99)):
        print(f"{label}.{name}_ms {quantile(ms, q):.3f}")
    print(f"{label}.max_ms {ms[-1]:.3f}")
    print(f"{label}.mean_ms {statistics.fmean(ms):.3f}")
    # Each part's mean over the actions (a seat's view and menu counted where made).
    kinds: dict[str, list[float]] = {}
    for r in rows:
        for part, t in r["parts"].items():
            kinds.setdefault(part.rstrip("0123456789"), []).append(t)
    print(f"{label}.part_means_ms " + " ".join(
        f"{k}={statistics.fmean(v):.3f}" for k, v in kinds.items()))
    for gen in range(3):
        gcs = [t for r in rows for g, t in r["gc"] if g == gen]
        print(f"{label}.gc_gen{gen} {len(gcs)} runs {sum(gcs):.1f} ms "
              f"max {max(gcs, default=0):.2f} ms")
    for r in sorted(rows, key=lambda r: -r["ms"])[:slowest]:
        parts = " ".join(f"{k}={v:.2f}" for k, v in
                         sorted(r["parts"].items(), key=lambda kv: -kv[1])[:4])
        passed = f" (turn passed to seat {r['next']})" if r["turn_passed"] else ""
        collections = "".join(f"; gc gen{g:.0f} {t:.2f} ms" for g, t in r["gc"])
        print(f"  {r['ms']:7.3f} ms  game {r['game']} step {r['step']}: seat {r['seat']} "
              f"{r['action']!r} -> stage {r['stage']}{passed}, hand {r['hand']}; "
              f"{parts}{collections}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=12, help="seeded 4-player games")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--tables", type=int, default=1,
                        help="games played side by side, one action each in turn")
    parser.add_argument("--compare", metavar="OLD_COMMIT", help="an older engine to run too")
    parser.add_argument("--slowest", type=int, default=8, help="slowest actions listed")
    parser.add_argument("--way", choices=WAYS, action="append",
                        help="only this way (repeatable; default both)")
    parser.add_argument("--child", choices=WAYS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        # This folder holds a benchmarks/engine.py: the engine comes from PYTHONPATH.
        sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
        measure(args.child, args.games, args.seed, args.tables)
        return
    ways = args.way or list(WAYS)
    with tempfile.TemporaryDirectory() as tmp:
        roots = [("new", ROOT)]
        if args.compare:
            archive = subprocess.run(["git", "archive", args.compare, "engine"], cwd=ROOT,
                                     check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            roots.insert(0, (f"old_{args.compare}", Path(tmp)))
        for way in ways:
            # Old and new turn about, so that a busy machine weighs on both alike.
            for label, root in roots:
                report(f"neotopia_views.{way}.{label}", child(root, way, args.games, args.seed,
                                                         args.tables),
                       args.slowest)


if __name__ == "__main__":
    main()
