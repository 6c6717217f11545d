"""Options, the starting state, and the deal of each round's construction site."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from engine.core.errors import BadOptions
from engine.core.rng import Rng
from engine.quadropolis.state import SITE, Player, State
from engine.quadropolis.tiles import BOARDS, TILES, round_tiles

MIN_SEATS: Final = 2
MAX_SEATS: Final = 4
TURNS_PER_ROUND: Final = 4
EXPERT_ARCHITECTS: Final = 5

DEFAULT_OPTIONS: Final[dict[str, Any]] = {
    "mode": "classic",  # classic | expert
    "squares": False,  # the Squares mini-expansion (both modes)
}


def validate_options(seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise BadOptions(
            f"Quadropolis is played by {MIN_SEATS} to {MAX_SEATS} players.",
            code="seats", min=MIN_SEATS, max=MAX_SEATS, seats=seats,
        )
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise BadOptions(
            f"Unknown option(s): {', '.join(unknown)}. Quadropolis knows mode and squares.",
            code="unknown_option", unknown=unknown,
        )
    merged = {**DEFAULT_OPTIONS, **options}
    if merged["mode"] not in ("classic", "expert"):
        raise BadOptions(
            "The mode option is classic or expert.", code="bad_value", option="mode",
            value=str(merged["mode"]),
        )
    if not isinstance(merged["squares"], bool):
        raise BadOptions(
            "The squares option is true or false.", code="bad_value", option="squares",
            value=str(merged["squares"]),
        )
    return merged


def new_state(seats: int, options: Mapping[str, Any], seed: int) -> State:
    opts = validate_options(seats, options)
    mode = str(opts["mode"])
    rng = Rng.from_seed(seed)
    first = rng.randbelow(seats)  # L101: any method; random here
    board = BOARDS[mode]
    players = [
        Player(city=[[[] for _ in range(board.cols)] for _ in range(board.rows)])
        for _ in range(seats)
    ]
    state = State(
        seats=seats,
        mode=mode,
        squares=bool(opts["squares"]),
        rng=rng.state,
        round=0,
        turn=1,
        index=0,
        phase="take",
        first=first,
        mayor=first,
        site=[[None] * SITE for _ in range(SITE)],
        face_up=[[False] * SITE for _ in range(SITE)],
        urbanist=None,
        slots=[],
        pool={},
        players=players,
    )
    start_round(state, 1)
    return state


def start_round(state: State, round_no: int) -> None:
    """Deal the round's 25 tiles at random, turn up those the player count allows (L89-97),
    give the architects back and let the Mayor start (L225)."""
    rng = Rng(state.rng)
    ids = list(round_tiles(state.mode, state.squares, round_no))
    rng.shuffle(ids)
    state.rng = rng.state
    state.round = round_no
    state.turn = 1
    state.index = 0
    state.phase = "take"
    state.first = state.mayor
    state.urbanist = None
    state.slots = []
    state.taken = None
    site: list[list[str | None]] = [[ids[r * SITE + c] for c in range(SITE)] for r in range(SITE)]
    state.site = site
    state.face_up = [[TILES[ids[r * SITE + c]].face_up(state.seats) for c in range(SITE)]
                     for r in range(SITE)]
    if state.mode == "classic":
        for p in state.players:
            p.architects = [1, 2, 3, 4]
        state.pool = {}
    else:
        for p in state.players:
            p.architects = []
        state.pool = {n: state.seats for n in range(1, EXPERT_ARCHITECTS + 1)}
