"""One test per ruling of RULINGS.md (Ginkgopolis) and of engine/ginkgopolis/RULINGS.md."""

from __future__ import annotations

import pytest

from engine.core.conformance import assert_refused_untouched, canonical
from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.protocol import rank_totals
from engine.core.rng import Rng
from engine.ginkgopolis import GAME
from engine.ginkgopolis.actions import (
    DraftCharacter,
    GiveTile,
    MoveToken,
    NewHand,
    PlayCard,
    RefillDone,
)
from engine.ginkgopolis.cards import CHARACTERS, LETTERS, STARTING_TILES, STARTING_TOKENS
from engine.ginkgopolis.outline import order_ok, outline, restore
from engine.ginkgopolis.rules import Table
from engine.ginkgopolis.scoring import district_points, endgame_card_points, score
from engine.ginkgopolis.state import Building, State
from tests.engine.ginkgopolis.helpers import (
    check_invariants,
    fresh,
    gains,
    give_card,
    give_tile,
    play_round,
    put,
)


def no_rebuild(st: State) -> None:
    st.deck, st.discard = st.discard + st.deck, []


# ------------------------------------------------------------------ setup and modes


@pytest.mark.parametrize(("seats", "each"), [(2, 25), (3, 20), (4, 18), (5, 16)])
def test_setup_resources_by_player_count(seats: int, each: int) -> None:
    st = fresh(seats)
    for p in st.players:
        assert p.total_res == each
        assert p.supply_res + p.screen_res == each


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_setup_six_tiles_and_seven_cards_out_at_two_or_three(seats: int) -> None:
    st = GAME.setup(seats, {"characters": "draft"}, 11)
    small = seats <= 3
    assert len(st.box) == (6 if small else 0)
    assert len(st.supply) == 51 - len(st.box)
    assert len(st.discard) == (7 if small else 0)
    assert len(st.deck) + len(st.discard) == 21


def test_setup_random_first_player_and_random_square() -> None:
    firsts = {GAME.setup(4, {}, seed).first for seed in range(30)}
    assert firsts == {0, 1, 2, 3}
    squares = {
        tuple(b.top for _, b in sorted(GAME.setup(4, {}, s).board.items())) for s in range(10)
    }
    assert len(squares) > 1
    st = GAME.setup(4, {}, 1)
    assert sorted(b.top for b in st.board.values()) == sorted(STARTING_TILES)
    assert set(st.board) == {(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)}
    assert st.tokens == STARTING_TOKENS


def test_g11_starting_buildings_have_height_1_no_owner_no_resources() -> None:
    st = GAME.setup(3, {}, 2)
    for b in st.board.values():
        assert (b.height, b.owner, b.resources, b.site) == (1, None, 0, False)
    # They count for districts' adjacency but add nothing and belong to nobody.
    st.board = {(0, 0): Building(["B1"]), (1, 0): Building(["B4"], owner=0, resources=1)}
    assert district_points(st.board, [(0, 0), (1, 0)]) == {0: (2, 1)}


def test_characters_intro_deals_one_whole_set_each() -> None:
    st = GAME.setup(5, {"characters": "intro"}, 4)
    sets = [{CHARACTERS[c].set for c in p.characters} for p in st.players]
    assert all(len(s) == 1 for s in sets) and len({s.pop() for s in sets}) == 5
    assert st.phase == "pick" and all(len(p.hand) == 4 for p in st.players)


def test_characters_draft_keeps_one_passes_left_three_times() -> None:
    st = GAME.setup(3, {"characters": "draft"}, 9)
    assert st.phase == "draft" and all(len(p.packet) == 4 for p in st.players)
    packets = [list(p.packet) for p in st.players]
    for seat in range(3):
        GAME.apply(st, seat, DraftCharacter(packets[seat][0]))
    # Seat 1 now holds what seat 0 passed left.
    assert st.players[1].packet == packets[0][1:]
    for _ in range(2):
        for seat in range(3):
            GAME.apply(st, seat, DraftCharacter(st.players[seat].packet[0]))
    assert st.phase == "pick"
    assert all(len(p.characters) == 3 for p in st.players)
    assert len(st.character_box) == 27 - 9


def test_draft_pick_may_change_until_all_are_in_and_stays_secret() -> None:
    st = GAME.setup(2, {"characters": "draft"}, 5)
    first, second = st.players[0].packet[:2]
    GAME.apply(st, 0, DraftCharacter(first))
    GAME.apply(st, 0, DraftCharacter(second))
    assert st.players[0].draft_pick == second
    public = canonical(GAME.view(st, None))
    other = canonical(GAME.view(st, 1))
    assert str(second) not in [str(c) for c in GAME.view(st, None)["players"][0]["characters"]]
    assert "draft_pick" not in public or '"draft_pick":' + str(second) not in public
    assert '"draft_pick":' + str(second) not in other


# --------------------------------------------------------------------- hidden information


def test_g6_secrets_never_in_public_or_other_views() -> None:
    st = fresh(4, seed=3)
    hand0 = st.players[0].hand
    tiles0 = st.players[0].tiles
    GAME.apply(st, 0, GAME.legal_actions(st, 0)[0])
    for seat in (None, 1, 2, 3):
        view = GAME.view(st, seat)
        assert "me" not in view or view["me"]["hand"] != hand0
        text = canonical({k: v for k, v in view.items() if k != "me"})
        for tile in tiles0:
            assert f'"{tile}"' not in text.replace('"tiles":', "")
    assert GAME.view(st, None)["players"][0]["picked"] is True
    assert GAME.view(st, 0)["me"]["pick"] is not None


def test_g6_counts_public_by_default_hidden_with_strict_screens() -> None:
    st = fresh(3, seed=3)
    shown = GAME.view(st, 1)["players"][0]
    assert shown["sp"] == st.players[0].sp and shown["tiles"] == len(st.players[0].tiles)
    strict = fresh(3, seed=3, strict_screens=True)
    hidden = GAME.view(strict, 1)["players"][0]
    assert (hidden["sp"], hidden["screen_res"], hidden["tiles"]) == (None, None, None)
    assert GAME.view(strict, 0)["players"][0]["sp"] == strict.players[0].sp


# ---------------------------------------------------------------- choosing and resolving


def test_pick_may_change_until_the_last_pick_resolves_the_round() -> None:
    st = fresh(2, seed=12)
    no_rebuild(st)
    a, b = [x for x in GAME.legal_actions(st, 0) if isinstance(x, PlayCard) and x.tile is None][:2]
    GAME.apply(st, 0, a)
    GAME.apply(st, 0, b)
    assert st.players[0].pick is not None and st.players[0].pick.card == b.card
    assert st.round == 1 and st.phase == "pick"
    events = GAME.apply(st, 1, GAME.legal_actions(st, 1)[0])
    # The last pick resolves the round: seat 0's card is the changed one, not the first.
    revealed = [e.data["card"] for e in events if e.kind == "reveal" and e.data["seat"] == 0]
    assert revealed == [b.card] and a.card != b.card


def test_g7_new_hand_withdraws_the_pick_and_both_tokens_may_be_used_in_one_round() -> None:
    st = fresh(3, seed=13)
    no_rebuild(st)
    GAME.apply(st, 0, GAME.legal_actions(st, 0)[0])
    old = list(st.players[0].hand)
    events = GAME.apply(st, 0, NewHand())
    assert st.players[0].pick is None and st.players[0].new_hand == 1
    assert [e.data["withdrawn"] for e in events if e.kind == "new_hand"] == [True]
    assert all(c in st.discard for c in old) and len(st.players[0].hand) == 4
    GAME.apply(st, 0, NewHand())
    assert st.players[0].new_hand == 0
    assert_refused_untouched(GAME, st, 0, NewHand())
    assert 0 in GAME.pending(st).waiting


def test_g7_new_hand_requests_apply_in_arrival_order() -> None:
    st = fresh(3, seed=14)
    no_rebuild(st)
    top = list(st.deck)
    GAME.apply(st, 2, NewHand())
    GAME.apply(st, 0, NewHand())
    # The deck is drawn from its end: seat 2 asked first, so it got the first four cards.
    assert st.players[2].hand == list(reversed(top[-4:]))
    assert st.players[0].hand == list(reversed(top[-8:-4]))


def test_g8_exploit_bonus_applies_to_an_urbanization_card_alone_not_to_utilized_buildings() -> None:
    st = fresh(2, seed=15)
    no_rebuild(st)
    st.first = 0
    st.players[0].characters = [14]  # yellow: exploit -> 1 SP
    st.players[1].characters = [14 - 6]  # yellow 8: urbanize -> 1 SP
    for p in st.players:
        p.hand = []
    give_card(st, 0, "A")
    give_card(st, 1, "B")
    give_tile(st, 1, "Y20")
    events = play_round(st, {0: "A:tile", 1: "B+Y20"})
    assert gains(events, 0) == [("tile", 1, "exploit"), ("sp", 1, "bonus_exploit")]
    whys = [why for _, _, why in gains(events, 1)]
    assert "bonus_exploit" not in whys and whys.count("bonus_urbanize") == 1
    assert whys.count("utilize") >= 1


def test_g3_own_returned_resources_pay_for_the_new_floor() -> None:
    st = fresh(2, seed=16)
    no_rebuild(st)
    st.first = 0
    put(st, (3, 3), ["R11", "R12"], owner=0)
    p = st.players[0]
    p.supply_res += p.screen_res - 1
    p.screen_res = 1  # 1 behind the screen + 2 returned = the 3 floors of the new building
    p.characters = []
    p.hand = []
    give_card(st, 0, "R12")
    give_tile(st, 0, "R14")
    give_card(st, 1, "A")
    assert PlayCard("R12", "R14") in GAME.legal_actions(st, 0)
    play_round(st, {0: "R12+R14", 1: "A:res"})
    assert st.board[(3, 3)].tiles == ["R11", "R12", "R14"]
    assert st.board[(3, 3)].resources == 3 and st.players[0].screen_res == 0


def test_g3_a_pick_that_cannot_be_paid_is_refused_with_the_reason() -> None:
    st = fresh(2, seed=17)
    st.first = 0
    put(st, (3, 3), ["R11", "R12"], owner=1)
    p = st.players[0]
    p.supply_res += p.screen_res
    p.screen_res = 0
    give_card(st, 0, "R12")
    give_tile(st, 0, "R5")
    with pytest.raises(IllegalAction, match="needs 3 resources and 7 success points"):
        GAME.apply(st, 0, PlayCard("R12", "R5"))
    assert_refused_untouched(GAME, st, 0, PlayCard("R12", "R5"))
    assert PlayCard("R12", "R5") not in GAME.legal_actions(st, 0)


def test_g9_resources_gained_are_capped_by_the_supply() -> None:
    st = fresh(2, seed=18)
    no_rebuild(st)
    st.first = 0
    put(st, (3, 3), ["R11", "R12", "R13"], owner=1)
    p = st.players[0]
    p.screen_res += p.supply_res - 1
    p.supply_res = 1
    p.hand = []
    give_card(st, 0, "R13")
    give_card(st, 1, "A")
    events = play_round(st, {0: "R13", 1: "A:res"})
    gain = next(e for e in events if e.kind == "gain" and e.data["seat"] == 0)
    assert (gain.data["n"], gain.data["asked"]) == (1, 3)
    assert st.players[0].supply_res == 0


def test_g9_all_resources_placed_ends_the_game_even_if_retrieved() -> None:
    st = fresh(2, seed=19)
    no_rebuild(st)
    st.first = 0
    p0 = st.players[0]
    # A small colour for the test: 3 resources, 2 on a building, the last behind the screen.
    put(st, (3, 3), ["Y11", "Y12"], owner=0)
    p0.total_res, p0.supply_res, p0.screen_res = 3, 0, 1
    p0.hand, st.players[1].hand = [], []
    give_card(st, 0, "A")
    give_card(st, 1, "Y12")
    give_tile(st, 0, "R19")
    give_tile(st, 1, "Y15")
    st.players[1].screen_res = 5
    play_round(st, {0: "A+R19", 1: "Y12+Y15"})  # seat 1 then takes back seat 0's Y12 floor
    assert st.end_triggered and st.phase == "over"
    assert st.players[0].screen_res > 0


def test_g1_refill_interrupts_the_gain_and_the_owed_tiles_come_from_the_new_supply() -> None:
    st = fresh(2, seed=20)
    no_rebuild(st)
    st.first = 0
    put(st, (3, 3), ["B11", "B12", "B13"], owner=1)
    spare = st.supply[:-1]
    st.supply = st.supply[-1:]  # one tile left; a blue exploit of height 3 owes three
    st.box += spare
    for p in st.players:
        p.hand = []
        p.characters = []
    give_card(st, 0, "B13")
    give_card(st, 1, "A")
    GAME.apply(st, 0, PlayCard("B13"))
    GAME.apply(st, 1, PlayCard("A", gain="res"))
    assert st.decision == {"kind": "refill"} and st.exhaustions == 1
    assert set(GAME.pending(st).waiting) == {0, 1}
    t0 = st.players[0].tiles[0]
    t1 = st.players[1].tiles[:2]
    sp0, sp1 = st.players[0].sp, st.players[1].sp
    GAME.apply(st, 0, GiveTile(t0))
    GAME.apply(st, 0, RefillDone())
    assert st.decision is not None  # seat 1 has not revealed yet
    for t in t1:
        GAME.apply(st, 1, GiveTile(t))
    events = GAME.apply(st, 1, RefillDone())
    refill = next(e for e in events if e.kind == "refill")
    assert refill.data["size"] == 3
    assert (st.players[0].sp, st.players[1].sp) == (sp0 + 1, sp1 + 2)
    # The two tiles still owed were drawn from the new supply, which held three.
    assert ("tile", 2, "exploit") in gains(events, 0)
    assert st.exhaustions == 1 and len(st.supply) <= 1


def one_tile_left(seed: int) -> State:
    """Two players, one tile left in the supply; seat 0 holds B12 (a 2-floor blue building
    of seat 1's, so exploiting it owes two tiles), seat 1 holds Urbanization card A."""
    st = fresh(2, seed=seed)
    no_rebuild(st)
    st.first = 0
    put(st, (3, 3), ["B11", "B12"], owner=1)
    st.box += st.supply[:-1]
    st.supply = st.supply[-1:]
    for p in st.players:
        p.hand = []
    give_card(st, 0, "B12")
    give_card(st, 1, "A")
    return st


def test_g1_a_refill_of_no_tile_is_the_second_exhaustion_and_gains_are_lost() -> None:
    st = one_tile_left(21)
    GAME.apply(st, 0, PlayCard("B12"))
    GAME.apply(st, 1, PlayCard("A", gain="tile"))
    GAME.apply(st, 0, RefillDone())
    events = GAME.apply(st, 1, RefillDone())
    assert st.exhaustions == 2 and st.end_triggered
    assert any(e.kind == "gain_lost" and e.data["seat"] == 0 for e in events)
    assert any(e.kind == "gain_lost" and e.data["seat"] == 1 for e in events)
    assert st.phase == "over"


def test_g1_a_tile_committed_to_a_pick_cannot_be_returned() -> None:
    st = one_tile_left(22)
    give_tile(st, 1, "Y20")
    GAME.apply(st, 0, PlayCard("B12"))
    GAME.apply(st, 1, PlayCard("A", "Y20"))
    assert st.decision == {"kind": "refill"}
    assert GiveTile("Y20") not in GAME.legal_actions(st, 1)
    assert_refused_untouched(GAME, st, 1, GiveTile("Y20"))


def test_g1_solo_has_no_refill_the_game_ends_at_the_end_of_that_turn() -> None:
    st = GAME.setup(1, {}, 23)
    st.box += st.supply[:-1]
    st.supply = st.supply[-1:]
    st.players[0].hand = []
    give_card(st, 0, "A")
    events = play_round(st, {0: "A:tile"})
    assert st.decision is None or st.decision["kind"] != "refill"
    assert st.phase == "over" and any(e.kind == "end_triggered" for e in events)


def test_deck_is_rebuilt_the_moment_its_last_card_is_drawn() -> None:
    st = fresh(4, seed=24)
    st.discard = st.deck[:-1]
    st.deck = st.deck[-1:]
    table = Table(st)
    table.draw(0)
    assert st.deck and not st.discard  # rebuilt at once, though nobody needs a card yet
    assert [e.kind for e in table.events].count("deck_rebuilt") == 1


# ------------------------------------------------------------------------ the tokens (G2)


SQUARE = {(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)}


def test_g2_outline_of_the_square_is_the_twelve_starting_cells_clockwise() -> None:
    assert outline(SQUARE) == [STARTING_TOKENS[k] for k in LETTERS]


def test_g2_outline_with_a_dent_visits_the_dent_once_clockwise() -> None:
    # A U shape: the dent (0,-1) is open to the north.
    city = SQUARE - {(0, -1)}
    walk = outline(city)
    assert walk.count((0, -1)) == 1
    i = walk.index((0, -1))
    assert walk[i - 1] == (-1, -2) or walk[i - 1] == (0, -2)
    assert order_ok(walk, {**STARTING_TOKENS, "B": (0, -1)})


def test_g2_outline_passes_twice_through_a_narrow_passage_and_skips_holes() -> None:
    # A ring with one opening at (0,-1): the cell (0,-2) leads into the inner hole (0,0).
    ring = {(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)} - {(0, 0), (0, -1)}
    walk = outline(ring)
    assert (0, 0) in walk  # reachable through the opening: not a hole
    closed = {(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)} - {(0, 0)}
    assert (0, 0) not in outline(closed)  # enclosed: a hole, never on the outline


def test_g2_outline_turns_left_at_a_diagonal_pinch() -> None:
    city = SQUARE | {(2, 2)}
    walk = outline(city)
    assert (2, 1) in walk and (1, 2) in walk
    assert len(walk) == len(set(walk))


def test_g2_a_move_that_breaks_the_order_moves_the_fewest_other_tokens() -> None:
    city = SQUARE | {(-1, -2)}  # A's cell built on
    walk = outline(city)
    tokens = {**STARTING_TOKENS, "A": (1, -3)}  # no such cell on the outline
    assert restore(walk, tokens, "A", city) is None
    tokens = {**STARTING_TOKENS, "A": (-1, -3)}
    assert restore(walk, tokens, "A", city) == tokens  # in order already: nothing moves
    # A on the cell after L, and L put where B's side starts: only L has to move back.
    tokens2 = {**STARTING_TOKENS, "A": (-2, -2), "L": (-1, -3)}
    assert not order_ok(walk, tokens2)
    placed = restore(walk, tokens2, "A", city)
    assert placed is not None and order_ok(walk, placed)
    assert [k for k in LETTERS if placed[k] != tokens2[k]] == ["L"]
    assert placed["L"] == (-2, -1)
    # A on C's cell: every other token has to shift one cell clockwise; A itself never moves.
    shifted = restore(walk, {**STARTING_TOKENS, "A": (1, -2)}, "A", city)
    assert shifted is not None and shifted["A"] == (1, -2) and order_ok(walk, shifted)


def test_g2_token_goes_next_to_the_new_tile_or_between_its_neighbours() -> None:
    st = fresh(2, seed=25)
    no_rebuild(st)
    st.first = 0
    for p in st.players:
        p.hand = []
    give_card(st, 0, "B")
    give_tile(st, 0, "R20")
    give_card(st, 1, "C")
    GAME.apply(st, 0, PlayCard("B", "R20"))
    GAME.apply(st, 1, PlayCard("C", gain="res"))
    d = st.decision
    assert d is not None and d["kind"] == "token" and d["letter"] == "B"
    assert d["options"] == [[0, -3]]  # A and C stand on the other empty neighbours
    assert_refused_untouched(GAME, st, 0, MoveToken("B", 5, 5))
    with pytest.raises(NotYourTurn):
        GAME.apply(st, 1, MoveToken("B", 0, -3))
    GAME.apply(st, 0, MoveToken("B", 0, -3))
    assert st.tokens["B"] == (0, -3) and order_ok(outline(st.board), st.tokens)


def test_g2_when_no_adjacent_cell_is_empty_the_outline_between_the_neighbours_is_offered() -> None:
    st = fresh(2, seed=26)
    table = Table(st)
    # A at (-1,-2) with buildings left and above it and B on its right: no free neighbour.
    put(st, (-2, -2), ["R18"], owner=1)
    put(st, (-1, -3), ["R17"], owner=1)
    st.board[(-1, -2)] = Building(["R16"], owner=0, resources=1)
    st.tokens["L"] = (-3, -2)
    options = table.token_options("A", (-1, -2))
    assert options and all(c not in st.board for c in options)
    # Strictly between A's neighbours L and B on the outline, clockwise.
    walk = outline(st.board)
    k = walk.index(st.tokens["L"]) + 1
    between = []
    while walk[k % len(walk)] != st.tokens["B"]:
        between.append(walk[k % len(walk)])
        k += 1
    assert set(options) <= set(between)
    for c in options:
        placed = restore(outline(st.board), {**st.tokens, "A": c}, "A", st.board)
        assert placed is not None and order_ok(outline(st.board), placed)


# ------------------------------------------------------------------------------- scoring


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


def test_g13_construction_sites_are_unlimited() -> None:
    st = fresh(4, seed=30)
    for i in range(20):
        put(st, (10 + i, 10), [f"B{4 + (i % 16)}" if i < 16 else f"Y{i}"], owner=0).site = True
    assert sum(b.site for b in st.board.values()) == 20
    Table(st).rebuild_deck()
    assert not any(b.site for b in st.board.values())


# ------------------------------------------------------------------------- solitaire (G10)


def test_g10_solo_setup() -> None:
    st = GAME.setup(1, {}, 31)
    human, hal = st.players
    assert (human.screen_res, len(human.tiles), human.sp) == (6, 6, 6)
    assert human.characters == [] and human.new_hand == 0
    assert hal.hal and hal.supply_res == 25 and hal.sp == 0 and not hal.tiles
    assert len(st.box) == 6 and st.first == 0
    assert len(human.hand) == 3 and st.hal_card is not None
    assert (
        "hal_card" not in canonical(GAME.view(st, 0))
        or st.hal_card not in GAME.view(st, 0)["discard"]
    )


def test_g10_hal_urbanizes_scores_items_and_the_human_moves_his_token() -> None:
    st = GAME.setup(1, {}, 32)
    no_rebuild(st)
    st.players[0].hand = []
    give_card(st, 0, "A")
    st.deck.remove("D") if "D" in st.deck else None
    st.hal_card = "D"
    d_cell = st.tokens["D"]
    events = play_round(st, {0: "A:res"}, token_choice=0)
    assert st.board[d_cell].owner == 1 and st.board[d_cell].resources == 1
    hal_gain = [e for e in events if e.kind == "gain" and e.data["why"] == "hal_urbanize"]
    assert hal_gain[0].data["n"] == 1  # one 1-floor neighbour
    assert st.players[1].sp == 1
    assert len([e for e in events if e.kind == "token_moved" and e.data["letter"] == "D"]) == 1
    assert len(st.players[0].hand) == 3  # the 2 unused cards were discarded, 3 new drawn


def test_g10_hal_builds_without_costs_keeps_the_card_and_pays_the_human() -> None:
    st = GAME.setup(1, {}, 33)
    no_rebuild(st)
    put(st, (3, 3), ["B18", "B19"], owner=0)
    st.players[0].hand = []
    give_card(st, 0, "A")
    st.hal_card = "B19"
    sp = st.players[0].sp
    screen = st.players[0].screen_res
    play_round(st, {0: "A:res"})
    b = st.board[(3, 3)]
    assert b.owner == 1 and b.height == 3 and b.resources == 3
    assert st.players[1].kept == ["B19"]
    assert st.players[0].sp == sp + 2 and st.players[0].screen_res == screen + 2 + 1


def test_g10_expert_hal_prefers_a_building_card_to_an_urbanization_card() -> None:
    st = GAME.setup(1, {"expert_hal": True}, 34)
    no_rebuild(st)
    put(st, (3, 3), ["R18"], owner=0)
    st.players[0].hand = []
    give_card(st, 0, "A")
    st.hal_card = "D"
    st.deck.remove("R18") if "R18" in st.deck else None
    st.deck.append("R18")
    play_round(st, {0: "A:res"})
    assert st.players[1].kept == ["R18"] and "D" in st.discard


def test_g10_hal_without_resources_for_his_floor_ends_the_game() -> None:
    st = GAME.setup(1, {}, 35)
    no_rebuild(st)
    put(st, (3, 3), ["R15", "R16", "R17"], owner=0)
    st.players[1].supply_res = 2
    st.players[1].total_res = 2
    st.players[0].hand = []
    give_card(st, 0, "A")
    st.hal_card = "R17"
    events = play_round(st, {0: "A:res"})
    assert st.phase == "over"
    assert any(e.kind == "hal_idle" and e.data["why"] == "no_resource" for e in events)
    assert st.board[(3, 3)].height == 3


def test_g10_outcome_lists_hal_without_a_seat() -> None:
    st = GAME.setup(1, {}, 36)
    rng = Rng.from_seed(1)
    ai = GAME.ai("greedy")
    while GAME.outcome(st) is None:
        GAME.apply(st, 0, ai.choose(st, 0, rng))
        check_invariants(st)
    outcome = GAME.outcome(st)
    assert outcome is not None
    assert [s.seat for s in outcome.standings] == [0, None]
    assert outcome.standings[1].name == "Hal"
