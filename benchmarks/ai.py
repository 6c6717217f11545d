"""Strength and speed of the search AI, one line per game and table size.

Run: ``python benchmarks/ai.py`` (200 seeded games per line: hours on one core), or
``python benchmarks/ai.py --games 20`` for a quick look; ``--game NAME`` and ``--seats N``
pick lines. Each line: one ``search`` seat (seat ``seed % seats``) against ``greedy``
seats, the search seat's win share (a win shared by k counts 1/k) with its 95% Wilson
interval, and the time the search took per move (p50, p99), in CPU seconds of this
one-threaded process (what it costs on one core, whatever else the machine runs) and
in wall seconds, at the default budget (iterations only, no time cap, so every figure
replays for its seed).
Goals (issue 12): share >= 50% at 4 players, >= 70% at 2, p99 <= 1 s. The figures of
record are in benchmarks/README.md, section "Search AI strength".

A long line can be split and run in parts: ``--record FILE`` appends one JSON line per
finished game (seed, share, the search seat's lead over the best other seat, the CPU and
wall seconds of each search move), so a run cut short still counts the games it
finished; ``--summary FILE...`` prints the lines of the games recorded in the files
(each seed counted once).

To measure a change to a search, record the same seeds before and after it and run
``--compare BEFORE.jsonl AFTER.jsonl``: on the seeds both played, the wins and the mean
lead of each, and the paired difference of the lead with its standard error. At a
hundred games a win share moves by its noise; the paired lead is what shows a change
of a few points a game (benchmarks/README.md, Neotopia).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Rng, game_names, get_game

TWO_PLAYER = ("ginkgopolis", "skybridge")


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (``successes`` may be fractional)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_line(name: str, seats: int, games: int, start: int,
              record: Path | None = None) -> dict[str, float]:
    game = get_game(name)
    share = 0.0
    times: list[float] = []
    cpu: list[float] = []
    for seed in range(start, start + games):
        wall_at, cpu_at = len(times), len(cpu)
        me = seed % seats
        players = [game.ai("greedy") for _ in range(seats)]
        players[me] = game.ai("search")
        rng = Rng.from_seed(seed)
        state = game.setup(seats, {}, seed)
        while (outcome := game.outcome(state)) is None:
            seat = min(game.pending(state).waiting)
            t0, c0 = time.perf_counter(), time.process_time()
            action = players[seat].choose(state, seat, rng)
            if seat == me:
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
            game.apply(state, seat, action)
        winners = [s.seat for s in outcome.winners]
        won = 1 / len(winners) if me in winners else 0.0
        share += won
        totals = {s.seat: s.total for s in outcome.standings}
        lead = totals[me] - max(t for s, t in totals.items() if s != me)
        if record is not None:
            with record.open("a") as out:
                out.write(json.dumps({"game": name, "seats": seats, "seed": seed, "share": won,
                                      "lead": lead, "cpu": cpu[cpu_at:],
                                      "wall": times[wall_at:]}) + "\n")
    return summarize(share, games, times, cpu)


def summarize(share: float, games: int, times: list[float], cpu: list[float]
              ) -> dict[str, float]:
    times = sorted(times)
    cpu = sorted(cpu)
    low, high = wilson(share, games)
    p99 = min(len(times) - 1, int(len(times) * 0.99))
    return {
        "share": share / games, "low": low, "high": high,
        "p50": times[len(times) // 2], "p99": times[p99], "max": times[-1],
        "cpu50": cpu[len(cpu) // 2], "cpu99": cpu[p99], "moves": len(times),
    }


def print_line(name: str, seats: int, games: int, r: dict[str, float],
               seconds: float | None) -> None:
    took = "" if seconds is None else f", {seconds:.0f}s"
    print(
        f"{name}.search_vs_greedy_{seats}p share {100 * r['share']:.1f}% "
        f"[95% {100 * r['low']:.1f}-{100 * r['high']:.1f}] over {games} games; "
        f"move CPU p50 {r['cpu50']:.3f}s p99 {r['cpu99']:.3f}s, "
        f"wall p50 {r['p50']:.3f}s p99 {r['p99']:.3f}s max {r['max']:.3f}s "
        f"({r['moves']:.0f} moves{took})",
        flush=True,
    )


def summary(paths: list[Path]) -> None:
    """The lines of the games recorded by ``--record`` runs, each seed once."""
    games: dict[tuple[str, int], dict[int, tuple[float, list[float], list[float]]]] = {}
    for path in paths:
        for text in path.read_text().splitlines():
            row = json.loads(text)
            games.setdefault((str(row["game"]), int(row["seats"])), {})[int(row["seed"])] = (
                float(row["share"]), [float(t) for t in row["wall"]],
                [float(t) for t in row["cpu"]])
    for (name, seats), rows in sorted(games.items()):
        seeds = sorted(rows)
        share = sum(rows[s][0] for s in seeds)
        wall = [t for s in seeds for t in rows[s][1]]
        cpu = [t for s in seeds for t in rows[s][2]]
        r = summarize(share, len(seeds), wall, cpu)
        print(f"seeds {seeds[0]}-{seeds[-1]} ({len(seeds)})", end=": ")
        print_line(name, seats, len(seeds), r, None)


def compare(before: Path, after: Path) -> None:
    """Two records of the same line on the same seeds, paired seed by seed."""
    runs = []
    for path in (before, after):
        runs.append({int(row["seed"]): row for row in map(json.loads,
                                                           path.read_text().splitlines())})
    seeds = sorted(set(runs[0]) & set(runs[1]))
    if not seeds:
        raise SystemExit("no seed is in both records")
    for label, run in zip(("before", "after"), runs, strict=True):
        leads = [float(run[s]["lead"]) for s in seeds if "lead" in run[s]]
        mean = f", mean lead {sum(leads) / len(leads):+.2f}" if leads else ""
        print(f"{label}: {sum(float(run[s]['share']) for s in seeds):g} wins of {len(seeds)}"
              f"{mean}")
    paired = [float(runs[1][s]["lead"]) - float(runs[0][s]["lead"])
              for s in seeds if "lead" in runs[0][s] and "lead" in runs[1][s]]
    if len(paired) > 1:
        mean = sum(paired) / len(paired)
        sd = math.sqrt(sum((d - mean) ** 2 for d in paired) / (len(paired) - 1))
        print(f"lead, after - before: {mean:+.2f} +- {sd / math.sqrt(len(paired)):.2f} "
              f"points a game (standard error, {len(paired)} seeds)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="seeded games per line")
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--seats", type=int, action="append", help="only these table sizes")
    parser.add_argument("--record", type=Path, help="append one JSON line per game here")
    parser.add_argument("--summary", type=Path, nargs="+", help="summarize recorded games")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"),
                        help="pair two records of the same seeds")
    args = parser.parse_args()
    if args.summary:
        summary(args.summary)
        return
    if args.compare:
        compare(*args.compare)
        return
    lines = [(name, 4) for name in game_names()]
    lines += [(name, 2) for name in TWO_PLAYER if name in game_names()]
    for name, seats in lines:
        if (args.game and name not in args.game) or (args.seats and seats not in args.seats):
            continue
        start = time.perf_counter()
        r = play_line(name, seats, args.games, args.start, args.record)
        print_line(name, seats, args.games, r, time.perf_counter() - start)


if __name__ == "__main__":
    main()
