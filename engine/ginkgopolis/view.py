"""What one seat, or the public, may see (ruling G6), and the scrambler that proves it.

Secret: each hand, which tiles a player holds, picks before they are revealed, draft
packets and picks, refill groups before the reveal, the order of deck and supply,
Hal's face-down card, the boxed tiles. Public: counts of resources, tiles and SP
(hidden too with ``strict_screens``), the board, the discard pile, cards in front of
the screens (characters once the draft is revealed).
"""

from __future__ import annotations

import copy
from operator import itemgetter
from typing import Any

from engine.core.jsoncopy import json_copy
from engine.core.rng import Rng
from engine.ginkgopolis.cards import TILE_NUMBERS, is_urbanization
from engine.ginkgopolis.legal import legal_actions, pending
from engine.ginkgopolis.state import HAL_COLOR, PLAYER_COLORS, State


def view(st: State, seat: int | None) -> dict[str, Any]:
    strict = bool(st.options.get("strict_screens"))
    wait = pending(st)
    board_map = st.board
    # Every seat's view, every action (issue 25): the board is read once here, not once
    # per player, and each entry is made from plain reads (the same values, key order and
    # fresh lists as ever: a caller may change the view it is given).
    on_board = [0] * len(st.players)
    for b in board_map.values():
        if b.owner is not None:
            on_board[b.owner] += b.resources
    drafting = st.phase == "draft"
    players = []
    for i, p in enumerate(st.players):
        mine = seat == i
        hal = p.hal
        hidden = strict and not mine and not hal
        players.append(
            {
                "seat": None if hal else i,
                "hal": hal,
                "color": HAL_COLOR if hal else PLAYER_COLORS[i],
                "sp": None if hidden else p.sp,
                "screen_res": None if hidden else p.screen_res,
                "tiles": None if hidden else len(p.tiles),
                "supply_res": p.supply_res,
                "on_board": on_board[i],
                "total_res": p.total_res,
                "new_hand": p.new_hand,
                "characters": list(p.characters) if not drafting or mine else [],
                "characters_count": len(p.characters),
                "kept": list(p.kept),
                "hand_size": len(p.hand),
                "picked": p.pick is not None,
                "draft_picked": p.draft_pick is not None,
                "refill_done": p.refill_done,
            }
        )
    hals = [p.hal for p in st.players]
    board = []
    for cell in sorted(board_map, key=_ROW_FIRST):
        b = board_map[cell]
        tiles = b.tiles
        top = tiles[-1]
        owner = b.owner
        hal = owner is not None and hals[owner]
        board.append(
            {
                "x": cell[0],
                "y": cell[1],
                "tiles": list(tiles),
                "top": top,
                "color": top[0],
                "number": TILE_NUMBERS[top],
                "height": len(tiles),
                "owner": None if hal else owner,
                "hal": hal,
                "resources": b.resources,
                "site": b.site,
            }
        )
    decision: dict[str, Any] | None = None
    if st.decision is not None and st.decision["kind"] == "token":
        decision = json_copy(st.decision)
    elif st.decision is not None:
        decision = {"kind": "refill"}
    out: dict[str, Any] = {
        "game": "ginkgopolis",
        "seat": seat,
        "seats": st.seats,
        "solo": st.solo,
        "options": dict(st.options),
        "round": st.round,
        "phase": st.phase,
        "first": st.first,
        "board": board,
        "tokens": {k: [v[0], v[1]] for k, v in sorted(st.tokens.items())},
        "deck": len(st.deck),
        "discard": list(st.discard),
        "supply": len(st.supply),
        "exhaustions": st.exhaustions,
        "end_triggered": st.end_triggered,
        "players": players,
        "revealed": json_copy(st.revealed),
        "decision": decision,
        "waiting": sorted(wait.waiting),
    }
    if seat is not None and 0 <= seat < st.seats:
        p = st.players[seat]
        out["me"] = {
            "hand": list(p.hand),
            "tiles": sorted(p.tiles, key=_by_color_number),
            "pick": p.pick.to_json() if p.pick else None,
            "packet": list(p.packet),
            "draft_pick": p.draft_pick,
            "refill": list(p.refill),
            "legal": [a.text() for a in legal_actions(st, seat)],
        }
    return out


# The board is shown row by row (y, then x).
_ROW_FIRST = itemgetter(1, 0)


def _by_color_number(tile: str) -> tuple[str, int]:
    return tile[0], TILE_NUMBERS[tile]


def scramble_hidden(st: State, seat: int | None, seed: int) -> State:
    """Re-deal at random everything ``seat`` may not see, keeping every count."""
    out = copy.deepcopy(st)
    rng = Rng.from_seed(seed)
    others = [i for i, p in enumerate(out.players) if i != seat]

    cards = list(out.deck) + ([out.hal_card] if out.hal_card else [])
    for i in others:
        cards += out.players[i].hand
    rng.shuffle(cards)
    if out.hal_card:
        out.hal_card = cards.pop()
    for i in others:
        p = out.players[i]
        k = len(p.hand)
        p.hand, cards = cards[:k], cards[k:]
    out.deck = cards

    tiles = list(out.supply) + list(out.box)
    for i in others:
        tiles += out.players[i].tiles
    rng.shuffle(tiles)
    for i in others:
        p = out.players[i]
        k = len(p.tiles)
        p.tiles, tiles = tiles[:k], tiles[k:]
    out.box, tiles = tiles[: len(out.box)], tiles[len(out.box) :]
    out.supply = tiles

    for i in others:
        p = out.players[i]
        if p.pick is not None:
            card = p.hand[rng.randbelow(len(p.hand))]
            p.pick.card = card
            p.pick.gain = "res" if is_urbanization(card) else None
            p.pick.tile = None
        size = len(p.refill)
        p.refill = sorted(p.tiles[:size])

    if out.phase == "draft":
        pool = list(out.character_box)
        for i in others:
            pool += out.players[i].packet + out.players[i].characters
        rng.shuffle(pool)
        for i in others:
            p = out.players[i]
            k, m = len(p.packet), len(p.characters)
            p.packet, p.characters, pool = pool[:k], pool[k : k + m], pool[k + m :]
            if p.draft_pick is not None:
                p.draft_pick = p.packet[0]
        out.character_box = sorted(pool)
    return out
