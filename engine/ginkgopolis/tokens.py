"""Urbanization tokens: the decision to move one after urbanizing, where it may go
(ruling G2) and moving it, the other tokens shifting along the outline to keep A to L in
order. Pure functions of the state; the caller tells the table what moved.
"""

from __future__ import annotations

from typing import Any

from engine.ginkgopolis.cards import LETTERS
from engine.ginkgopolis.outline import Cell, city_walk, neighbours, order_ok, restore
from engine.ginkgopolis.state import State


def open_token_decision(st: State, op: dict[str, Any]) -> None:
    """The queue's ``token`` op: the seat that urbanized now moves the letter's token."""
    letter = op["letter"]
    cell = (op["cell"][0], op["cell"][1])
    options = token_options(st, letter, cell)
    if not options:
        raise AssertionError("no legal place for an urbanization token")
    st.decision = {
        "kind": "token",
        "seat": op["seat"],
        "letter": letter,
        "cell": [cell[0], cell[1]],
        "options": [[x, y] for x, y in options],
    }


def token_options(st: State, letter: str, tile_cell: Cell) -> list[Cell]:
    """The cells ``letter``'s token may go to after a tile was placed at ``tile_cell``."""
    city = st.board
    walk, on_walk = city_walk(city)
    taken = {c for k, c in st.tokens.items() if k != letter}
    # Outline cells are never city cells, so with 12 distinct ones the 11 other tokens
    # always find room around any of them: ``restore`` then succeeds (moving every other
    # token to the first free cells after this one is its last resort), and its search
    # is left for the move itself. A smaller outline asks it.
    roomy = len(on_walk) >= len(LETTERS)

    def feasible(cell: Cell) -> bool:
        if cell not in on_walk:
            return False
        return roomy or restore(walk, {**st.tokens, letter: cell}, letter, city) is not None

    adjacent = [c for c in neighbours(tile_cell) if c not in city and c not in taken]
    options = [c for c in adjacent if feasible(c)]
    if options:
        return sorted(options)
    # Ruling G2: no empty adjacent cell, so any outline cell between the neighbours.
    i = LETTERS.index(letter)
    prev_cell, next_cell = st.tokens[LETTERS[i - 1]], st.tokens[LETTERS[(i + 1) % 12]]
    between: list[Cell] = []
    if prev_cell in walk and next_cell in walk:
        k = walk.index(prev_cell) + 1
        while walk[k % len(walk)] != next_cell and len(between) < len(walk):
            between.append(walk[k % len(walk)])
            k += 1
    options = sorted({c for c in between if c not in taken and feasible(c)})
    if options:
        return options
    return sorted(c for c in dict.fromkeys(walk) if c not in taken and feasible(c))


def move_token(st: State, letter: str, cell: Cell) -> dict[str, Cell]:
    """Put ``letter``'s token on ``cell``; returns the other tokens that had to move, by
    letter in alphabetical order, with their new cells."""
    walk, occ = city_walk(st.board)
    wanted = {**st.tokens, letter: cell}
    # Most moves keep the order: then ``restore`` would hand ``wanted`` back unchanged.
    in_order = order_ok(walk, wanted, occ)
    placed = wanted if in_order else restore(walk, wanted, letter, st.board)
    assert placed is not None
    moved = sorted(k for k in placed if k != letter and placed[k] != st.tokens[k])
    st.tokens = {k: placed[k] for k in LETTERS}
    assert in_order or order_ok(walk, st.tokens, occ)
    return {k: placed[k] for k in moved}
