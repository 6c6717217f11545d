"""What a caller does with a view, a state's JSON or a state's copy stays with it.

Views, the state's JSON and ``State.copy`` are made without ``copy.deepcopy`` (issue 25):
the stacks of a city copied by hand, the last move by ``json_copy`` (engine/core), the tile faces
copied from faces made once (``tiles.face``), the copy made field by field. Here seeded
random games are played and, at every step, each view and each JSON handed out is
vandalised all the way down (every list and dict changed): no later view, JSON or state
may show it; a state read from a JSON, or copied, shares nothing with where it came from,
and a copy equals the state read back from its JSON, field by field. The full comparison
with the engine before this work is ``benchmarks/quadropolis_equivalence.py``.
"""

from __future__ import annotations

from engine.core import Rng
from engine.quadropolis import GAME
from engine.quadropolis.state import State
from engine.quadropolis.tiles import TILES, face
from tests.engine.vandal import assert_handed_out_stays_out, dumped, handed_out, vandalise


def vandalise_state(st: State) -> None:
    """Change every list and dict a state holds, and its players' numbers."""
    for row in st.site:
        row[0] = "vandal"
    for row in st.face_up:
        row[0] = not row[0]
    vandalise(st.slots)
    st.pool[9] = 9
    vandalise(st.taken)
    vandalise(st.last)
    st.box.append("vandal")
    st.discards.append("vandal")
    for p in st.players:
        for row in p.city:
            for stack in row:
                stack.append("1101")
        p.architects.append(9)
        p.inhabitants += 5


def test_vandalising_what_was_handed_out_changes_nothing_later() -> None:
    seen = {"last": 0, "taken": 0, "stacked": 0, "pool": 0}
    for seed, options in ((0, {}), (1, {"mode": "expert", "squares": True})):
        st = GAME.setup(4, options, seed)
        rng = Rng.from_seed(seed)
        while True:
            seen["last"] += st.last is not None
            seen["taken"] += st.taken is not None
            seen["stacked"] += any(len(s) > 1 for p in st.players for r in p.city for s in r)
            seen["pool"] += bool(st.pool)
            views, state_json = handed_out(GAME, st)
            copied = st.copy()
            # Every field of every player, not only what the JSON shows (types included:
            # the urbanist a tuple, the pool sorted by number).
            read_back = GAME.state_from_json(GAME.state_to_json(st))
            assert copied == read_back
            assert list(copied.pool) == list(read_back.pool)
            assert copied.urbanist == read_back.urbanist
            vandalise_state(copied)
            assert_handed_out_stays_out(GAME, st, views, state_json, vandalise_state)

            if GAME.outcome(st) is not None:
                break
            seat = min(GAME.pending(st).waiting)
            legal = GAME.legal_actions(st, seat)
            GAME.apply(st, seat, legal[rng.randbelow(len(legal))])
    # What is copied by hand was met filled, so its copies were put to the test.
    assert all(seen.values()), seen


def test_a_face_is_the_tiles_json_and_a_new_one_each_time() -> None:
    for tile_id, tile in TILES.items():
        shown = face(tile_id)
        assert dumped(shown) == dumped(tile.to_json())
        vandalise(shown)
        assert dumped(face(tile_id)) == dumped(tile.to_json())
