"""The generic protocol checks, for every seat count and every option."""

from __future__ import annotations

import pytest
from skyhelp import GAME

from engine.core.conformance import run_conformance
from engine.core.registry import get_game

CASES = [
    (2, {}),
    (2, {"choose_colour": True}),
    (2, {"elimination": True}),
    (2, {"choose_colour": True, "elimination": True}),
    (3, {}),
    (3, {"elimination": True}),
    (4, {}),
    (4, {"elimination": True}),
]


def test_registered_under_its_name() -> None:
    assert get_game("skybridge").name == "skybridge"
    assert GAME.min_seats == 2 and GAME.max_seats == 4


@pytest.mark.parametrize(("seats", "options"), CASES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_conformance(seats: int, options: dict[str, bool], seed: int) -> None:
    summary = run_conformance(GAME, seats, options, seed)
    # A game places at least every block of the players' colours that fits.
    assert summary["steps"] >= 20
    assert len(summary["outcome"].standings) == seats
