"""The faster Ginkgopolis engine (issue 12) decides exactly as the engine before it.

``restore`` is checked against the straightforward search it replaced (every subset of
tokens in the fixed order, each placed from scratch), on token layouts met in random
games and on scrambled ones, so that saved games and replays are unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st_

from engine.core import Rng
from engine.ginkgopolis import GAME
from engine.ginkgopolis.cards import LETTERS
from engine.ginkgopolis.outline import Cell, outline, restore, rotated_letters

_MASKS = sorted(range(1 << 11), key=lambda m: (-bin(m).count("1"), m))


def _reference(
    walk: list[Cell], tokens: Mapping[str, Cell], fixed: str, blocked: set[Cell]
) -> dict[str, Cell] | None:
    occ: dict[Cell, list[int]] = {}
    for i, cell in enumerate(walk):
        occ.setdefault(cell, []).append(i)
    size = len(walk)
    if tokens[fixed] not in occ:
        return None
    seq = rotated_letters(fixed)[1:]
    for origin in occ[tokens[fixed]]:
        for mask in _MASKS:
            kept = {seq[i] for i in range(11) if mask >> i & 1}
            index: dict[str, int] = {}
            prev, ok = 0, True
            for letter in seq:
                if letter not in kept:
                    continue
                if tokens[letter] not in occ:
                    ok = False
                    break
                spots = [(i - origin) % size for i in occ[tokens[letter]]]
                nxt = [r for r in spots if r > prev]
                if not nxt:
                    ok = False
                    break
                prev = index[letter] = min(nxt)
            if not ok:
                continue
            used = {tokens[fixed]} | {tokens[k] for k in kept}
            result = {fixed: tokens[fixed]} | {k: tokens[k] for k in kept}
            prev = 0
            for pos, letter in enumerate(seq):
                if letter in kept:
                    prev = index[letter]
                    continue
                limit = next((index[nx] for nx in seq[pos + 1 :] if nx in kept), size)
                chosen = next((r for r in range(prev + 1, limit)
                               if walk[(origin + r) % size] not in used
                               and walk[(origin + r) % size] not in blocked), None)
                if chosen is None:
                    ok = False
                    break
                used.add(walk[(origin + chosen) % size])
                result[letter] = walk[(origin + chosen) % size]
                prev = chosen
            if ok:
                return result
    return None


def _in_order(tokens: dict[str, Cell]) -> bool:
    return len(set(tokens.values())) == 12


@settings(max_examples=12, deadline=None)
@given(seed=st_.integers(0, 2**31), steps=st_.integers(10, 150), shuffle=st_.booleans())
def test_restore_matches_the_old_search(seed: int, steps: int, shuffle: bool) -> None:
    state = GAME.setup(4, {}, seed)
    rng = Rng.from_seed(seed)
    ai = GAME.ai("random")
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.pending(state).waiting)
        GAME.apply(state, seat, ai.choose(state, seat, rng))
    city = set(state.board)
    walk = outline(city)
    free = [c for c in dict.fromkeys(walk) if c not in city]
    for trial in range(6):
        tokens = dict(state.tokens)
        letter = LETTERS[rng.randbelow(12)]
        if shuffle and len(free) >= 12:
            # Tokens thrown anywhere on the outline: the deep, rare searches.
            cells = list(free)
            rng.shuffle(cells)
            tokens = dict(zip(LETTERS, cells[:12], strict=True))
        taken = {c for k, c in tokens.items() if k != letter}
        options = [c for c in free if c not in taken]
        if not options:
            continue
        tokens[letter] = options[rng.randbelow(len(options))]
        assert _in_order(tokens)
        expected = _reference(walk, tokens, letter, city)
        assert restore(walk, tokens, letter, city) == expected, (seed, steps, trial)
