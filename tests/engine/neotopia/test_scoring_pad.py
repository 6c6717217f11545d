"""The score pad's region lines: before the end no group has been scored, so a region's
points are all track points; at the end, track and group points add up to its total."""

from __future__ import annotations

from engine.core.rng import Rng
from engine.neotopia import GAME
from engine.neotopia.scoring import pad


def test_region_lines_split_track_and_group_points() -> None:
    state = GAME.setup(3, {}, 11)
    rng = Rng.from_seed(11)
    players = [GAME.ai("greedy") for _ in range(3)]
    steps = 0
    while GAME.outcome(state) is None:
        if steps % 7 == 0:
            for seat in range(3):
                for line in pad(state, seat)["regions"].values():
                    assert line["group"] == 0 and line["track"] == line["total"]
        seat = min(GAME.pending(state).waiting)
        GAME.apply(state, seat, players[seat].choose(state, seat, rng))
        steps += 1
    assert state.group_points is not None
    for seat in range(3):
        for region, line in pad(state, seat)["regions"].items():
            assert line["group"] == state.group_points[seat].get(region, 0)
            assert line["track"] + line["group"] == line["total"]
