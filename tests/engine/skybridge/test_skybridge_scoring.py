"""Scoring cases computed by hand (S5, S6), through the public outcome."""

from __future__ import annotations

from skyhelp import GAME, board_of

from engine.core.protocol import Outcome
from engine.skybridge.pieces import COLOURS
from engine.skybridge.scoring import (
    colour_lines,
    colour_points,
    outcome,
    points_by_colour,
    seat_totals,
)


def final(layout: dict[int, str], seats: int = 4) -> Outcome:
    return outcome(board_of(layout), seats)


def lines_of(result: Outcome, seat: int) -> list[tuple[str, int]]:
    return [(ln.key, ln.points) for ln in result.standings[seat].lines]


def test_storeys_count_blocks_whatever_their_colour_and_roofs_count_nothing() -> None:
    # 3 + 2 + 3 + 2 storeys under a yellow roof.
    result = final({5: "R3 Y2 G3 B2 Y^"})
    assert [s.total for s in result.standings] == [0, 10, 0, 0]
    assert lines_of(result, 1) == [("roof", 10)]
    assert result.standings[1].lines[0].detail == {
        "colour": "yellow",
        "foundation": 5,
        "storeys": 10,
    }


def test_own_bridge_adds_the_unroofed_tower_at_its_other_end() -> None:
    # Tower 1: 3 + 1 + 2 = 6, red roof. Tower 2: 3 + 1 + 2 = 6, no roof.
    result = final({1: "Y3 R= G2 R^", 2: "B3 R= Y2"})
    assert lines_of(result, 0) == [("roof", 6), ("bridge", 6)]
    assert result.standings[0].lines[1].detail == {
        "colour": "red",
        "from": 1,
        "to": 2,
        "storeys": 6,
    }


def test_roofing_both_ends_of_your_own_bridge_doubles_both_towers() -> None:
    # Tower 1: 3 + 1 + 2 = 6; tower 2: 3 + 1 + 3 = 7; both red roofs: (6 + 7) x 2 = 26.
    result = final({1: "Y3 R= G2 R^", 2: "B3 R= Y3 R^"})
    assert result.standings[0].total == 26
    assert lines_of(result, 0) == [("roof", 6), ("roof", 7), ("bridge_double", 13)]


def test_a_tower_scored_by_two_players() -> None:
    # Tower 2 (3 + 1 + 3 = 7) has a green roof and red's bridge to red's roofed tower 1.
    result = final({1: "Y3 R= G2 R^", 2: "B3 R= Y3 G^"})
    assert [s.total for s in result.standings] == [6 + 7, 0, 7, 0]
    assert [s.rank for s in result.standings] == [1, 3, 2, 3]


def test_another_colours_bridge_adds_nothing() -> None:
    # Green's bridge joins red's tower 1 to tower 2: red scores tower 1 only, green nothing.
    result = final({1: "Y3 G= B2 R^", 2: "B3 G= Y2"})
    assert [s.total for s in result.standings] == [6, 0, 0, 0]


def test_two_bridges_on_one_tower_each_count_one_storey() -> None:
    # Tower 2: 3 + 1 + 1 = 5 under a yellow roof; yellow has no bridge.
    result = final({1: "Y3 G=", 2: "B3 G= R= Y^", 3: "Y2 B2 R="})
    assert [s.total for s in result.standings] == [0, 5, 0, 0]


def test_bridge_scores_nothing_when_neither_end_is_roofed_by_its_colour() -> None:
    assert colour_lines(board_of({1: "Y3 R=", 2: "G3 R= Y^"}), "red") == []


def test_two_players_score_per_colour_and_add() -> None:
    # Seat 0 plays red and green, seat 1 yellow and blue.
    # Red roofs 1 (3 + 1 + 2 = 6); green's bridge joins 1 and 2 but green roofs neither,
    # so it adds nothing, although red and green belong to the same player.
    # Green roofs 3 (3 + 2 = 5); blue roofs 4 (2 + 2 = 4); yellow roofs 2 (3 + 1 + 3 = 7).
    layout = {
        1: "Y3 G= B2 R^", 2: "B3 G= Y3 Y^", 3: "R3 Y2 G^", 4: "R2 Y2 B^"
    }  # fmt: skip
    result = final(layout, seats=2)
    assert [s.total for s in result.standings] == [6 + 5, 7 + 4]
    keys = [(ln.key, ln.detail["colour"], ln.points) for ln in result.standings[0].lines]
    assert keys == [("roof", "red", 6), ("roof", "green", 5)]


def test_two_players_own_second_colour_bridge_scores_for_that_colour() -> None:
    # Tower 3 (3 + 1 = 4) under a red roof: red scores 4; green's bridge 2-3 adds
    # nothing, since it counts only from a green roof.
    result = final({2: "R2 G=", 3: "Y3 G= R^"}, seats=2)
    assert [s.total for s in result.standings] == [4, 0]
    # Green roofs 3 (3 + 1 + 2 = 6): its bridge adds tower 2 (2 + 1 = 3).
    result = final({2: "R2 G=", 3: "Y3 G= B2 G^"}, seats=2)
    assert [s.total for s in result.standings] == [6 + 3, 0]


def test_outcome_totals_equal_their_lines_and_ties_share_rank() -> None:
    state = GAME.setup(4, {}, 0)
    state.board = board_of({1: "Y3 G3 R^", 2: "B3 G3 Y^", 3: "R2 Y2 G^", 4: "R3 B^"})
    state.turn = None
    result = GAME.outcome(state)
    assert result is not None
    assert [s.total for s in result.standings] == [6, 6, 4, 3]
    assert [s.rank for s in result.standings] == [1, 1, 3, 4]
    for standing in result.standings:
        assert standing.total == sum(ln.points for ln in standing.lines)


HAND_BOARDS = [
    {5: "R3 Y2 G3 B2 Y^"},
    {1: "Y3 R= G2 R^", 2: "B3 R= Y2"},
    {1: "Y3 R= G2 R^", 2: "B3 R= Y3 R^"},  # both ends of red's bridge roofed red
    {1: "Y3 R= G2 R^", 2: "B3 R= Y3 G^"},
    {1: "Y3 G= B2 R^", 2: "B3 G= Y2"},
    {1: "Y3 G=", 2: "B3 G= R= Y^", 3: "Y2 B2 R="},
    {1: "Y3 G= B2 R^", 2: "B3 G= Y3 Y^", 3: "R3 Y2 G^", 4: "R2 Y2 B^"},
]


def test_the_fast_scorers_agree_with_the_lines_on_the_hand_boards() -> None:
    for layout in HAND_BOARDS:
        board = board_of(layout)
        by_colour = points_by_colour(board)
        for colour in COLOURS:
            lines = sum(ln.points for ln in colour_lines(board, colour))
            assert colour_points(board, colour) == lines == by_colour.get(colour, 0), layout
        for seats in (2, 3, 4):
            assert seat_totals(board, seats) == [s.total for s in outcome(board, seats)
                                                 .standings], (layout, seats)
