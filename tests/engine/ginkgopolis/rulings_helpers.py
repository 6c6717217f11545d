"""Positions shared by the rulings, refusal and template tests of Ginkgopolis."""

from __future__ import annotations

from engine.ginkgopolis import GAME
from engine.ginkgopolis.actions import PlayCard
from engine.ginkgopolis.state import State
from tests.engine.ginkgopolis.helpers import fresh, give_card, give_tile, put


def no_rebuild(st: State) -> None:
    """Put the discard under the deck: the deck then holds every free card, so a test's
    draws do not empty it and rebuild it (a reshuffle would move the cards it relies on)."""
    st.deck, st.discard = st.discard + st.deck, []


def urbanize_first(st: State, letter: str, tile: str, other: str) -> None:
    """A round of two: seat 0 urbanizes on ``letter``'s cell with ``tile``, seat 1 plays
    card ``other`` for resources (both hands emptied first); token ``letter`` then waits
    for seat 0 to move it."""
    for p in st.players:
        p.hand = []
    give_card(st, 0, letter)
    give_tile(st, 0, tile)
    give_card(st, 1, other)
    GAME.apply(st, 0, PlayCard(letter, tile))
    GAME.apply(st, 1, PlayCard(other, gain="res"))


def token_waiting() -> State:
    """Seat 0 has urbanized with card B: its token B waits to be moved by seat 0."""
    st = fresh(2, seed=25)
    no_rebuild(st)
    st.first = 0
    urbanize_first(st, "B", "R20", "C")
    assert st.decision is not None and st.decision["kind"] == "token"
    return st


def unaffordable_pick() -> State:
    """Seat 0 holds card R12 and tile R5, but building on R12 (3 resources, 7 success
    points) is beyond what it has: its pick ``R12+R5`` is refused."""
    st = fresh(2, seed=17)
    st.first = 0
    put(st, (3, 3), ["R11", "R12"], owner=1)
    p = st.players[0]
    p.supply_res += p.screen_res
    p.screen_res = 0
    give_card(st, 0, "R12")
    give_tile(st, 0, "R5")
    return st
