"""The engine's shortcuts give what the plain definitions give (issue 25, engine speed).

Each shortcut is compared with a plain version written here from the definition: the
outline traced by reading the four cells around each vertex, the restoration of the
token order as the first subset of kept tokens (most kept first) that ``_place`` can
complete, the random seat's pick as an entry of ``legal_actions``, and ``pending`` as
the seats ``has_decision`` names.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import get_game
from engine.core.protocol import Pending
from engine.core.rng import Rng
from engine.ginkgopolis.cards import LETTERS
from engine.ginkgopolis.legal import (
    has_decision,
    legal_actions,
    menu_size,
    nth_play,
    pending,
    play_menu,
)
from engine.ginkgopolis.outline import (
    _MASKS,
    Cell,
    _place,
    city_walk,
    occurrences,
    outline,
    restore,
    rotated_letters,
)
from engine.ginkgopolis.state import State

GAME = get_game("ginkgopolis")


def four_cell_outline(cells: frozenset[Cell]) -> list[Cell]:
    """The walk as first written: the four cells around each vertex decide the turn."""
    if not cells:
        return []
    x, y = min(cells, key=lambda c: (c[1], c[0]))
    walk: list[Cell] = [(x, y - 1)]
    direction, vx, vy = 1, x + 1, y
    while True:
        nw = (vx - 1, vy - 1) in cells
        ne = (vx, vy - 1) in cells
        sw = (vx - 1, vy) in cells
        se = (vx, vy) in cells
        if (se and nw and not ne and not sw) or (ne and sw and not nw and not se):
            direction = (direction + 3) % 4
        elif se and not ne:
            direction = 1
        elif sw and not se:
            direction = 2
        elif nw and not sw:
            direction = 3
        else:
            direction = 0
        if direction == 1 and vx == x and vy == y:
            break
        if direction == 1:
            empty = (vx, vy - 1)
            vx += 1
        elif direction == 2:
            empty = (vx, vy)
            vy += 1
        elif direction == 3:
            empty = (vx - 1, vy)
            vx -= 1
        else:
            empty = (vx - 1, vy - 1)
            vy -= 1
        if walk[-1] != empty:
            walk.append(empty)
    if len(walk) > 1 and walk[0] == walk[-1]:
        walk.pop()
    return walk


def plain_restore(walk: list[Cell], tokens: dict[str, Cell], fixed: str,
                  blocked: frozenset[Cell]) -> dict[str, Cell] | None:
    """Every subset of kept tokens in the search's order, each tried by ``_place``."""
    occ = occurrences(walk)
    if tokens[fixed] not in occ:
        return None
    size = len(walk)
    seq = rotated_letters(fixed)[1:]
    for origin in occ[tokens[fixed]]:
        rel = {
            letter: sorted((i - origin) % size for i in occ[tokens[letter]])
            for letter in seq
            if tokens[letter] in occ
        }
        for mask in _MASKS:
            placed = _place(walk, size, origin, rel, tokens, fixed, seq, mask, blocked)
            if placed is not None:
                return placed
    return None


cells = st.tuples(st.integers(-4, 4), st.integers(-4, 4))


@settings(max_examples=400, deadline=None)
@given(st.frozensets(cells, min_size=1, max_size=45))
def test_the_outline_is_the_four_cell_walk(city: frozenset[Cell]) -> None:
    # Any set of cells: several pieces, holes, cities touching themselves at a corner.
    assert outline(city) == four_cell_outline(city)
    walk, occ = city_walk(sorted(city))
    assert list(walk) == four_cell_outline(city)
    assert occ == occurrences(four_cell_outline(city))


@settings(max_examples=60, deadline=None)
@given(st.frozensets(cells, min_size=1, max_size=30), st.data())
def test_restore_finds_what_trying_every_subset_finds(city: frozenset[Cell],
                                                      data: st.DataObject) -> None:
    walk = four_cell_outline(city)
    spots = sorted(set(walk))
    if len(spots) < len(LETTERS):
        return
    chosen = data.draw(st.lists(st.sampled_from(spots), min_size=12, max_size=12))
    tokens = dict(zip(LETTERS, chosen, strict=True))
    fixed = data.draw(st.sampled_from(LETTERS))
    expected = plain_restore(walk, tokens, fixed, city)
    assert restore(walk, tokens, fixed, city) == expected


def states(seeds: range, seats: int = 4) -> list[State]:
    """Every state met in random games, copied."""
    out: list[State] = []
    for seed in seeds:
        state = GAME.setup(seats, {}, seed)
        rng = Rng.from_seed(seed)
        players = [GAME.ai("random") for _ in range(seats)]
        while GAME.outcome(state) is None:
            out.append(state.copy())
            seat = min(GAME.pending(state).waiting)
            GAME.apply(state, seat, players[seat].choose(state, seat, rng))
        out.append(state.copy())
    return out


def test_the_menu_in_parts_is_the_legal_menu_and_pending_names_who_decides() -> None:
    picks = 0
    for seats in (2, 3, 4):
        for state in states(range(4), seats):
            made = pending(state)
            fresh = Pending(dict(made.waiting), made.simultaneous, frozenset(made.changeable))
            assert made == fresh
            for seat in range(state.seats):
                asked = seat in made.waiting or seat in made.changeable
                assert has_decision(state, seat) == asked
                if state.phase != "pick" or state.decision is not None:
                    continue
                picks += 1
                parts, new_hand = play_menu(state, seat)
                menu = legal_actions(state, seat)
                assert menu_size(parts, new_hand) == len(menu)
                assert [nth_play(parts, new_hand, k) for k in range(len(menu))] == menu
    assert picks > 100
