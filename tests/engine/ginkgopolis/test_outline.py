"""The outline walk on random city shapes: exactly the empty cells a token may stand on."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ginkgopolis.cards import LETTERS, STARTING_TOKENS
from engine.ginkgopolis.outline import Cell, neighbours, order_ok, outline, restore

SQUARE = {(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)}


def grow(picks: list[int]) -> set[Cell]:
    """A connected city grown from the square, one orthogonal neighbour at a time."""
    city = set(SQUARE)
    for k in picks:
        frontier = sorted({n for c in city for n in neighbours(c)} - city)
        city.add(frontier[k % len(frontier)])
    return city


def exterior_neighbours(city: set[Cell]) -> set[Cell]:
    xs = [x for x, _ in city]
    ys = [y for _, y in city]
    lo_x, hi_x, lo_y, hi_y = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    seen = {(lo_x, lo_y)}
    stack = [(lo_x, lo_y)]
    while stack:
        for n in neighbours(stack.pop()):
            x, y = n
            if lo_x <= x <= hi_x and lo_y <= y <= hi_y and n not in city and n not in seen:
                seen.add(n)
                stack.append(n)
    return {c for c in seen if any(n in city for n in neighbours(c))}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=40))
def test_the_walk_visits_exactly_the_outer_empty_neighbours(picks: list[int]) -> None:
    city = grow(picks)
    walk = outline(city)
    assert set(walk) == exterior_neighbours(city)
    assert all(walk[i] != walk[(i + 1) % len(walk)] for i in range(len(walk)))
    assert len(set(walk)) >= 12, "there is always room for the twelve tokens"


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=30), st.integers(0, 11))
def test_restore_puts_any_token_anywhere_on_the_outline_in_order(picks: list[int], k: int) -> None:
    city = grow(picks)
    walk = outline(city)
    free = sorted(set(walk))
    # Spread the tokens in order along the walk, then force one of them onto another cell.
    step = len(walk) / 12
    tokens: dict[str, Cell] = {}
    for i, letter in enumerate(LETTERS):
        j = int(i * step)
        while walk[j % len(walk)] in tokens.values():
            j += 1
        tokens[letter] = walk[j % len(walk)]
    letter = LETTERS[k]
    target = free[(k * 7) % len(free)]
    placed = restore(walk, {**tokens, letter: target}, letter, city)
    assert placed is not None
    assert placed[letter] == target and order_ok(walk, placed)
    assert not set(placed.values()) & city


def test_the_square_tokens_are_in_order() -> None:
    assert order_ok(outline(SQUARE), STARTING_TOKENS)
