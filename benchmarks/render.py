"""Ginkgopolis image figures, one per line: ``name value unit``.

Run: ``python benchmarks/render.py`` (from the repository root, in the project's venv).

The main figure is the ratio of the time to render the public board of a late-game
5-player city (drawing and PNG encoding) to the time to PNG-encode an image of the
same size and content, measured in the same run (goal: at most 2).
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from engine.core import Rng, get_game
from engine.ginkgopolis.render import (
    render_board,
    render_final,
    render_private,
    render_timelapse,
)
from engine.ginkgopolis.render.caches import clear_caches
from engine.ginkgopolis.render.canvas import encode_png

RUNS = 30


def median_seconds(fn: Callable[[], object], runs: int = RUNS) -> float:
    fn()  # warm caches (fonts, tile faces) as a long-running bot would have them
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


def late_game(seats: int, seed: int) -> tuple[Any, list[dict[str, Any]]]:
    """A greedy game to its end, with the public view of each round."""
    game = get_game("ginkgopolis")
    st = game.setup(seats, {}, seed)
    rng = Rng.from_seed(seed)
    ai = game.ai("greedy")
    views = [game.view(st, None)]
    while game.outcome(st) is None:
        seat = min(game.pending(st).waiting)
        events = game.apply(st, seat, ai.choose(st, seat, rng))
        if any(e.kind == "round" for e in events):
            views.append(game.view(st, None))
    views.append(game.view(st, None))
    return st, views


def main() -> None:
    game = get_game("ginkgopolis")
    st, views = late_game(5, 7)
    view = views[-1]
    board = render_board(view)
    image = Image.open(io.BytesIO(board)).convert("RGB")
    render_s = median_seconds(lambda: render_board(view))
    encode_s = median_seconds(lambda: encode_png(image))
    print(f"ginkgopolis.render_board_5p_late {render_s * 1e3:.1f} ms")
    print(f"ginkgopolis.png_encode_same_size {encode_s * 1e3:.1f} ms")
    print(f"ginkgopolis.render_to_encode_ratio {render_s / encode_s:.2f} x")
    # The worst case: every cache empty, as in the first render after a restart.
    cold_s = median_seconds(cold(lambda: render_board(view)), runs=10)
    print(f"ginkgopolis.render_board_5p_late_cold {cold_s * 1e3:.1f} ms")
    print(f"ginkgopolis.render_to_encode_ratio_cold {cold_s / encode_s:.2f} x")
    print(f"ginkgopolis.board_image_size {image.width}x{image.height} px")
    print(f"ginkgopolis.board_png_bytes {len(board)} bytes")

    seat_view = game.view(st, 0)
    private_s = median_seconds(lambda: render_private(seat_view))
    print(f"ginkgopolis.render_private {private_s * 1e3:.1f} ms")
    print(f"ginkgopolis.private_png_bytes {len(render_private(seat_view))} bytes")
    outcome = game.outcome(st).to_json()
    final = render_final(view, outcome)
    final_s = median_seconds(lambda: render_final(view, outcome))
    print(f"ginkgopolis.render_final {final_s * 1e3:.1f} ms")
    print(f"ginkgopolis.final_png_bytes {len(final)} bytes")
    gif = render_timelapse(views)
    gif_s = median_seconds(lambda: render_timelapse(views), runs=5)
    print(f"ginkgopolis.render_timelapse_{len(views)}_frames {gif_s * 1e3:.0f} ms")
    print(f"ginkgopolis.timelapse_gif_bytes {len(gif)} bytes")


if __name__ == "__main__":
    main()
