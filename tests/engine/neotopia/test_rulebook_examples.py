"""The rulebook's worked examples, replayed on the house set as neotopia-house-set.md
(section B.7) and the ``scenarios`` of the data file describe them."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.core.protocol import Event
from engine.neotopia import GAME, patterns, rules
from engine.neotopia.legal import normal_cells
from engine.neotopia.scoring import outcome, pad
from engine.neotopia.state import NeotopiaState
from engine.neotopia.view import view
from tests.engine.neotopia.helpers import (
    HOUSE,
    act,
    flat_board,
    kinds,
    position,
    scenario,
    seat_of,
)

REGIONS = ("desert", "aquatic", "forest")


# --- E1: L369-374, L376-380 ------------------------------------------------------------


def e1_state(player: str) -> NeotopiaState:
    sc = scenario("E1")
    before = sc["before"]
    seat = seat_of(player)
    return position(
        4, active=seat,
        board=flat_board(before["board"]),
        manufactures=before["manufactures"],
        hands={seat: ["C06"]},
        scores={seat_of(c): s for c, s in before["scores"].items()},
        piles=before["bonus_piles_top_first"],
        built=[],
    )


@pytest.mark.parametrize("variant", [0, 1], ids=["red_builds_green_for_4", "green_for_2"])
def test_e1_building_of_another_colour_scores_4_own_colour_2(variant: int) -> None:
    sc = scenario("E1")
    v = sc["variants"][variant]
    seat = seat_of(v["player"])
    st = e1_state(v["player"])
    step = v["step"]
    act(st, seat, f"{step['from']}:{step['colour']}")
    act(st, seat, step["to"])
    assert st.stage == "build" and st.build_options == [step["build"]]
    events = act(st, seat, f"build {step['build']}")
    after = v["after"]
    assert st.board[step["to"]] == after["board_added"][step["to"]]
    assert Counter(st.manufactures["DA"]) == Counter(after["manufactures"]["DA"])
    assert st.scores[seat]["aquatic"] == after["scores"][v["player"]]["aquatic"]
    assert st.tokens[seat] == after["bonus_tokens_held"][v["player"]]
    assert st.piles["aquatic"] == after["bonus_piles_top_first"]["aquatic"]
    assert st.last_project("aquatic") == after["last_project"]["aquatic"]
    built = next(e for e in events if e.kind == "built")
    assert built.data["points"] == (4 if v["player"] == "R" else 2)


# --- E2: L437-447, L449-524 ------------------------------------------------------------


def e2_state() -> NeotopiaState:
    b = scenario("E2")["before"]
    blue = seat_of("B")
    st = position(
        4, active=blue,
        board=flat_board(b["board"]),
        manufactures=b["manufactures"],
        hands={blue: b["hands"]["B"]},
        scores={blue: b["scores"]["B"]},
        tokens={blue: []},
        built=[(0, card, region) for region, card in b["last_project"].items()],
        piles=b["bonus_piles_top_first"],
        cell_tokens=b["bonus_on_cells"],
        offer=b["offer"],
        deck=b["deck_top_first"],
    )
    st.stack = list(b["stack"]["tiles_top_first"])
    st.on_top = list(b["stack"]["elements_on_top_tile"])
    st.discarded = list(b["discarded_tiles_in_order"])
    st.removed = []
    st.reserve = dict(b["reserve"])
    return st


def test_e2_the_position_is_consistent() -> None:
    st = e2_state()
    b = scenario("E2")["before"]
    on_board = Counter(st.board.values())
    assert sum(on_board.values()) == 22
    assert dict(on_board) == {"R": 7, "G": 6, "P": 4, "B": 5}
    held = Counter(c for m in st.manufactures.values() for c in m) + Counter(st.on_top)
    for colour, left in b["reserve"].items():
        assert left + on_board[colour] + held[colour] == 25


def test_e2_example_of_a_turn() -> None:
    st = e2_state()
    blue = seat_of("B")
    after = scenario("E2")["after"]
    log: list[Event] = []
    # 1. The purple element of FD goes on D11, a bonus cell: New Building Permits.
    log += act(st, blue, "FD:P")
    log += act(st, blue, "D11")
    assert st.tokens[blue] == ["building_permits"]
    assert Counter(st.manufactures["FD"]) == Counter(["B", "B", "R", "P"])  # refilled at once
    assert st.on_top == ["P", "P", "B", "B"] and st.stack[0] == "P03"
    assert st.discarded == ["P01", "P05", "P04", "P06"]
    assert st.stage == "build" and "C44" in st.build_options
    log += act(st, blue, "build C44")
    assert st.scores[blue]["desert"] == 4 and st.tokens[blue] == ["building_permits"]
    assert st.actions_left == 2
    # 2-3. One project from the offer (not refilled yet), one from the deck.
    log += act(st, blue, "draw C33")
    assert len(st.offer) == 3
    log += act(st, blue, "draw deck")
    assert st.actions_left == 0 and st.current == blue  # a usable bonus: no automatic end
    assert "use permits" in [a.text() for a in GAME.legal_actions(st, blue)]
    # No normal placement in the forest could complete C49: it needs the outer cell.
    for cell in normal_cells(st, "forest"):
        board = {**st.board, cell: "B"}
        assert not patterns.completed(HOUSE, board, cell, ["C49"], False)
    # 4. The bonus: B from FD to the outer cell F37, completing C49.
    log += act(st, blue, "use permits")
    log += act(st, blue, "FD:B")
    assert "F37" in [a.text() for a in GAME.legal_actions(st, blue)]
    log += act(st, blue, "F37")
    assert st.build_options == ["C49"]
    log += act(st, blue, "build C49")
    # 5. The turn ends by itself (the new token cannot be used: one bonus a turn),
    # and the offer is refilled with C02.
    assert st.current != blue
    assert st.board["D11"] == after["board_added"]["D11"]
    assert st.board["F37"] == after["board_added"]["F37"]
    assert "D11" not in st.cell_tokens
    assert st.piles["forest"] == after["bonus_piles_top_first"]["forest"]
    assert {k: Counter(v) for k, v in st.manufactures.items()} == {
        k: Counter(v) for k, v in after["manufactures"].items()}
    assert st.stack == after["stack"]["tiles_top_first"]
    assert st.on_top == after["stack"]["elements_on_top_tile"]
    assert st.discarded == after["discarded_tiles_in_order"]
    assert st.reserve == after["reserve"]
    assert st.scores[blue] == after["scores"]["B"]
    assert sorted(st.hands[blue]) == sorted(after["hands"]["B"])
    assert st.tokens[blue] == after["bonus_tokens_held"]["B"]
    assert st.used_tokens[blue] == after["bonus_tokens_used_this_turn"]["B"]
    assert sorted(st.offer) == after["offer_as_set"]
    assert st.deck == after["deck_top_first"]
    for region, card in after["last_project"].items():
        assert st.last_project(region) == card
    assert kinds(log).count("built") == 2 and kinds(log)[-2:] == ["turn_ended", "turn"]
    taken = [e.data for e in log if e.kind == "token_taken"]
    assert [(t["bonus"], t["how"]) for t in taken] == [("building_permits", "cell"),
                                                       ("automation", "track")]


# --- E3 and E4: group points and the final score ----------------------------------------


def finished(before: dict[str, Any], tokens: list[str] | None = None) -> NeotopiaState:
    blue = seat_of("B")
    st = position(4, active=0, board=flat_board(before["board"]),
                  scores={blue: before["scores"]["B"]}, tokens={blue: tokens or []})
    st.piles = {r: ["subsidy", "automation", "private_initiative", "building_permits"]
                for r in REGIONS}
    rules.finish(st, "flag", [])
    return st


def test_e3_the_largest_group_scores_and_takes_no_token() -> None:
    sc = scenario("E3")
    st = finished(sc["before"])
    blue = seat_of("B")
    assert st.group_points is not None
    assert st.group_points[blue]["aquatic"] == sc["after"]["group_points"]["B"]["aquatic"] == 6
    assert st.scores[blue]["aquatic"] == sc["after"]["scores"]["B"]["aquatic"] == 15
    assert st.tokens[blue] == [] and all(len(p) == 4 for p in st.piles.values())


def test_e4_final_score_is_80() -> None:
    sc = scenario("E4")
    before = sc["before"]
    st = finished(before, tokens=before["bonus_tokens_held"]["B"])
    blue = seat_of("B")
    after = sc["after"]
    assert st.group_points is not None
    assert st.group_points[blue] == after["group_points"]["B"]
    assert st.scores[blue] == after["scores"]["B"]
    assert len(st.tokens[blue]) == 2
    p = pad(st, blue)
    assert p["total"] == after["final_score"]["B"] == 22 + 19 + 11 * 3 + 2 * 3
    assert p["tie_break"] == after["tie_break_key"]["B"]
    assert (p["best"]["region"], p["second"]["region"], p["worst"]["region"]) == (
        "desert", "forest", "aquatic")
    standing = next(s for s in outcome(st).standings if s.seat == blue)
    assert standing.total == 80 == sum(line.points for line in standing.lines)
    assert [line.key for line in standing.lines] == ["best", "second", "worst_x3", "tokens"]
    markers = {t["region"]: t["scores"][blue] for t in view(st, None)["tracks"]}
    for region, marker in after["markers"]["B"].items():
        assert markers[region]["space"] == marker["space"]
        assert markers[region]["laps"] == (1 if marker["side"] == 20 else 0)
