"""The CPU of making Quadropolis's views after an action (issue 25).

Run: ``python benchmarks/quadropolis_views.py [--games 40] [--players random|greedy]
[--compare OLD_COMMIT]`` (from the repository root, in the project's venv). Prints
``name value unit`` lines.

After each action the service makes a view for every notified seat and the public view
(``GAME.view``), and the menu of the seat that decides next (its legal actions, their
text, JSON and note). This plays seeded 4-player games, half classic and half expert,
every seat choosing at random (or as the greedy AI, ``--players greedy``: fuller cities,
closer to what people build), and after every action times that work
(``time.thread_time``: this thread's CPU, honest on a shared machine) on a fresh state
object, made outside the timing:

- ``copy``: ``state.copy()``, as a table kept in memory hands out;
- ``json``: ``state_from_json`` of the state's JSON text, as a table read back from its
  snapshot.

Each kind runs in a child process of its own, so that neither warms the other's caches
(a view looks up each city's best allocation in a cache keyed by the city's content: the
city that just changed misses, the others hit). Within a child the caches live on from
action to action and game to game, as in the service. It prints count, median, p90,
p99 and max in ms per action; the same without the garbage collector's passes that fell
inside the timing (``without_gc``: a full pass costs several ms and lands on any
action), and how many full passes did; and the slowest actions (game, mode, step, the
action before it, the buildings of the largest city).

``--compare OLD`` runs the same games on the engine of commit OLD too (its ``engine/``
exported with ``git archive`` into a temporary folder, as ``benchmarks/equivalence.py``
does), turn about with the work tree's, and prints both.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KINDS = ("copy", "json")


def measure(games: int, kind: str, start: int, players: str) -> dict[str, Any]:
    """Plays the games with whichever ``engine`` is importable; one entry per action."""
    import gc
    import time

    from engine.core.rng import Rng
    from engine.quadropolis import GAME

    # The collector's passes inside the timed work, told apart: they are not the views'
    # own cost, and a full pass over the heap is the longest of them.
    # [start of the pass under way, CPU of the passes so far, full passes so far]
    collecting = [0.0, 0.0, 0]

    def collector(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            collecting[0] = time.thread_time()
        else:
            collecting[1] += time.thread_time() - collecting[0]
            collecting[2] += info["generation"] == 2

    gc.callbacks.append(collector)
    steps: list[dict[str, Any]] = []
    for n in range(start, start + games):
        mode = "classic" if n % 2 == 0 else "expert"
        seats = 4
        st = GAME.setup(seats, {"mode": mode}, n)
        rng = Rng.from_seed(n * 7919 + 1)
        ai = GAME.ai(players) if players != "random" else None
        step = 0
        while GAME.outcome(st) is None:
            seat = min(GAME.pending(st).waiting)
            if ai is None:
                legal = GAME.legal_actions(st, seat)
                action = legal[rng.randbelow(len(legal))]
            else:
                action = ai.choose(st, seat, rng)
            GAME.apply(st, seat, action)
            step += 1
            if kind == "copy":
                fresh = st.copy()
            else:
                fresh = GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(st))))
            collecting[1:] = [0.0, 0]
            begin = time.thread_time()
            for viewer in [*range(seats), None]:
                GAME.view(fresh, viewer)
            for decider in GAME.pending(fresh).waiting:
                [(a.text(), a.to_json(), GAME.action_note(fresh, decider, a))
                 for a in GAME.legal_actions(fresh, decider)]
            spent = time.thread_time() - begin
            steps.append({
                "ms": spent * 1e3, "gc_ms": collecting[1] * 1e3, "full": collecting[2],
                "game": n, "mode": mode, "step": step,
                "action": action.text(),
                "buildings": max(sum(1 for row in p.city for s in row if s)
                                 for p in st.players),
            })
    return {"kind": kind, "players": players, "steps": steps}


def child(root: Path, games: int, kind: str, start: int, players: str) -> dict[str, Any]:
    """``measure`` in a process of its own, with ``root``'s ``engine`` importable."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", kind,
         "--games", str(games), "--start", str(start), "--players", players],
        cwd=root, env=env, check=True, stdout=subprocess.PIPE, text=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def report(label: str, result: dict[str, Any], top: int) -> None:
    steps = result["steps"]
    ms = sorted(s["ms"] for s in steps)
    name = f"quadropolis.views_{result['players']}_{label}_{result['kind']}"
    print(f"{name}_count {len(ms)} actions")
    print(f"{name}_median {percentile(ms, 0.5):.3f} ms")
    print(f"{name}_p90 {percentile(ms, 0.9):.3f} ms")
    print(f"{name}_p99 {percentile(ms, 0.99):.3f} ms")
    print(f"{name}_max {ms[-1]:.3f} ms")
    own = sorted(s["ms"] - s["gc_ms"] for s in steps)
    print(f"{name}_without_gc_median {percentile(own, 0.5):.3f} ms")
    print(f"{name}_without_gc_p99 {percentile(own, 0.99):.3f} ms")
    print(f"{name}_without_gc_max {own[-1]:.3f} ms")
    print(f"{name}_full_collections_inside {sum(s['full'] for s in steps)} passes")
    for s in sorted(steps, key=lambda s: -s["ms"])[:top]:
        print(f"{name}_slow {s['ms']:.3f} ms (collector {s['gc_ms']:.3f} ms; game {s['game']}"
              f" {s['mode']} step {s['step']} after {s['action']}, largest city"
              f" {s['buildings']} buildings)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="seeded games (half expert)")
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--players", choices=("random", "greedy"), default="random",
                        help="how every seat chooses (greedy builds fuller cities)")
    parser.add_argument("--top", type=int, default=5, help="slowest actions listed")
    parser.add_argument("--compare", metavar="OLD", help="commit whose engine is timed too")
    parser.add_argument("--child", choices=KINDS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        # The script's folder holds a module named ``engine`` (benchmarks/engine.py): the
        # package must come from PYTHONPATH instead.
        sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
        print(json.dumps(measure(args.games, args.child, args.start, args.players)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        engines = [("now", ROOT)]
        if args.compare:
            archive = subprocess.run(["git", "archive", args.compare, "engine"], cwd=ROOT,
                                     check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            engines.insert(0, (f"old_{args.compare}", Path(tmp)))
        # Turn about, kind by kind, so that a busier moment of a shared machine weighs
        # on both engines alike.
        for kind in KINDS:
            for label, root in engines:
                report(label, child(root, args.games, kind, args.start, args.players),
                       args.top)

if __name__ == "__main__":
    main()
