"""Neotopia images: draws ``docs/neotopia-board.png`` from a seeded game and prints the
render figures, one per line: ``name value unit``.

Run: ``python benchmarks/render_neotopia.py`` (from the repository root, in the project's
venv); ``--no-docs`` only measures. The docs image is the public board of the game of
``urbanist simulate neotopia --players 4 --seed 7`` at the start of its last round,
with example names.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Rng, get_game
from engine.core.play import playout
from engine.neotopia.render import (
    render_board,
    render_final,
    render_private,
    render_timelapse,
)
from engine.neotopia.render.caches import clear_caches

RUNS = 20
SEATS, SEED = 4, 7
NAMES = ["Alice", "Bob", "Chloé", "Dmitri"]
DOCS = Path(__file__).resolve().parent.parent / "docs"


def median_seconds(fn: Callable[[], object], runs: int = RUNS) -> float:
    fn()  # warm caches (fonts, text masks) as a long-running bot would have them
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def cold(fn: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        clear_caches()
        return fn()

    return run


def game(seats: int, seed: int) -> tuple[Any, list[dict[str, Any]]]:
    """The game of ``urbanist simulate neotopia --players SEATS --seed SEED`` (greedy
    seats, played as ``ai_playout`` does), with the public view at the start of each
    round and at the end."""
    g = get_game("neotopia")
    st = g.setup(seats, {}, seed)
    rng = Rng.from_seed(seed)
    players = [g.ai("greedy") for _ in range(seats)]
    views = [g.view(st, None)]

    def collect(_seat: int, _action: object, _events: object) -> None:
        view = g.view(st, None)
        if (view["turn"] or {}).get("round") != (views[-1]["turn"] or {}).get("round"):
            views.append(view)

    playout(g, st, lambda state, seat: players[seat].choose(state, seat, rng), on_apply=collect)
    return st, views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/ images")
    args = parser.parse_args()
    g = get_game("neotopia")
    st, views = game(SEATS, SEED)
    # The start of the last round: the fullest board still in play.
    doc_view = [v for v in views if v["turn"] is not None][-1]
    final_view = g.view(st, None)
    outcome = g.outcome(st)
    assert outcome is not None
    out = outcome.to_json()
    private = g.view(st, 1)
    board = render_board(doc_view, names=NAMES)
    if not args.no_docs:
        (DOCS / "neotopia-board.png").write_bytes(board)
        print(f"wrote docs/neotopia-board.png {len(board)} bytes")
    jobs: list[tuple[str, Callable[[], bytes]]] = [
        ("board", lambda: render_board(doc_view, names=NAMES)),
        ("board_final", lambda: render_board(final_view, names=NAMES)),
        ("private", lambda: render_private(private, names=NAMES)),
        ("final", lambda: render_final(final_view, out, names=NAMES)),
        ("timelapse", lambda: render_timelapse(views)),
    ]
    for name, fn in jobs:
        size = len(fn())
        warm = median_seconds(fn)
        first = median_seconds(cold(fn), runs=5)
        print(f"{name}_ms {warm * 1000:.1f} ms")
        print(f"{name}_cold_ms {first * 1000:.1f} ms")
        print(f"{name}_bytes {size} B")
    print(f"timelapse_frames {len(views)} frames")


if __name__ == "__main__":
    main()
