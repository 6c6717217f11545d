"""What a caller does with a view, a state's JSON or a state's copy stays with it.

Views and the state's JSON are made without ``copy.deepcopy`` (issue 25): the queue, the
decision and the picks revealed are copied by ``json_copy`` (engine/core), the board entries
built from plain reads. Here random games are played and, at every step, each view and
each JSON handed out is vandalised all the way down (every list and dict changed): no
later view, JSON or state may show it, and a state read from a JSON, or copied, shares
nothing with where it came from (and a copy equals its state, field by field). The full
comparison with the engine before this work is ``benchmarks/ginkgopolis_equivalence.py``.
"""

from __future__ import annotations

from engine.core import Rng
from engine.ginkgopolis import GAME
from engine.ginkgopolis.state import State
from tests.engine.vandal import assert_handed_out_stays_out, handed_out, vandalise


def vandalise_state(st: State) -> None:
    """Change every nested value a state copy holds in its JSON-valued fields and more."""
    vandalise(st.queue)
    vandalise(st.revealed)
    vandalise(st.decision)
    vandalise(st.options)
    for p in st.players:
        p.hand.append("R1")
        p.tiles.append("R1")
        p.characters.append(99)
    for b in st.board.values():
        b.tiles.append("R1")
        b.resources += 5


def test_vandalising_what_was_handed_out_changes_nothing_later() -> None:
    seen = {"token": 0, "revealed": 0, "queue": 0}
    for seed in range(3):
        st = GAME.setup(4, {}, seed)
        rng = Rng.from_seed(seed)
        while GAME.outcome(st) is None:
            seen["token"] += bool(st.decision and st.decision["kind"] == "token")
            seen["revealed"] += bool(st.revealed)
            seen["queue"] += bool(st.queue)
            views, state_json = handed_out(GAME, st)
            copied = st.copy()
            assert copied == st  # every field of every player and building, not only JSON
            vandalise_state(copied)
            assert_handed_out_stays_out(GAME, st, views, state_json, vandalise_state)

            seat = min(GAME.pending(st).waiting)
            legal = GAME.legal_actions(st, seat)
            GAME.apply(st, seat, legal[rng.randbelow(len(legal))])
    # The JSON-valued fields were met filled, so their copies were put to the test.
    assert all(seen.values()), seen
