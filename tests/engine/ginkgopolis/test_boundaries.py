"""Boundaries of Ginkgopolis' rules, each at the exact value where a one-character change
of the code (``<`` for ``<=``, ``3`` for ``4``) would change the result. Written against
the game's public behaviour (setup, apply, legal actions, pending, score)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from engine.core.conformance import assert_refused_untouched
from engine.core.errors import IllegalAction
from engine.ginkgopolis import GAME
from engine.ginkgopolis.actions import PlayCard
from engine.ginkgopolis.cards import ALL_TILES, is_urbanization
from engine.ginkgopolis.outline import outline
from engine.ginkgopolis.rules import Table
from engine.ginkgopolis.scoring import score
from engine.ginkgopolis.state import Building, State
from tests.engine.ginkgopolis.helpers import fresh, give_card, give_tile, play_round, put
from tests.engine.ginkgopolis.rulings_helpers import no_rebuild, urbanize_first

# ------------------------------------------------------------------------------ scoring


@pytest.mark.parametrize(("card", "low", "high"), [("B14", 1, 0), ("B15", 0, 3)])
def test_a_height_2_building_is_low_and_a_height_3_building_is_high(card: str, low: int,
                                                                     high: int) -> None:
    """B14 scores 1 per owned building of height 1 or 2; B15 3 per building of 3 or more."""
    st = fresh(2, seed=40)
    st.board = {(0, 0): Building(["R4", "R5"], owner=0, resources=2),
                (5, 5): Building(["Y4", "Y5", "Y6"], owner=0, resources=3)}
    st.players[0].kept = [card]
    st.phase = "over"
    lines = [ln for ln in score(st).standings[0].lines if ln.key == "card"]
    # one building of height 2 and one of height 3: each card counts exactly one of them
    assert [ln.points for ln in lines] == [low + high]


def test_district_score_lines_number_the_districts_from_1() -> None:
    st = fresh(2, seed=40)
    st.board = {(0, 0): Building(["R4"], owner=0, resources=1),
                (0, 1): Building(["R5"], owner=1, resources=1),
                (5, 5): Building(["Y4", "Y5"], owner=1, resources=2),
                (5, 6): Building(["Y6"], owner=1, resources=1)}
    st.phase = "over"
    seen = sorted({(ln.detail["district"], ln.detail["color"], ln.detail["size"])
                   for standing in score(st).standings for ln in standing.lines
                   if ln.key == "district"})
    assert [number for number, _, _ in seen] == [1, 2]
    assert sorted((color, size) for _, color, size in seen) == [("R", 2), ("Y", 2)]


# ------------------------------------------------------------------------ construction


def construction(sp: int, seed: int = 41) -> State:
    """Seat 0 may build R5 on R12 (owned by seat 1): 3 floors and 7 SP for the lower number."""
    st = fresh(2, seed=seed)
    no_rebuild(st)
    st.first = 0
    put(st, (3, 3), ["R11", "R12"], owner=1)
    p = st.players[0]
    p.sp = sp
    for pl in st.players:
        pl.hand = []
    give_card(st, 0, "R12")
    give_tile(st, 0, "R5")
    give_card(st, 1, "A")
    assert p.screen_res >= 3
    return st


def test_exactly_enough_sp_pays_for_a_lower_number() -> None:
    st = construction(sp=7)
    assert PlayCard("R12", "R5") in GAME.legal_actions(st, 0)
    play_round(st, {0: "R12+R5", 1: "A:res"})
    assert st.board[(3, 3)].tiles == ["R11", "R12", "R5"]
    assert st.players[0].sp == 0  # paid all 7, gained nothing for others' returns


def test_one_sp_short_is_refused_with_the_code() -> None:
    st = construction(sp=6)
    assert PlayCard("R12", "R5") not in GAME.legal_actions(st, 0)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(st, 0, PlayCard("R12", "R5"))
    assert refused.value.code == "cannot_pay"
    assert_refused_untouched(GAME, st, 0, PlayCard("R12", "R5"))


def test_the_construct_event_names_the_building_cell() -> None:
    st = construction(sp=7)
    building = st.board.pop((3, 3))
    st.board[(2, 4)] = building  # a cell whose two coordinates differ
    events = play_round(st, {0: "R12+R5", 1: "A:res"})
    built = [e.data for e in events if e.kind == "construct"]
    assert [(d["cell"], d["tile"], d["height"]) for d in built] == [([2, 4], "R5", 3)]


def resources_for(screen_res: int, owner: int) -> State:
    """Seat 0 holds R13 (same colour, higher number: no SP) and B13 (a colour change: one
    resource more) for R12's building of height 2 (3 resources for the new floors)."""
    st = construction(sp=0, seed=46)
    st.board[(3, 3)].owner = owner
    give_tile(st, 0, "R13")
    give_tile(st, 0, "B13")
    p = st.players[0]
    p.supply_res += p.screen_res - screen_res
    p.screen_res = screen_res
    return st


@pytest.mark.parametrize(("screen_res", "owner", "offered"), [
    (2, 1, set()), (3, 1, {"R13"}), (4, 1, {"R13", "B13"}),
    # The builder's own building gives its 2 resources back before the floors are paid.
    (0, 0, set()), (1, 0, {"R13"}), (2, 0, {"R13", "B13"}),
])
def test_the_menu_offers_a_floor_at_exactly_enough_resources(screen_res: int, owner: int,
                                                             offered: set[str]) -> None:
    st = resources_for(screen_res, owner)
    plays = {a.tile for a in GAME.legal_actions(st, 0)
             if isinstance(a, PlayCard) and a.card == "R12" and a.tile in ("R13", "B13")}
    assert plays == offered
    for tile in {"R13", "B13"} - offered:
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(st, 0, PlayCard("R12", tile))
        assert refused.value.code == "cannot_pay"


@settings(max_examples=12, deadline=None)
@given(seats=st_.integers(min_value=1, max_value=5), seed=st_.integers(0, 2**32),
       steps=st_.integers(min_value=0, max_value=60), data=st_.data())
def test_the_menu_offers_exactly_the_floors_the_rules_let_a_player_pay(
        seats: int, seed: int, steps: int, data: st_.DataObject) -> None:
    """``affordable`` (the menus' fast path) agrees with ``construct_cost`` for every card
    in hand and every tile of the game, at any pick of a game played by drawn choices."""
    st = GAME.setup(seats, {"characters": "intro"}, seed)
    for _ in range(steps):
        if GAME.outcome(st) is not None:
            break
        seat = min(GAME.pending(st).waiting)
        GAME.apply(st, seat, data.draw(st_.sampled_from(GAME.legal_actions(st, seat))))
    if st.phase != "pick":
        return
    table = Table(st)
    tiles = sorted(ALL_TILES)
    for seat, player in enumerate(st.players):
        for card in player.hand:
            if is_urbanization(card):
                continue
            expected = [t for t in tiles if table.construct_cost(seat, card, t) is not None]
            assert table.affordable(seat, card, tiles) == expected, (seat, card)


@pytest.mark.parametrize("owner", [0, 1])
def test_only_another_owner_earns_sp_for_returned_resources(owner: int) -> None:
    st = fresh(2, seed=42)
    no_rebuild(st)
    st.first = 0
    put(st, (3, 3), ["R11", "R12"], owner=owner)
    for pl in st.players:
        pl.hand = []
    give_card(st, 0, "R12")
    give_tile(st, 0, "R14")
    give_card(st, 1, "A")
    sp_before = [p.sp for p in st.players]
    events = play_round(st, {0: "R12+R14", 1: "A:res"})
    returned = [e.data for e in events if e.kind == "returned"]
    assert [(d["n"], d["sp"]) for d in returned] == [(2, 0 if owner == 0 else 2)]
    # R14 on R12 is a higher number: no SP cost, so the builder's SP moves only by gains.
    builder_gains = sum(e.data["n"] for e in events if e.kind == "gain"
                        and e.data["seat"] == 0 and e.data["item"] == "sp")
    assert st.players[0].sp == sp_before[0] + builder_gains
    if owner == 1:
        owner_gains = sum(e.data["n"] for e in events if e.kind == "gain"
                          and e.data["seat"] == 1 and e.data["item"] == "sp")
        assert st.players[1].sp == sp_before[1] + owner_gains + 2


# ---------------------------------------------------------------------------- the deck


def rebuilt_after_a_round(seats: int, deck_left: int, seed: int) -> dict[str, object]:
    """Play rounds until the deck is rebuilt; the rebuild's public event data."""
    st = fresh(seats, seed=seed)
    # Few cards left to draw and an empty discard: the rebuild has few cards to shuffle.
    st.deck = st.deck[-deck_left:]
    st.discard = []
    for _ in range(8):
        picks = {s: GAME.legal_actions(st, s)[0].text() for s in range(seats)}
        events = play_round(st, picks)
        rebuilt = [e.data for e in events if e.kind == "deck_rebuilt"]
        if rebuilt:
            return rebuilt[0]
    raise AssertionError("the deck was never rebuilt")


@pytest.mark.parametrize(("seats", "seed"), [(2, 43), (3, 44), (3, 45)])
def test_at_two_or_three_players_the_rebuild_burns_up_to_7_but_never_the_last(
        seats: int, seed: int) -> None:
    data = rebuilt_after_a_round(seats, deck_left=seats, seed=seed)
    burned, size = data["burned"], data["size"]
    assert isinstance(burned, list) and isinstance(size, int)
    total = size + len(burned)
    assert total >= 2, "the scenario must have a card to burn"
    assert len(burned) == min(7, total - 1) and size >= 1


@pytest.mark.parametrize("seats", [2, 3])
def test_a_rebuild_from_a_single_card_keeps_it(seats: int) -> None:
    """The smallest rebuilds, where "never the last card" decides: one card is kept, of
    two one is burned, and nothing comes of nothing."""
    for cards, kept in ((["R5"], 1), (["R5", "Y6"], 1), ([], 0)):
        st = fresh(seats, seed=47)
        for b in st.board.values():
            b.site = False
        st.deck, st.discard = [], list(cards)
        Table(st).rebuild_deck()
        assert len(st.deck) == kept, cards
        assert sorted(st.deck + st.discard) == sorted(cards)


def test_at_four_players_the_rebuild_burns_nothing() -> None:
    data = rebuilt_after_a_round(4, deck_left=4, seed=47)
    assert data["burned"] == [] and data["size"] >= 1


# ---------------------------------------------------------------------------- tokens


def test_with_no_free_neighbour_the_token_goes_between_its_neighbours() -> None:
    """A's cell is urbanized while every neighbour is built or holds a token: the
    options are the outline cells strictly between L and B, not the whole outline."""
    st = fresh(2, seed=48)
    no_rebuild(st)
    st.first = 0
    a = st.tokens["A"]
    ax, ay = a
    put(st, (ax - 1, ay), ["R18"], owner=1)
    put(st, (ax, ay - 1), ["R17"], owner=1)
    st.tokens["L"] = (ax - 2, ay)  # L's own cell stays free but lies outside L..B
    urbanize_first(st, "A", "R16", "B")
    d = st.decision
    assert d is not None and d["kind"] == "token" and d["letter"] == "A"
    walk = outline(st.board)
    prev_cell, next_cell = st.tokens["L"], st.tokens["B"]
    i = walk.index(prev_cell) + 1
    between = []
    while walk[i % len(walk)] != next_cell:
        between.append(walk[i % len(walk)])
        i += 1
    options = [tuple(c) for c in d["options"]]
    assert options and set(options) <= set(between)
    taken = {c for k, c in st.tokens.items() if k != "A"}
    others = [c for c in walk if c not in between and c not in taken]
    assert others, "free cells outside the interval exist, so the test can tell"


# ---------------------------------------------------------------------------- solitaire


def test_a_solitaire_pick_is_not_simultaneous_but_a_two_player_pick_is() -> None:
    solo = GAME.setup(1, {}, 49)
    assert solo.phase == "pick"
    assert not GAME.pending(solo).simultaneous
    duo = fresh(2, seed=49)
    while duo.phase != "pick":
        for s in GAME.pending(duo).waiting:
            GAME.apply(duo, s, GAME.legal_actions(duo, s)[0])
    assert GAME.pending(duo).simultaneous
