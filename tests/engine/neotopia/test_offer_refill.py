"""The offer is refilled to its size at the end of a turn, however many cards the turn took
from it (L: the offer is completed from the deck when the turn ends; RULINGS NR5: not in
between)."""

from __future__ import annotations

from engine.neotopia.state import NeotopiaState
from tests.engine.neotopia.helpers import HOUSE, act, check_invariants, position


def _dealt() -> tuple[NeotopiaState, list[str], list[str]]:
    """Seat 0 to play, an offer of four known cards and a known deck."""
    cards = sorted(HOUSE.cards)
    offer, deck = cards[:4], cards[4:12]
    st = position(4, active=0, offer=offer, deck=deck)
    st.hands = [[] for _ in range(4)]
    return st, offer, deck


def test_the_offer_is_full_again_after_a_turn_that_took_two_of_its_cards() -> None:
    st, offer, deck = _dealt()
    assert len(offer) == HOUSE.offer_size
    act(st, 0, f"draw {offer[0]}")
    act(st, 0, f"draw {offer[2]}")
    assert st.offer == [offer[1], offer[3]]  # not refilled during the turn
    events = act(st, 0, "draw deck")
    assert st.current == 1  # the third action ended the turn
    ended = [e for e in events if e.kind == "turn_ended"]
    # The deck's top card went to the hand; the next two fill the two gaps.
    assert [e.data for e in ended] == [{"seat": 0, "offer_refilled": deck[1:3]}]
    assert st.offer == [offer[1], offer[3], *deck[1:3]]
    assert len(st.offer) == HOUSE.offer_size
    assert st.deck == deck[3:]
    assert sorted(st.hands[0]) == sorted([offer[0], offer[2], deck[0]])


def test_a_turn_that_took_three_offer_cards_gets_three_back() -> None:
    st, offer, deck = _dealt()
    for card in offer[:3]:
        act(st, 0, f"draw {card}")
    assert st.current == 1
    assert st.offer == [offer[3], *deck[:3]]
    assert st.deck == deck[3:]


def test_the_offer_refills_only_as_far_as_the_deck_goes() -> None:
    st, offer, deck = _dealt()
    st.deck = deck[:1]
    act(st, 0, f"draw {offer[0]}")
    act(st, 0, f"draw {offer[1]}")
    act(st, 0, f"draw {offer[2]}")
    assert st.current == 1
    assert st.offer == [offer[3], deck[0]] and st.deck == []


def test_a_real_game_turn_drawing_twice_from_the_offer_keeps_every_card() -> None:
    st = position(4, active=0)
    before = list(st.offer)
    assert len(before) == HOUSE.offer_size and len(st.deck) >= 3
    top = st.deck[:3]
    act(st, 0, f"draw {before[0]}")
    act(st, 0, f"draw {before[1]}")
    act(st, 0, "draw deck")
    assert st.offer == [*before[2:], *top[1:3]]
    check_invariants(st)
