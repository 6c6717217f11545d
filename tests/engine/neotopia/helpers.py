"""Shared helpers for the Neotopia tests: positions from scenarios, accounting checks."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.core.protocol import Action, Event
from engine.neotopia import GAME
from engine.neotopia.data import DataSet, load
from engine.neotopia.state import NeotopiaState

HOUSE = load("house")


def scenario(sid: str) -> dict[str, Any]:
    return dict(next(s for s in HOUSE.scenarios if s["id"] == sid))


def fresh(seats: int = 4, seed: int = 1, **options: Any) -> NeotopiaState:
    return GAME.setup(seats, options, seed)


def position(
    seats: int = 4,
    *,
    active: int = 0,
    board: dict[str, str] | None = None,
    manufactures: dict[str, list[str]] | None = None,
    hands: dict[int, list[str]] | None = None,
    scores: dict[int, dict[str, int]] | None = None,
    tokens: dict[int, list[str]] | None = None,
    built: list[tuple[int, str, str]] | None = None,
    piles: dict[str, list[str]] | None = None,
    cell_tokens: dict[str, str] | None = None,
    offer: list[str] | None = None,
    deck: list[str] | None = None,
    seed: int = 1,
    **options: Any,
) -> NeotopiaState:
    """A play-phase position at the start of ``active``'s turn, with the given parts
    replaced (the rest comes from a seeded setup; accounting is not kept)."""
    st = GAME.setup(seats, options, seed)
    st.phase, st.round, st.current, st.first = "play", 1, active, 0
    st.stage, st.actions_left, st.bonus_used = "turn", 3, False
    if board is not None:
        st.board = dict(board)
    if manufactures is not None:
        st.manufactures = {k: list(v) for k, v in manufactures.items()}
    for seat, cards in (hands or {}).items():
        st.hands[seat] = list(cards)
    for seat, per_region in (scores or {}).items():
        st.scores[seat].update(per_region)
    for seat, held in (tokens or {}).items():
        st.tokens[seat] = list(held)
    if built is not None:
        st.built = [{"seat": s, "card": c, "region": r} for s, c, r in built]
    if piles is not None:
        st.piles.update({k: list(v) for k, v in piles.items()})
    if cell_tokens is not None:
        st.cell_tokens = dict(cell_tokens)
    if offer is not None:
        st.offer = list(offer)
    if deck is not None:
        st.deck = list(deck)
    return st


def flat_board(by_region: dict[str, dict[str, str]]) -> dict[str, str]:
    return {cell: colour for cells in by_region.values() for cell, colour in cells.items()}


def seat_of(colour: str) -> int:
    return HOUSE.colour_ids.index(colour)


def act(st: NeotopiaState, seat: int, text: str) -> list[Event]:
    action: Action = GAME.parse_action(st, seat, text)
    return GAME.apply(st, seat, action)


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def check_invariants(st: NeotopiaState) -> None:
    """Every element, card, token and tile is somewhere, exactly once."""
    data: DataSet = st.data
    where: Counter[str] = Counter()
    for c, n in st.reserve.items():
        assert n >= 0
        where[c] += n
    for held in st.manufactures.values():
        where.update(held)
        assert len(held) <= 4
    where.update(st.on_top)
    where.update(st.centre)
    where.update(st.board.values())
    # An element being taken is still at its source until it is placed.
    assert dict(where) == {c.id: c.count for c in data.colours}
    cards = [*st.deck, *st.offer, *(c for h in st.hands for c in h),
             *(b["card"] for b in st.built)]
    assert sorted(cards) == sorted(data.cards)
    tokens = [*st.cell_tokens.values(), *(t for p in st.piles.values() for t in p),
              *(t for h in st.tokens for t in h), *(t for u in st.used_tokens for t in u)]
    assert Counter(tokens) == Counter({b.id: b.count for b in data.bonus_types})
    tiles = [*st.stack, *st.discarded, *st.removed]
    assert sorted(tiles) == sorted(t.id for t in data.tiles)
    if st.stack:
        assert data.tiles[[t.id for t in data.tiles].index(st.stack[-1])].flag
    for cell in st.board:
        assert cell in data.cells
    for cell in st.cell_tokens:
        assert cell not in st.board and data.cells[cell].kind == "bonus"
    assert len(st.offer) <= data.offer_size
