"""One test per Neotopia ruling: the shared RULINGS.md section (``test_ruling_*``) and
engine/neotopia/RULINGS.md (``test_nr<n>_*``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core.conformance import assert_refused_untouched, canonical
from engine.core.errors import BadOptions, ParseError
from engine.core.protocol import Event
from engine.core.rng import Rng
from engine.neotopia import GAME, patterns, rules
from engine.neotopia.actions import Draw, Place, Take
from engine.neotopia.data import DATA_DIR, largest_group, rotations
from engine.neotopia.legal import normal_cells, permit_cells
from engine.neotopia.scoring import outcome
from engine.neotopia.state import NeotopiaState
from engine.neotopia.view import view
from tests.engine.neotopia.helpers import HOUSE, act, fresh, kinds, position

ALL = ["subsidy", "automation", "private_initiative", "building_permits"]


def texts(st: NeotopiaState, seat: int) -> list[str]:
    return [a.text() for a in GAME.legal_actions(st, seat)]


def pattern_on(card: str, centre: str, transform: int = 0, mirror: bool = False
               ) -> dict[str, str]:
    """The card's pattern drawn on the board around ``centre`` in one orientation."""
    f = rotations(HOUSE.grid, True)[transform + (6 if mirror else 0)]
    c = HOUSE.cells[centre]
    out = {}
    for q, r, colour in HOUSE.cards[card].pattern:
        dq, dr = f((q, r))
        out[HOUSE.by_coord[(c.q + dq, c.r + dr)]] = colour
    return out


def e1(**kw: object) -> NeotopiaState:
    board = {"A00": "B", "A01": "R", "A02": "G", "A03": "G", "A04": "P", "A06": "P",
             "A10": "G"}
    manufactures = {"DA": ["G", "R"], "AF": ["B", "P"], "FD": ["R", "G", "P"]}
    return position(4, active=0, board=board, manufactures=manufactures,
                    hands={0: ["C06"]}, **kw)  # type: ignore[arg-type]


# --- the shared rulings -----------------------------------------------------------------


def test_ruling_data_driven_house_set_is_the_default() -> None:
    st = fresh()
    assert st.options["dataset"] == "house" and st.data.kind == "house"
    assert view(st, None)["data_set"]["kind"] == "house"


def test_ruling_patterns_rotate_but_mirror_only_with_the_option() -> None:
    for turn in range(6):
        board = pattern_on("C05", "D00", turn)
        cell = next(iter(board))
        assert patterns.completed(HOUSE, board, cell, ["C05"], False) == ["C05"]
    mirrored = pattern_on("C05", "D00", 0, mirror=True)
    cell = next(iter(mirrored))
    assert patterns.completed(HOUSE, mirrored, cell, ["C05"], False) == []
    assert patterns.completed(HOUSE, mirrored, cell, ["C05"], True) == ["C05"]


def test_ruling_cells_of_different_regions_are_never_adjacent() -> None:
    for cell, neighbours in HOUSE.neighbours.items():
        assert all(HOUSE.cells[n].region == HOUSE.cells[cell].region for n in neighbours)
    # A bar has 3 directions; a pattern anchored on a rim cell never reaches across.
    assert len(patterns.orientations("house", "C04", False)) == 3


def test_ruling_diversity_compares_type_ids() -> None:
    st = e1(built=[(1, "C07", "aquatic")])  # C07 is also a green building (type GG)
    act(st, 0, "DA:G")
    act(st, 0, "A09")
    assert st.stage == "turn" and st.hands[0] == ["C06"]
    st = e1(built=[(1, "C21", "aquatic")])  # another type
    act(st, 0, "DA:G")
    act(st, 0, "A09")
    assert st.stage == "build" and st.build_options == ["C06"]


def test_ruling_outer_cells_count_and_only_permits_place_there() -> None:
    board = {"F00": "B", "F07": "R", "F19": "B", "F20": "B", "F01": "G", "F02": "P",
             "F08": "G", "F04": "R"}
    st = position(4, active=3, board=board, tokens={3: ["building_permits",
                                                         "private_initiative"]})
    assert "F37" not in normal_cells(st, "forest")
    assert "F37" in permit_cells(st, "forest")
    act(st, 3, "use initiative")
    act(st, 3, "reserve:B")
    assert "F37" not in texts(st, 3)
    with_outer = {**board, "F37": "B"}
    assert largest_group(HOUSE, with_outer, "forest", "B") == 3  # F19, F20 and F37


def test_ruling_refill_chains_past_an_empty_source() -> None:
    st = position(4, active=0, board={"D00": "R"},
                  manufactures={"FD": ["P"], "DA": ["R"], "AF": ["G"]})
    st.stack, st.on_top, st.discarded, st.removed = ["P01", "P12"], [], [], []
    st.reserve = {"R": 0, "G": 1, "P": 0, "B": 0}
    act(st, 0, "FD:P")
    events = act(st, 0, "D01")
    # P01 brought nothing; turning it put the one G left on P12; P12 gave that G.
    assert st.manufactures["FD"] == ["G"]
    assert st.discarded == ["P01", "P12"] and st.flag_turned and st.centre == []
    assert kinds(events).count("refilled") == 2


def test_ruling_three_players_return_two_random_symbol_tiles() -> None:
    removed = set()
    for seed in range(12):
        st = GAME.setup(3, {}, seed)
        assert len(st.removed) == 2 and len(st.stack) == 10
        assert all(HOUSE.tiles[int(t[1:]) - 1].symbol for t in st.removed)
        assert HOUSE.tiles[int(st.stack[-1][1:]) - 1].flag
        removed.add(tuple(st.removed))
    assert len(removed) > 1


def test_ruling_score_laps_and_thresholds_reached_or_passed() -> None:
    st = position(4, active=0)
    st.piles = {r: list(ALL) for r in ("desert", "aquatic", "forest")}
    events: list[Event] = []
    rules.gain(st, 0, "desert", 7, events)  # reaches 7
    rules.gain(st, 0, "desert", 11, events)  # 7 -> 18 passes 13 and reaches 18
    assert st.tokens[0] == ["subsidy", "automation", "private_initiative"]
    rules.gain(st, 0, "desert", 10, events)  # 28: second lap, default off
    assert len(st.tokens[0]) == 3 and st.scores[0]["desert"] == 28
    st.options["second_lap_bonus"] = True
    rules.gain(st, 0, "aquatic", 27, events)  # 7, 13, 18 and 27 (= 7 on lap 2)
    assert len(st.tokens[0]) == 7 and st.piles["aquatic"] == []
    rules.gain(st, 0, "aquatic", 10, events)  # the pile is empty: nothing more
    assert len(st.tokens[0]) == 7


def test_ruling_group_points_never_take_tokens() -> None:
    board = {c: "R" for c in HOUSE.region("desert").cells[:20] if HOUSE.cells[c].kind != "outer"}
    st = position(4, active=0, board=board, scores={0: {"desert": 5}})
    st.piles["desert"] = list(ALL)
    rules.finish(st, "flag", [])
    assert st.scores[0]["desert"] > 18 and st.tokens[0] == [] and len(st.piles["desert"]) == 4


def test_ruling_choose_which_project_or_none() -> None:
    # G on A11 completes both C06 (green rhombus) and C34 (GP, triangle with a tail).
    st = e1()
    st.hands[0] = ["C34", "C06", "C16"]
    act(st, 0, "DA:G")
    act(st, 0, "A11")
    assert st.build_options == ["C06", "C34"]
    act(st, 0, "build none")
    assert st.hands[0] == ["C34", "C06", "C16"] and st.scores[0]["aquatic"] == 0
    assert st.stage == "turn" and st.built == []
    st = e1()
    st.hands[0] = ["C34", "C06"]
    act(st, 0, "DA:G")
    act(st, 0, "A11")
    act(st, 0, "build C34")
    assert st.hands[0] == ["C06"] and st.scores[0]["aquatic"] == 3
    assert st.last_project("aquatic") == "C34"


def test_ruling_bonus_placements_complete_projects_and_bonus_timing() -> None:
    # Covering a bonus cell gives a token usable at once, the same turn.
    st = position(4, active=2, board={"D00": "R", "D03": "G"},
                  manufactures={"FD": ["P", "G"], "DA": ["R"], "AF": ["B"]},
                  cell_tokens={"D11": "automation"})
    act(st, 2, "FD:P")
    act(st, 2, "D11")
    assert st.tokens[2] == ["automation"] and "use automation" in texts(st, 2)
    act(st, 2, "use automation")
    assert st.actions_left == 2 and st.stage == "automation"
    act(st, 2, "FD:G")
    act(st, 2, "D12")
    assert st.actions_left == 2 and st.bonus_used and "use automation" not in texts(st, 2)


def test_ruling_explicit_end_of_turn_while_a_bonus_is_usable() -> None:
    st = position(4, active=1, tokens={1: ["subsidy"]})
    for _ in range(3):
        act(st, 1, "draw deck")
    assert st.current == 1 and texts(st, 1) == ["use subsidy", "end"]
    act(st, 1, "end")
    assert st.current == 2 and st.tokens[1] == ["subsidy"]
    st = position(4, active=1, tokens={1: []})
    for _ in range(3):
        act(st, 1, "draw deck")
    assert st.current == 2


def test_ruling_the_next_pile_token_is_revealed() -> None:
    st = position(4, active=0)
    st.piles["desert"] = ["subsidy", "private_initiative", "automation", "automation"]
    assert view(st, None)["bonus_piles"][0] == {"region": "desert", "size": 4,
                                               "top": "subsidy"}
    rules.gain(st, 0, "desert", 7, [])
    assert view(st, None)["bonus_piles"][0]["top"] == "private_initiative"


def test_ruling_a_whole_round_without_action_ends_the_game() -> None:
    st = position(4, active=0, offer=[], deck=[],
                  manufactures={"FD": [], "DA": [], "AF": []})
    st.stack, st.on_top, st.centre = [], [], []
    st.reserve = {c: 0 for c in st.reserve}
    events: list[Event] = []
    rules.settle(st, events)
    assert st.over and st.end_reason == "stall"
    assert kinds(events).count("actions_lost") == 4 and kinds(events)[-1] == "game_over"


def test_ruling_a_starting_element_covering_a_bonus_cell_takes_it() -> None:
    st = fresh(4, seed=3)
    st.board = {"D00": "R", "D03": "G"}
    st.current = 2
    assert "D11" in texts(st, 2)
    token = st.cell_tokens["D11"]
    events = act(st, 2, "D11")
    assert st.tokens[2] == [token] and "token_taken" in kinds(events)


# --- the engine's own rulings -------------------------------------------------------


def test_nr1_seat_colours_follow_the_data_order() -> None:
    colours = view(fresh(3), None)["colours"]
    assert [(c["id"], c["seat"]) for c in colours] == [("R", 0), ("G", 1), ("P", 2),
                                                        ("B", None)]


def test_nr2_first_player_is_drawn_from_the_seed() -> None:
    firsts = {GAME.setup(4, {}, seed).first for seed in range(16)}
    assert len(firsts) > 1
    assert GAME.setup(4, {}, 5).first == GAME.setup(4, {}, 5).first


def test_nr3_a_move_in_two_steps_and_back() -> None:
    st = position(4, active=0, board={"D00": "R"})
    before = GAME.state_to_json(st)
    assert not any(isinstance(a, Place) for a in GAME.legal_actions(st, 0))
    act(st, 0, "FD:P")
    assert st.stage == "place" and "back" in texts(st, 0)
    assert all(HOUSE.cells[t].region in ("forest", "desert") for t in texts(st, 0)[:-1])
    act(st, 0, "back")
    after = GAME.state_to_json(st)
    assert {k: v for k, v in after.items() if k != "last"} == {
        k: v for k, v in before.items() if k != "last"}


def test_nr4_the_build_choice_is_its_own_step() -> None:
    st = e1()
    act(st, 0, "DA:G")
    act(st, 0, "A09")
    assert GAME.pending(st).waiting == {0: "build"}
    assert texts(st, 0) == ["build C06", "build none"]
    assert view(st, 1)["players"][0]["hand"] is None


def test_nr5_subsidy_draws_exactly_two() -> None:
    st = position(4, active=0, tokens={0: ["subsidy"]})
    deck = len(st.deck)
    act(st, 0, "use subsidy")
    card = st.offer[0]
    act(st, 0, f"draw {card}")
    assert st.stage == "subsidy" and len(st.offer) == 3  # not refilled in between
    act(st, 0, "draw deck")
    assert st.stage == "turn" and st.actions_left == 3 and len(st.deck) == deck - 1
    assert len(st.hands[0]) == 5


def test_nr6_automation_moves_are_free_and_build() -> None:
    st = e1(tokens={0: ["automation"]})
    act(st, 0, "use automation")
    act(st, 0, "DA:G")
    act(st, 0, "A09")
    assert st.stage == "build" and st.actions_left == 3
    act(st, 0, "build C06")
    assert st.scores[0]["aquatic"] == 4 and st.actions_left == 3


def test_nr7_a_bonus_is_offered_only_when_it_can_act() -> None:
    st = position(4, active=0, board={"D00": "R"}, tokens={0: ["building_permits"]})
    assert "use permits" not in texts(st, 0)  # no outer cell next to an element
    st.board.update({"D07": "R", "D19": "R"})
    assert "use permits" in texts(st, 0)
    act(st, 0, "use permits")
    act(st, 0, "FD:R")
    assert texts(st, 0) == ["D37", "D42", "back"] or set(texts(st, 0)) >= {"D37", "back"}
    act(st, 0, "back")
    assert st.stage == "permits" and st.bonus_used  # spent: back changes only the element


def test_nr8_actions_are_lost_when_none_is_possible() -> None:
    st = position(4, active=0, offer=[], deck=[], tokens={0: ["private_initiative"]},
                  manufactures={"FD": [], "DA": [], "AF": []})
    st.stack, st.on_top = [], []
    events: list[Event] = []
    rules.settle(st, events)
    assert st.actions_left == 0 and kinds(events) == ["actions_lost"]
    assert texts(st, 0) == ["use initiative", "end"]


def test_nr9_the_turn_ends_by_itself_after_three_actions() -> None:
    st = position(4, active=3, tokens={3: []})
    st.first = 0
    act(st, 3, "draw deck")
    act(st, 3, "draw deck")
    events = act(st, 3, "draw deck")
    assert kinds(events)[-2:] == ["turn_ended", "turn"] and st.current == 0 and st.round == 2


def test_nr10_stall_counts_consecutive_idle_turns() -> None:
    st = position(4, active=0, offer=[], deck=[],
                  manufactures={"FD": [], "DA": [], "AF": []})
    st.stack, st.on_top, st.centre = [], [], []
    st.reserve = {c: 0 for c in st.reserve}
    st.idle_turns = 0
    rules.settle(st, [])
    assert st.over and st.end_reason == "stall" and st.idle_turns == 4


def test_nr11_a_manufacture_emptied_for_good_stays_empty() -> None:
    st = position(4, active=0, board={"D00": "R"},
                  manufactures={"FD": ["P"], "DA": ["R"], "AF": ["G"]})
    st.stack, st.on_top, st.centre, st.discarded = [], [], [], [
        t.id for t in HOUSE.tiles]
    st.reserve = {c: 0 for c in st.reserve}
    act(st, 0, "FD:P")
    events = act(st, 0, "D01")
    assert "refill_failed" in kinds(events) and st.manufactures["FD"] == []
    assert not any(isinstance(a, Take) and a.source == "FD"
                   for a in GAME.legal_actions(st, 0))


def test_nr12_the_flag_tile_finishes_this_round_and_one_more() -> None:
    st = position(4, active=2, board={"D00": "R"},
                  manufactures={"FD": ["P"], "DA": ["R"], "AF": ["G"]})
    st.first, st.round = 0, 3
    st.stack, st.on_top = ["P12"], ["R", "G", "P", "B"]
    st.discarded = [t.id for t in HOUSE.tiles if t.id != "P12"]
    act(st, 2, "FD:P")
    events = act(st, 2, "D01")
    assert st.final_round == 4 and "end_triggered" in kinds(events)
    turns: list[int] = []
    rng = Rng.from_seed(1)
    player = GAME.ai("random")
    while not st.over:
        seat = st.current
        for e in GAME.apply(st, seat, player.choose(st, seat, rng)):
            if e.kind == "turn":
                turns.append(e.data["seat"])
    assert turns == [3, 0, 1, 2, 3]


def test_nr13_ties_are_broken_by_the_lowest_region_then_shared() -> None:
    st = position(3, active=0)
    st.scores = [{"desert": 10, "aquatic": 10, "forest": 10},  # 10 + 10 + 30 = 50
                 {"desert": 20, "aquatic": 20, "forest": 0},  # 20 + 20 + 0 = 40
                 {"desert": 10, "aquatic": 10, "forest": 10}]  # 50, equal on everything
    st.group_points = [{"desert": 0, "aquatic": 0, "forest": 0} for _ in range(3)]
    st.phase = "over"
    ranks = {s.seat: (s.total, s.rank) for s in outcome(st).standings}
    assert ranks == {0: (50, 1), 2: (50, 1), 1: (40, 3)}
    st.scores[1] = {"desert": 30, "aquatic": 5, "forest": 5}  # 30 + 5 + 15 = 50
    ranks = {s.seat: (s.total, s.rank) for s in outcome(st).standings}
    assert ranks[1] == (50, 3)  # tied on 50, but its lowest region (5) loses to 10
    st.scores[1] = {"desert": 4, "aquatic": 11, "forest": 13}  # 13 + 11 + 12 = 36
    st.scores[2] = {"desert": 4, "aquatic": 11, "forest": 13}
    st.scores[0] = {"desert": 4, "aquatic": 10, "forest": 14}  # 14 + 10 + 12 = 36
    ranks = {s.seat: (s.total, s.rank) for s in outcome(st).standings}
    assert ranks == {1: (36, 1), 2: (36, 1), 0: (36, 3)}  # then the second region decides


def test_nr14_score_markers_turn_past_20() -> None:
    st = position(2, active=0, scores={0: {"desert": 20, "aquatic": 21, "forest": 0}})
    markers = {t["region"]: t["scores"][0] for t in view(st, None)["tracks"]}
    assert (markers["desert"]["laps"], markers["desert"]["space"]) == (0, 20)
    assert (markers["aquatic"]["laps"], markers["aquatic"]["space"]) == (1, 1)
    assert (markers["forest"]["laps"], markers["forest"]["space"]) == (0, 0)


def test_nr15_a_token_taken_after_a_bonus_waits_for_the_next_turn() -> None:
    st = e1(tokens={0: ["automation"]}, scores={0: {"aquatic": 5}})
    st.piles["aquatic"] = list(ALL)
    for _ in range(3):
        act(st, 0, "draw deck")
    act(st, 0, "use automation")
    act(st, 0, "DA:G")
    act(st, 0, "A09")
    events = act(st, 0, "build C06")  # 5 + 2 reaches 7: a subsidy token
    assert st.tokens[0] == ["subsidy"] and "turn_ended" in kinds(events)
    assert st.current == 1


def test_nr16_the_stack_order_and_boxed_tiles_are_secret() -> None:
    st = fresh(3, seed=4)
    text = canonical(view(st, None))
    assert all(f'"{t}"' not in text for t in [*st.stack, *st.removed])
    scrambled = GAME.scramble_hidden(st, None, 99)
    assert canonical(view(scrambled, None)) == text


def test_nr17_starting_elements() -> None:
    st = fresh(4, seed=2)
    first = st.current
    assert sorted(texts(st, first)) == ["A00", "D00", "F00"]
    act(st, first, "D00")
    second = st.current
    assert set(texts(st, second)) == {"A00", "F00", *HOUSE.neighbours["D00"]}
    for _ in range(3):
        seat = st.current
        act(st, seat, texts(st, seat)[-1])
    assert st.phase == "play" and st.stage == "turn" and st.built == []
    assert sum(st.reserve.values()) == 100 - 3 * 4 - 4 - 4


def test_nr18_no_reshuffle_of_an_empty_deck() -> None:
    st = position(4, active=0, deck=[])
    assert "draw deck" not in texts(st, 0)
    assert Draw(None) not in GAME.legal_actions(st, 0)
    assert_refused_untouched(GAME, st, 0, Draw(None))
    assert f"draw {st.offer[0]}" in texts(st, 0)


def test_nr19_second_lap_thresholds_are_an_option_off_by_default() -> None:
    assert GAME.default_options()["second_lap_bonus"] is False
    st = position(4, active=0, scores={0: {"desert": 19}})
    rules.gain(st, 0, "desert", 8, [])
    assert st.tokens[0] == []
    st = position(4, active=0, scores={0: {"desert": 19}}, second_lap_bonus=True)
    rules.gain(st, 0, "desert", 8, [])
    assert len(st.tokens[0]) == 1


def test_nr20_the_dataset_option(tmp_path: Path) -> None:
    copy = tmp_path / "mine.json"
    copy.write_text((DATA_DIR / "house.json").read_text(encoding="utf-8"), encoding="utf-8")
    assert GAME.setup(2, {"dataset": str(copy)}, 1).data.name == str(copy)
    raw = json.loads(copy.read_text(encoding="utf-8"))
    raw["colours"][1]["count"] = 30
    copy.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(BadOptions) as info:
        GAME.setup(2, {"dataset": str(copy)}, 2)  # the edited file is read again
    assert "invariant 1" in info.value.message


def test_nr21_typed_input_is_at_most_200_characters() -> None:
    st = position(4, active=0)
    with pytest.raises(ParseError) as info:
        GAME.parse_action(st, 0, "draw deck" + " " * 200)
    assert "200" in info.value.message
    assert GAME.parse_action(st, 0, "  DRAW   Deck ") == Draw(None)
