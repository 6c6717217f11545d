"""A new table: options, and the set-up of neotopia.fr.txt L143-209 on a data set."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import BadOptions
from engine.core.rng import Rng
from engine.neotopia.data import DEFAULT, DataError, load
from engine.neotopia.state import NeotopiaState

MIN_SEATS = 2
MAX_SEATS = 4
ACTIONS_PER_TURN = 3
DEFAULT_OPTIONS: dict[str, Any] = {
    # Which data set: a file name under engine/neotopia/data/ or a path to a .json file.
    "dataset": DEFAULT,
    # Patterns may also be mirrored (RULINGS N7: rotation only by default).
    "mirror": False,
    # Passing 7, 13, 18 again on a second lap pays again (RULINGS N6: default off).
    "second_lap_bonus": False,
}


def check_options(seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise BadOptions(f"Neotopia is for {MIN_SEATS} to {MAX_SEATS} players, not {seats}.",
                         seats=seats)
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise BadOptions(f"Unknown Neotopia option(s): {', '.join(unknown)}; known: "
                         f"{', '.join(DEFAULT_OPTIONS)}.", unknown=unknown)
    out = dict(DEFAULT_OPTIONS)
    out.update(options)
    for key in ("mirror", "second_lap_bonus"):
        if not isinstance(out[key], bool):
            raise BadOptions(f"The option {key} is true or false.", option=key)
    name = out["dataset"]
    if not isinstance(name, str):
        raise BadOptions("The option dataset names a data set.", option="dataset")
    try:
        load(name)
    except DataError as exc:
        raise BadOptions(f"The data set {name!r} is refused: {exc}", option="dataset",
                         invariant=exc.invariant) from None
    except FileNotFoundError as exc:
        raise BadOptions(str(exc), option="dataset") from None
    return out


def new_state(seats: int, options: Mapping[str, Any], seed: int) -> NeotopiaState:
    opts = check_options(seats, options)
    data = load(opts["dataset"])
    rng = Rng.from_seed(seed)
    colours = data.colour_ids
    reserve = {c.id: c.count for c in data.colours}

    def take(colour: str) -> str:
        reserve[colour] -= 1
        return colour

    manufactures = {m.id: sorted((take(c) for c in m.start), key=colours.index)
                    for m in data.manufactures}
    # Bonus tokens: shuffled face down, 4 on each region's bonus cells, then 3 piles.
    tokens = [b.id for b in data.bonus_types for _ in range(b.count)]
    rng.shuffle(tokens)
    cell_tokens: dict[str, str] = {}
    for region in data.regions:
        for cell in region.bonus_cells:
            cell_tokens[cell] = tokens.pop()
    piles = {region.id: [tokens.pop() for _ in range(data.pile_size)]
             for region in data.regions}
    # Production: the flag tile at the bottom; with fewer players some symbol tiles
    # go back to the box (which ones is random: RULINGS).
    symbol = [t.id for t in data.tiles if t.symbol]
    rng.shuffle(symbol)
    removed = sorted(symbol[:data.removal.get(seats, 0)])
    flag = next(t.id for t in data.tiles if t.flag)
    stack = [t.id for t in data.tiles if not t.flag and t.id not in removed]
    rng.shuffle(stack)
    stack.append(flag)
    on_top = [take(c) for c in data.stack_top]
    deck = sorted(data.cards)
    rng.shuffle(deck)
    hands = [[deck.pop(0) for _ in range(data.hand_size)] for _ in range(seats)]
    offer = [deck.pop(0) for _ in range(data.offer_size)]
    first = rng.randbelow(seats)
    return NeotopiaState(
        seats=seats,
        options=opts,
        rng=rng.state,
        first=first,
        phase="start",
        board={},
        cell_tokens=cell_tokens,
        piles=piles,
        manufactures=manufactures,
        stack=stack,
        on_top=sorted(on_top, key=colours.index),
        centre=[],
        discarded=[],
        removed=removed,
        reserve=reserve,
        deck=deck,
        offer=offer,
        hands=hands,
        tokens=[[] for _ in range(seats)],
        used_tokens=[[] for _ in range(seats)],
        scores=[{r.id: 0 for r in data.regions} for _ in range(seats)],
        built=[],
        current=first,
        round=0,
        actions_left=0,
        bonus_used=False,
        stage="start",
    )
