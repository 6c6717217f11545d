"""Rulings on urbanization tokens (G2): the outline, the order A to L kept by moving the
fewest other tokens, and where a token may go."""

from __future__ import annotations

import pytest

from engine.core.conformance import assert_refused_untouched
from engine.core.errors import NotYourTurn
from engine.ginkgopolis import GAME
from engine.ginkgopolis.actions import MoveToken
from engine.ginkgopolis.cards import LETTERS, STARTING_TOKENS
from engine.ginkgopolis.outline import order_ok, outline, restore
from engine.ginkgopolis.state import Building
from engine.ginkgopolis.tokens import token_options
from tests.engine.ginkgopolis.helpers import fresh, put
from tests.engine.ginkgopolis.rulings_helpers import token_waiting

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
    st = token_waiting()
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
    # A at (-1,-2) with buildings left and above it and B on its right: no free neighbour.
    put(st, (-2, -2), ["R18"], owner=1)
    put(st, (-1, -3), ["R17"], owner=1)
    st.board[(-1, -2)] = Building(["R16"], owner=0, resources=1)
    st.tokens["L"] = (-3, -2)
    options = token_options(st, "A", (-1, -2))
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
