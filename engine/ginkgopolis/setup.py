"""Setting a game up: the starting city, the supply, the deck, resources and characters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import BadOptions
from engine.core.rng import Rng
from engine.ginkgopolis.cards import (
    ALL_TILES,
    CHARACTERS,
    LETTERS,
    RESOURCES_PER_PLAYER,
    STARTING_TILES,
    STARTING_TOKENS,
)
from engine.ginkgopolis.state import Building, Player, State

DEFAULT_OPTIONS: dict[str, Any] = {
    "characters": "draft",  # draft | intro
    "strict_screens": False,  # hide resource, tile and SP counts behind screens
    "expert_hal": False,  # solitaire only
}


def validate_options(seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
    if not 1 <= seats <= 5:
        raise BadOptions("Ginkgopolis is played by 1 to 5 players (1 = solitaire against Hal).")
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        raise BadOptions(f"Unknown option(s): {', '.join(sorted(unknown))}.")
    merged = {**DEFAULT_OPTIONS, **options}
    if merged["characters"] not in ("draft", "intro"):
        raise BadOptions("The characters option is 'draft' or 'intro'.")
    for flag in ("strict_screens", "expert_hal"):
        if not isinstance(merged[flag], bool):
            raise BadOptions(f"The {flag} option is true or false.")
    return merged


def new_state(seats: int, options: Mapping[str, Any], seed: int) -> State:
    opts = validate_options(seats, options)
    rng = Rng.from_seed(seed)
    solo = seats == 1
    count = 2 if solo else seats
    per_player = RESOURCES_PER_PLAYER[count]

    tiles = list(STARTING_TILES)
    rng.shuffle(tiles)
    board = {
        (x, y): Building([tiles[(y + 1) * 3 + (x + 1)]]) for y in (-1, 0, 1) for x in (-1, 0, 1)
    }

    supply = [t for t in ALL_TILES if t not in STARTING_TILES]
    rng.shuffle(supply)
    box: list[str] = []
    if count <= 3:
        box = supply[:6]
        supply = supply[6:]

    deck = list(LETTERS) + list(STARTING_TILES)
    rng.shuffle(deck)
    discard: list[str] = []
    if count <= 3:
        discard = deck[-7:]
        deck = deck[:-7]

    players = [Player(total_res=per_player, supply_res=per_player) for _ in range(count)]
    first = 0 if solo else rng.randbelow(seats)
    st = State(
        seats=seats,
        options=opts,
        rng=rng.state,
        players=players,
        board=board,
        tokens=dict(STARTING_TOKENS),
        deck=deck,
        discard=discard,
        supply=supply,
        box=box,
        first=first,
    )
    if solo:
        human, hal = players
        hal.hal = True
        hal.new_hand = 0
        human.new_hand = 0
        human.supply_res -= 6
        human.screen_res = 6
        human.sp = 6
        human.tiles = [st.supply.pop() for _ in range(6)]
        return st

    ids = sorted(CHARACTERS)
    if opts["characters"] == "intro":
        sets = sorted({c.set for c in CHARACTERS.values()})
        rng.shuffle(sets)
        for p, s in zip(players, sets, strict=False):
            p.characters = sorted(c.id for c in CHARACTERS.values() if c.set == s)
        st.character_box = sorted(i for i in ids if all(i not in p.characters for p in players))
    else:
        rng.shuffle(ids)
        for i, p in enumerate(players):
            p.packet = sorted(ids[i * 4 : i * 4 + 4])
        st.character_box = sorted(ids[len(players) * 4 :])
    st.rng = rng.state
    return st
