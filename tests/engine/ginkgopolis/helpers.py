"""Helpers for Ginkgopolis tests: hand-built positions and the component invariants."""

from __future__ import annotations

from collections import Counter

from engine.core.protocol import Event
from engine.ginkgopolis import GAME
from engine.ginkgopolis.actions import MoveToken
from engine.ginkgopolis.cards import ALL_TILES, CHARACTERS, LETTERS
from engine.ginkgopolis.outline import order_ok, outline
from engine.ginkgopolis.state import Building, State


def fresh(seats: int = 4, seed: int = 1, **options: object) -> State:
    return GAME.setup(seats, {"characters": "intro", **options}, seed)


def put(
    st: State,
    cell: tuple[int, int],
    tiles: list[str],
    owner: int | None = None,
    res: int | None = None,
) -> Building:
    """Place a building: its tiles come from wherever they are, its resources from the supply."""
    for t in tiles:
        take_tile(st, t)
    resources = len(tiles) if owner is not None and res is None else (res or 0)
    b = Building(list(tiles), owner=owner, resources=resources)
    if owner is not None:
        st.players[owner].supply_res -= resources
    st.board[cell] = b
    return b


def take_tile(st: State, tile: str) -> None:
    """Remove a tile from wherever it is (supply, box, a screen) so a test can place it."""
    for pile in (st.supply, st.box):
        if tile in pile:
            pile.remove(tile)
            return
    for p in st.players:
        if tile in p.tiles:
            p.tiles.remove(tile)
            return
    for cell, b in list(st.board.items()):
        if tile in b.tiles:
            raise AssertionError(f"{tile} is already on the board at {cell}")
    raise AssertionError(f"{tile} not found")


def give_card(st: State, seat: int, card: str) -> None:
    """Move a card into a seat's hand from the deck, the discard, another hand or the stacks."""
    for pile in (st.deck, st.discard):
        if card in pile:
            pile.remove(card)
            st.players[seat].hand.append(card)
            return
    for p in st.players:
        if card in p.hand:
            p.hand.remove(card)
            st.players[seat].hand.append(card)
            return
    st.players[seat].hand.append(card)


def give_tile(st: State, seat: int, tile: str) -> None:
    take_tile(st, tile)
    st.players[seat].tiles.append(tile)


def check_invariants(st: State) -> None:
    """Every component is accounted for, and the city and its tokens are consistent."""
    for p in st.players:
        on_board = sum(b.resources for b in st.board.values() if b.owner == st.players.index(p))
        assert p.supply_res >= 0 and p.screen_res >= 0
        assert p.supply_res + p.screen_res + on_board == p.total_res
    for b in st.board.values():
        assert b.owner is None or b.resources == b.height, "resources match floors"
    tiles = [t for b in st.board.values() for t in b.tiles] + st.supply + st.box
    tiles += [t for p in st.players for t in p.tiles]
    assert Counter(tiles) == Counter(ALL_TILES), "every tile exactly once"

    # A revealed card waits in the resolution queue until it is discarded or kept.
    to_discard = [op["card"] for op in st.queue if op["op"] == "discard"]
    to_keep = [op["card"] for op in st.queue if op["op"] == "keep"]
    circulating = st.deck + st.discard + [c for p in st.players for c in p.hand] + to_discard
    if st.hal_card:
        circulating.append(st.hal_card)
    assert len(circulating) == len(set(circulating)), "no card twice"
    assert sorted(c for c in circulating if c in LETTERS) == list(LETTERS)
    building_cards = {c for c in circulating if c not in LETTERS}
    tops = {b.top for b in st.board.values()}
    assert building_cards <= tops, (
        "every Building card in circulation designates a visible top tile"
    )
    assert building_cards == {b.top for b in st.board.values() if not b.site}
    kept = [c for p in st.players for c in p.kept] + to_keep
    assert len(kept) == len(set(kept)) and not set(kept) & (building_cards | tops)

    chars = list(st.character_box) + [c for p in st.players for c in p.characters + p.packet]
    if not st.solo:
        assert sorted(chars) == sorted(CHARACTERS), "every character card exactly once"

    # While a token waits to be moved, it still stands under the new building.
    moving = st.decision["letter"] if st.decision and st.decision["kind"] == "token" else None
    standing = {c for k, c in st.tokens.items() if k != moving}
    assert not standing & set(st.board), "tokens stand on empty cells"
    if st.decision is None or st.decision["kind"] != "token":
        assert order_ok(outline(st.board), st.tokens), "tokens in clockwise A..L order"


def play_round(st: State, picks: dict[int, str], token_choice: int = 0) -> list[Event]:
    """Apply every seat's pick (text form), then answer token decisions with one option."""
    events: list[Event] = []
    for seat, text in picks.items():
        events += GAME.apply(st, seat, GAME.parse_action(st, seat, text))
    while st.decision is not None and st.decision["kind"] == "token":
        d = st.decision
        x, y = d["options"][min(token_choice, len(d["options"]) - 1)]
        events += GAME.apply(st, d["seat"], MoveToken(d["letter"], x, y))
    return events


def gains(events: list[Event], seat: int | None) -> list[tuple[str, int, str]]:
    return [
        (e.data["item"], e.data["n"], e.data["why"])
        for e in events
        if e.kind == "gain" and e.to is None and e.data["seat"] == seat
    ]
