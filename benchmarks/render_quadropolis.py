"""Quadropolis image figures, one per line: ``name value unit``; and the docs' examples.

Run: ``python benchmarks/render_quadropolis.py`` (from the repository root, in the
project's venv) for the figures; add ``--docs`` to also write ``docs/quadropolis-board.png``
and ``docs/quadropolis-final.png`` from the same seeded games (greedy AI, 4 players,
seed 7: the board of ``urbanist simulate quadropolis --players 4 --seed 7 --option
mode=expert`` at round 3 turn 2, the final of the same command without the option).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core import Rng, get_game  # noqa: E402
from engine.quadropolis.render import (  # noqa: E402
    render_board,
    render_final,
    render_private,
    render_timelapse,
)
from engine.quadropolis.render.caches import clear_caches  # noqa: E402

RUNS = 20
NAMES = ["Éloïse", "Βασίλης", "Дмитрий", "Zoë"]


def median_seconds(fn: Callable[[], object], runs: int = RUNS) -> float:
    fn()  # warm caches (fonts, tile faces) as a long-running bot would have them
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def game(seats: int, seed: int, *, stop_round: int | None = None,
         **options: Any) -> tuple[Any, list[dict[str, Any]]]:
    """A greedy game to its end (or to the start of ``stop_round``), with the public view
    at the start of each round and at the end."""
    g = get_game("quadropolis")
    st = g.setup(seats, options, seed)
    rng = Rng.from_seed(seed)
    ai = g.ai("greedy")
    views = [g.view(st, None)]
    while g.outcome(st) is None:
        seat = min(g.pending(st).waiting)
        g.apply(st, seat, ai.choose(st, seat, rng))
        view = g.view(st, None)
        if stop_round is not None and view["round"] == stop_round and view["turn"] == 2:
            return st, [*views, view]
        if view["round"] != views[-1]["round"]:
            views.append(view)
    views.append(g.view(st, None))
    return st, views


def figures(mode: str, docs: bool) -> None:
    """Print one mode's figures; with ``docs``, write that mode's example image."""
    g = get_game("quadropolis")
    st, views = game(4, 7, mode=mode)
    mid_st, mid = game(4, 7, stop_round=3, mode=mode)
    board = mid[-1]
    seat_view = g.view(mid_st, board["to_play"])
    outcome = g.outcome(st)
    assert outcome is not None
    out = outcome.to_json()
    final = views[-1]
    jobs: dict[str, tuple[Callable[[], bytes], int]] = {
        "render_board": (partial(render_board, board, names=NAMES), RUNS),
        "render_private": (partial(render_private, seat_view, names=NAMES), RUNS),
        "render_final": (partial(render_final, final, out, names=NAMES), RUNS),
        "render_timelapse": (partial(render_timelapse, views), 5),
    }
    for name, (fn, runs) in jobs.items():
        data = fn()
        ms = median_seconds(fn, runs) * 1e3
        print(f"quadropolis.{mode}.{name} {ms:.1f} ms")
        print(f"quadropolis.{mode}.{name}_bytes {len(data)} bytes")

    def cold() -> bytes:
        clear_caches()
        return render_board(board, names=NAMES)

    print(f"quadropolis.{mode}.render_board_cold {median_seconds(cold, 5) * 1e3:.1f} ms")
    print(f"quadropolis.{mode}.timelapse_frames {len(views)} frames")
    if docs and mode == "expert":
        (ROOT / "docs" / "quadropolis-board.png").write_bytes(render_board(board, names=NAMES))
    if docs and mode == "classic":
        (ROOT / "docs" / "quadropolis-final.png").write_bytes(
            render_final(final, out, names=NAMES))


def main(docs: bool) -> None:
    for mode in ("classic", "expert"):
        figures(mode, docs)


if __name__ == "__main__":
    main("--docs" in sys.argv[1:])
