"""Rulings on scoring: cards 10-13 (G5) and 16-19 (G4), districts and ties (G12), the
final score's lines."""

from __future__ import annotations

from engine.core.protocol import rank_totals
from engine.ginkgopolis.scoring import district_points, endgame_card_points, score
from engine.ginkgopolis.state import Building
from tests.engine.ginkgopolis.helpers import fresh


def test_g5_cards_10_to_13_count_resources_on_buildings_of_that_colour() -> None:
    st = fresh(2, seed=27)
    st.board = {}
    st.board[(0, 0)] = Building(["R4", "B6", "B7"], owner=0, resources=3)
    st.board[(1, 0)] = Building(["B8"], owner=0, resources=1)
    st.board[(2, 0)] = Building(["R5"], owner=0, resources=1)
    st.board[(3, 0)] = Building(["B9", "B10"], owner=1, resources=2)
    assert endgame_card_points(st, 0, "R12") == 4  # R12: resources on blue buildings
    assert endgame_card_points(st, 0, "R10") == 1  # R10: on red buildings


def test_g4_cards_16_to_19_count_character_cards_too() -> None:
    st = fresh(2, seed=28)
    st.players[0].characters = [1, 4, 7]  # red characters: urbanize, construct, exploit
    st.players[0].kept = ["R4", "B1", "R19"]
    assert endgame_card_points(st, 0, "R16") == 2 * 3  # exploit: character 7, R4, B1
    assert endgame_card_points(st, 0, "R19") == 2 * 5  # red: three characters, R4 and R19 itself
    assert endgame_card_points(st, 0, "B14") == 0
    st.board[(5, 5)] = Building(["Y14"], owner=0, resources=1)
    st.board[(6, 5)] = Building(["Y15", "Y16", "Y17"], owner=0, resources=3)
    assert endgame_card_points(st, 0, "B14") == 1
    assert endgame_card_points(st, 0, "B15") == 3
    assert endgame_card_points(st, 0, "B20") == 9


def test_g12_district_ties_break_on_the_tallest_building_then_its_number() -> None:
    board = {
        (0, 0): Building(["Y4", "Y5"], owner=0, resources=2),
        (1, 0): Building(["Y6"], owner=1, resources=1),
        (2, 0): Building(["Y7"], owner=1, resources=1),
        (3, 0): Building(["Y8"], owner=2, resources=1),
    }
    cells = sorted(board)
    # Seats 0 and 1 both have 2 resources; seat 0's building is taller.
    assert district_points(board, cells) == {0: (5, 1), 1: (2, 2)}


def test_g12_a_tie_on_points_is_a_shared_win() -> None:
    assert rank_totals([30, 41, 41, 12]) == [3, 1, 1, 4]


def test_final_score_has_tokens_cards_new_hand_and_districts() -> None:
    st = fresh(2, seed=29)
    st.players[0].sp = 10
    st.players[0].new_hand = 1
    st.players[0].kept = ["Y20"]
    st.phase = "over"
    outcome = score(st)
    lines = {ln.key: ln.points for ln in outcome.standings[0].lines}
    assert lines["tokens"] == 10 and lines["new_hand"] == 2 and lines["card"] == 9
    assert outcome.standings[0].total == sum(ln.points for ln in outcome.standings[0].lines)
