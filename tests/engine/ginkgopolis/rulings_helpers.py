"""A position helper shared by the rulings tests (test_rulings_*.py)."""

from __future__ import annotations

from engine.ginkgopolis.state import State


def no_rebuild(st: State) -> None:
    """Put the discard under the deck: the deck then holds every free card, so a test's
    draws do not empty it and rebuild it (a reshuffle would move the cards it relies on)."""
    st.deck, st.discard = st.discard + st.deck, []
