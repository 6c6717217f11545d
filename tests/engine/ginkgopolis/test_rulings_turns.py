"""Rulings on choosing and resolving a card: a pick may change, New Hand (G7), exploit
bonuses (G8), construction costs (G3), resources capped by the supply and all placed (G9)."""

from __future__ import annotations

import pytest

from engine.core.conformance import assert_refused_untouched
from engine.core.errors import IllegalAction
from engine.ginkgopolis import GAME
from engine.ginkgopolis.actions import NewHand, PlayCard
from tests.engine.ginkgopolis.helpers import fresh, gains, give_card, give_tile, play_round, put
from tests.engine.ginkgopolis.rulings_helpers import no_rebuild, unaffordable_pick


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
    st = unaffordable_pick()
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
