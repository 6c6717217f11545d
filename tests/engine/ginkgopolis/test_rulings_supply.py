"""Rulings on running out: the tile refill (G1) and the card deck, rebuilt the moment its
last card is drawn, construction sites included (G13)."""

from __future__ import annotations

from engine.core.conformance import assert_refused_untouched
from engine.ginkgopolis import GAME
from engine.ginkgopolis.actions import GiveTile, PlayCard, RefillDone
from engine.ginkgopolis.rules import Table
from engine.ginkgopolis.state import State
from tests.engine.ginkgopolis.helpers import fresh, gains, give_card, give_tile, play_round, put
from tests.engine.ginkgopolis.rulings_helpers import no_rebuild


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


def test_g13_construction_sites_are_unlimited() -> None:
    st = fresh(4, seed=30)
    for i in range(20):
        put(st, (10 + i, 10), [f"B{4 + (i % 16)}" if i < 16 else f"Y{i}"], owner=0).site = True
    assert sum(b.site for b in st.board.values()) == 20
    Table(st).rebuild_deck()
    assert not any(b.site for b in st.board.values())
