"""Draw the docs images with players' names in several scripts, from seeded AI games:
``python docs/names_images.py`` writes ``docs/names-*.png`` (1100 and 560 px wide; Discord
shows them at 550)."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path
from typing import Any

from engine.core import get_game
from engine.core.play import playout
from engine.core.rng import Rng

HERE = Path(__file__).resolve().parent
NAMES = ["Zoé", "李小龙", "Jürgen", "王", "Ann 🦄"]  # the emoji has no glyph: a box


def played(game_name: str, seats: int, seed: int, stop: int | None) -> Any:
    """The state after ``stop`` actions of greedy AIs (None: to the end)."""
    game = get_game(game_name)
    state = game.setup(seats, {}, seed)
    rng = Rng.from_seed(seed)
    ais = [game.ai("greedy") for _ in range(seats)]
    done = 0

    def choose(st: Any, seat: int) -> Any:
        nonlocal done
        done += 1
        if stop is not None and done > stop:
            raise StopIteration
        return ais[seat].choose(st, seat, rng)

    with suppress(StopIteration):  # the wanted moment is reached
        playout(game, state, choose)
    return game, state


def main() -> None:
    from engine.ginkgopolis.render import render_board as g_board
    from engine.ginkgopolis.render import render_final as g_final
    from engine.skybridge.render import render_board as s_board
    from engine.skybridge.render import render_final as s_final

    game, state = played("ginkgopolis", 4, 7, 60)
    (HERE / "names-ginkgopolis-board.png").write_bytes(
        g_board(game.view(state, None), names=NAMES[:4]))
    game, state = played("ginkgopolis", 4, 7, None)
    (HERE / "names-ginkgopolis-final.png").write_bytes(
        g_final(game.view(state, None), game.outcome(state).to_json(), names=NAMES[:4]))
    game, state = played("skybridge", 3, 7, 14)
    (HERE / "names-skybridge-board.png").write_bytes(
        s_board(game.view(state, None), names=[NAMES[0], NAMES[1], NAMES[4]]))
    game, state = played("skybridge", 3, 7, None)
    (HERE / "names-skybridge-final.png").write_bytes(
        s_final(game.view(state, None), game.outcome(state), names=[NAMES[0], NAMES[1],
                                                                    NAMES[4]]))
    for path in sorted(HERE.glob("names-*.png")):
        print(f"wrote {path.relative_to(HERE.parent)} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
