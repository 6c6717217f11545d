"""Every worked example of the rulebook (ginkgopolis.en.txt), as a test."""

from __future__ import annotations

from engine.ginkgopolis import GAME
from engine.ginkgopolis.cards import CHARACTERS, Reward
from engine.ginkgopolis.scoring import district_points, districts
from engine.ginkgopolis.state import Building
from tests.engine.ginkgopolis.helpers import fresh, gains, give_card, give_tile, play_round, put

FAYE, MILEY, NELL = 0, 1, 2


def test_faye_exploits_red_7() -> None:
    """Faye plays Red 7 alone on a 2-floor building: 2 resources, then 1 tile and 1 SP."""
    st = fresh(2, seed=3)
    st.deck, st.discard = st.discard + st.deck, []  # no deck rebuild this round
    st.first = FAYE
    put(st, (3, 3), ["B15", "R7"], owner=MILEY)
    st.players[FAYE].characters = [6, 14]  # blue: exploit -> 1 tile; yellow: exploit -> 1 SP
    st.players[FAYE].hand = []
    give_card(st, FAYE, "R7")
    give_card(st, MILEY, "A")
    screen, tiles, sp = (
        st.players[FAYE].screen_res,
        len(st.players[FAYE].tiles),
        st.players[FAYE].sp,
    )
    events = play_round(st, {FAYE: "R7", MILEY: "A:res"})
    assert gains(events, FAYE) == [
        ("res", 2, "exploit"),
        ("tile", 1, "bonus_exploit"),
        ("sp", 1, "bonus_exploit"),
    ]
    faye = st.players[FAYE]
    assert (faye.screen_res, len(faye.tiles), faye.sp) == (screen + 2, tiles + 1, sp + 1)
    assert "R7" in st.discard + st.deck and "R7" not in faye.kept


def test_miley_urbanizes_with_a_and_red_4() -> None:
    """Miley plays A with red 4: tile, resource and site on A's cell, token moved, 1 resource and
    2 tiles from the two adjacent buildings, 1 more resource from her red Urbanizing bonus."""
    st = fresh(2, seed=4)
    st.deck, st.discard = st.discard + st.deck, []  # no deck rebuild this round
    st.first = MILEY
    # Make A's cell touch a 1-floor red building (below it) and a 2-floor blue one (left of it).
    a_cell = st.tokens["A"]
    below = (a_cell[0], a_cell[1] + 1)
    red_start = next(c for c, b in st.board.items() if b.top == "R1")
    st.board[red_start], st.board[below] = st.board[below], st.board[red_start]
    put(st, (a_cell[0] - 1, a_cell[1]), ["B16", "B17"], owner=FAYE)
    st.players[MILEY].characters = [1]  # red: urbanize -> 1 resource
    st.players[MILEY].hand = []
    give_card(st, MILEY, "A")
    give_tile(st, MILEY, "R4")
    give_card(st, FAYE, "C")
    before = st.players[MILEY].screen_res
    events = play_round(st, {FAYE: "C:res", MILEY: "A+R4"})
    assert st.board[a_cell] == Building(["R4"], owner=MILEY, resources=1, site=True)
    assert st.tokens["A"] != a_cell and st.tokens["A"] not in st.board
    assert sorted(gains(events, MILEY)) == sorted(
        [("res", 1, "utilize"), ("tile", 2, "utilize"), ("res", 1, "bonus_urbanize")]
    )
    assert st.players[MILEY].screen_res == before - 1 + 1 + 1
    assert "A" in st.discard + st.deck + [c for p in st.players for c in p.hand]


def test_nell_builds_red_4_on_fayes_blue_5() -> None:
    """Faye gets her 2 resources back and 2 SP; Nell pays 1 SP (4 < 5) and 1 resource (colour
    change), puts 3 resources and a site, earns 1 SP and 1 resource of bonuses, keeps Blue 5."""
    st = fresh(3, seed=5)
    st.deck, st.discard = st.discard + st.deck, []  # no deck rebuild this round
    st.first = NELL
    cell = (3, 3)
    put(st, cell, ["Y12", "B5"], owner=FAYE)
    st.players[NELL].characters = [2, 4]  # yellow: construct -> 1 SP; red: construct -> 1 resource
    st.players[NELL].hand = []
    give_card(st, NELL, "B5")
    give_tile(st, NELL, "R4")
    give_card(st, FAYE, "D")
    give_card(st, MILEY, "E")
    nell, faye = st.players[NELL], st.players[FAYE]
    nell.screen_res, nell.sp = 5, 3
    nell.supply_res = nell.total_res - 5
    faye_screen, faye_sp = faye.screen_res, faye.sp
    events = play_round(st, {NELL: "B5+R4", FAYE: "D:res", MILEY: "E:res"})
    assert (faye.screen_res, faye.sp) == (faye_screen + 2 + 1, faye_sp + 2)  # +1: her own D:res
    assert st.board[cell] == Building(["Y12", "B5", "R4"], owner=NELL, resources=3, site=True)
    assert nell.sp == 3 - 1 + 1
    assert nell.screen_res == 5 - 1 - 3 + 1
    assert nell.kept == ["B5"]
    construct = next(e for e in events if e.kind == "construct")
    assert (construct.data["sp_paid"], construct.data["res_paid"], construct.data["height"]) == (
        1,
        1,
        3,
    )


def test_miley_rebuilds_the_deck_at_two_players() -> None:
    """Miley draws the last card: the site cards (yellow 4, 5, 9 ...) join the discard, it is
    shuffled, 7 cards are discarded (2 players), the sites are cleared, then Nell draws."""
    st = fresh(2, seed=6)
    miley, nell = 0, 1
    st.first = nell  # after this round the first player card passes to Miley
    for cell, tile in (
        ((3, 0), "Y4"),
        ((3, 1), "Y5"),
        ((3, 2), "Y9"),
        ((4, 0), "R6"),
        ((4, 1), "B8"),
    ):
        put(st, cell, [tile], owner=miley).site = True
    for p in st.players:
        p.hand = []
    give_card(st, miley, "A")
    give_card(st, nell, "B")
    for card in ("C", "D", "E"):
        give_card(st, miley, card)
    for card in ("F", "G", "H"):
        give_card(st, nell, card)
    # One card left in the deck; the rest of the cards in the discard pile.
    st.discard = [c for c in st.deck[1:]] + st.discard
    st.deck = st.deck[:1]
    discard_before = len(st.discard) + 2  # the two cards played this round are discarded too
    events = play_round(st, {miley: "A:res", nell: "B:res"})
    rebuilt = [e for e in events if e.kind == "deck_rebuilt"]
    assert len(rebuilt) == 1
    assert rebuilt[0].data["added"] == ["B8", "R6", "Y4", "Y5", "Y9"]
    assert len(rebuilt[0].data["burned"]) == 7
    assert not any(b.site for b in st.board.values())
    assert st.first == miley
    assert len(st.players[miley].hand) == 4 and len(st.players[nell].hand) == 4
    assert len(st.deck) == discard_before + 5 - 7 - 1  # Nell drew one from the new deck
    assert st.discard == rebuilt[0].data["burned"]


def test_district_scoring_example() -> None:
    """Yellow: Miley alone with 3 resources scores 6. Blue: 7 resources, Faye first with 7;
    Miley and Nell tie on resources and height, Miley's higher number gives her 2; Nell 0.
    The lone red 20 is no district."""
    st = fresh(3, seed=7)
    st.board = {}
    board = st.board
    board[(0, 0)] = Building(["Y14"], MILEY, 1)
    board[(1, 0)] = Building(["Y15", "Y16"], MILEY, 2)
    board[(0, 1)] = Building(["B7", "B8", "B9"], FAYE, 3)
    board[(1, 1)] = Building(["B10", "B11"], NELL, 2)
    board[(0, 2)] = Building(["B12", "B13"], MILEY, 2)
    board[(2, 2)] = Building(["R20"], FAYE, 1)
    found = districts(board)
    assert len(found) == 2
    points = {board[cells[0]].top[0]: district_points(board, cells) for cells in found}
    assert points["Y"] == {MILEY: (6, 1)}
    assert points["B"] == {FAYE: (7, 1), MILEY: (2, 2)}


def test_nell_set_2_gives_4_resources_2_tiles_2_sp() -> None:
    set2 = [c for c in CHARACTERS.values() if c.set == 2]
    total = Reward(
        sum(c.start.res for c in set2),
        sum(c.start.tile for c in set2),
        sum(c.start.sp for c in set2),
    )
    assert total == Reward(res=4, tile=2, sp=2)
    # And in a game: whoever is dealt set 2 starts with exactly those items.
    for seed in range(40):
        st = GAME.setup(4, {"characters": "intro"}, seed)
        owners = [p for p in st.players if sorted(p.characters) == sorted(c.id for c in set2)]
        if owners:
            nell = owners[0]
            assert (nell.screen_res, len(nell.tiles), nell.sp) == (4, 2, 2)
            return
    raise AssertionError("set 2 was never dealt in 40 games")


def test_unaffordable_floor_falls_back_to_the_card_alone() -> None:
    """The rulebook note: without the items to place the tile, it goes back behind the screen
    and the card is played by itself (exploit bonuses apply, G8)."""
    st = fresh(2, seed=8)
    st.deck, st.discard = st.discard + st.deck, []  # no deck rebuild this round
    st.first = 0
    put(st, (3, 3), ["R11", "R12"], owner=1)
    st.players[0].hand = []
    give_card(st, 0, "R12")
    give_tile(st, 0, "R13")
    give_card(st, 1, "B")
    st.players[0].characters = [7]  # red: exploit -> 1 resource
    from engine.ginkgopolis.state import Pick

    # Nothing in a round can lower what a player holds, so this pick is refused when made;
    # the fallback is reached here by emptying the screen after the pick, by hand.
    st.players[0].pick = Pick("R12", "R13")
    st.players[0].supply_res += st.players[0].screen_res
    st.players[0].screen_res = 0
    events = play_round(st, {1: "B:res"})
    assert [e.kind for e in events if e.data.get("seat") == 0 and e.kind == "fallback"] == [
        "fallback"
    ]
    assert "R13" in st.players[0].tiles
    assert st.board[(3, 3)].top == "R12"
    assert gains(events, 0) == [("res", 2, "exploit"), ("res", 1, "bonus_exploit")]
