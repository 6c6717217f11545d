"""Draw the README's Ginkgopolis images from a seeded game of greedy AIs:
``python docs/ginkgopolis_images.py`` writes ``docs/ginkgopolis-early.png`` (round 3),
``-late.png`` (the round before the last), ``-final.png`` (the final scores) and
``-private.png`` (seat 0's DM image at round 3), always the same bytes for the same
code. Discord shows them 550 px wide: every word and number, on the city too, stays
11 px tall there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.core import get_game
from engine.core.rng import Rng

HERE = Path(__file__).resolve().parent
SEATS = 4
SEED = 5


def views_by_round(seats: int, seed: int) -> tuple[Any, Any, list[dict[str, Any]], Any]:
    """The game, its final state, the public view at the start of every round, and
    seat 0's private view at the start of round 3."""
    game = get_game("ginkgopolis")
    state = game.setup(seats, {}, seed)
    rng = Rng.from_seed(seed)
    ai = game.ai("greedy")
    views = [game.view(state, None)]
    private = None
    while game.outcome(state) is None:
        seat = min(game.pending(state).waiting)
        events = game.apply(state, seat, ai.choose(state, seat, rng))
        if any(e.kind == "round" for e in events):
            views.append(game.view(state, None))
            if views[-1].get("round") == 3 and views[-1].get("phase") != "draft":
                private = game.view(state, 0)
    views.append(game.view(state, None))
    return game, state, views, private


def main() -> None:
    from engine.ginkgopolis.render import render_board, render_final, render_private

    game, state, views, private = views_by_round(SEATS, SEED)
    early = next(v for v in views if v.get("round") == 3 and v.get("phase") != "draft")
    late = views[-3]  # two rounds before the final view: the city nearly complete
    (HERE / "ginkgopolis-early.png").write_bytes(render_board(early))
    (HERE / "ginkgopolis-late.png").write_bytes(render_board(late))
    (HERE / "ginkgopolis-final.png").write_bytes(
        render_final(views[-1], game.outcome(state).to_json()))
    (HERE / "ginkgopolis-private.png").write_bytes(render_private(private))
    for name in ("early", "late", "final", "private"):
        path = HERE / f"ginkgopolis-{name}.png"
        print(f"wrote {path.relative_to(HERE.parent)} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
