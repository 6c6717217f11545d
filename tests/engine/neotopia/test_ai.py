"""The automated seats: legal choices, and greedy clearly stronger than random."""

from __future__ import annotations

from engine.core.play import head_to_head
from engine.core.rng import Rng
from engine.neotopia import GAME
from engine.neotopia.ai import formula
from tests.engine.neotopia.helpers import act, position


def test_greedy_beats_random_most_of_the_time() -> None:
    # The issue asks for at least 60% over 200 games; the benchmark measures those 200,
    # this test keeps 40 of them so that a regression shows in CI.
    won, share = head_to_head(GAME, 4, 40)
    assert share >= 0.6, (won, share)


def test_greedy_builds_the_project_it_completes() -> None:
    st = position(4, active=0, board={"A00": "B", "A01": "R", "A02": "G", "A03": "G",
                                       "A04": "P", "A06": "P", "A10": "G"},
                  manufactures={"DA": ["G", "R"], "AF": ["B", "P"], "FD": ["R"]},
                  hands={0: ["C06"]})
    ai = GAME.ai("greedy")
    rng = Rng.from_seed(1)
    assert ai.choose(st, 0, rng).text() == "DA:G"
    act(st, 0, "DA:G")
    cell = ai.choose(st, 0, rng).text()
    assert cell == "A11"  # completes C06 like A09, and covers a bonus cell
    act(st, 0, cell)
    assert ai.choose(st, 0, rng).text() == "build C06"


def test_the_final_formula_weighs_the_weakest_region_three_times() -> None:
    assert formula({"desert": 18, "aquatic": 6, "forest": 15}) == 18 + 15 + 18
    assert formula({"desert": 4, "aquatic": 4, "forest": 4}) == 20


def test_random_never_goes_back() -> None:
    st = position(4, active=0, board={"D00": "R"})
    act(st, 0, "FD:P")
    ai = GAME.ai("random")
    rng = Rng.from_seed(3)
    assert all(ai.choose(st, 0, rng).text() != "back" for _ in range(50))
