"""Setup, the turn rotation, legal placements and applying them (S1-S4, S6, S7)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from engine.core.errors import BadOptions, IllegalAction, NotYourTurn, ParseError
from engine.core.protocol import Event
from engine.core.rng import Rng
from engine.skybridge.actions import Place, Typed
from engine.skybridge.board import Board, Refusal
from engine.skybridge.pieces import BLOCKS, COLOURS, EXTRA_PER_SEAT, KINDS, PER_COLOUR, Kind
from engine.skybridge.scoring import seat_totals
from engine.skybridge.seating import fourth_colour, rotation, seat_colours
from engine.skybridge.state import SkybridgeState, Slot

MIN_SEATS: Final = 2
MAX_SEATS: Final = 4

DEFAULT_OPTIONS: Final[dict[str, bool]] = {
    # 2 players only: pick either of your colours each turn instead of A1 B1 A2 B2 (S6).
    "choose_colour": False,
    # A player who cannot place is out for good, instead of skipped this turn (S7).
    "elimination": False,
}

KIND_NAMES: Final[dict[Kind, str]] = {
    "block3": "3-storey block",
    "block2": "2-storey block",
    "bridge": "bridge",
    "roof": "roof",
}


def validate_options(seats: int, options: Mapping[str, Any]) -> dict[str, bool]:
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise BadOptions(f"Skybridge is for {MIN_SEATS} to {MAX_SEATS} players, not {seats}.")
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise BadOptions(
            f"Unknown Skybridge option(s): {', '.join(unknown)}. "
            f"Known: {', '.join(DEFAULT_OPTIONS)}."
        )
    merged = dict(DEFAULT_OPTIONS)
    for key, value in options.items():
        if not isinstance(value, bool):
            raise BadOptions(f"Option {key} is on or off (true/false), not {value!r}.")
        merged[key] = value
    if merged["choose_colour"] and seats != 2:
        raise BadOptions("choose_colour is for the 2-player game, where each player has 2 colours.")
    return merged


def new_state(seats: int, options: Mapping[str, Any], seed: int) -> SkybridgeState:
    opts = validate_options(seats, options)
    rng = Rng.from_seed(seed)
    first = rng.randbelow(seats)
    owned = [c for colours in seat_colours(seats) for c in colours]
    return SkybridgeState(
        seats=seats,
        options=opts,
        rng=rng.state,
        first=first,
        board=Board(),
        supply={c: dict(PER_COLOUR) for c in COLOURS if c in owned},
        extra=[dict(EXTRA_PER_SEAT) for _ in range(seats)] if seats == 3 else [],
        turn=0,
    )


def current_slot(state: SkybridgeState) -> Slot | None:
    return None if state.turn is None else rotation(state)[state.turn]


def slot_colours(state: SkybridgeState, slot: Slot) -> list[str]:
    return [slot.colour] if slot.colour is not None else seat_colours(state.seats)[slot.seat]


def slot_moves(state: SkybridgeState, slot: Slot) -> list[Place]:
    return list(_moves(state, slot))


def can_place(state: SkybridgeState, slot: Slot) -> bool:
    return next(_moves(state, slot), None) is not None


def _moves(state: SkybridgeState, slot: Slot) -> Iterator[Place]:
    """Lazily, so that "can this slot place at all?" stops at the first move."""
    board = state.board
    shown = slot.colour is None  # choose_colour: the action names its colour
    for colour in slot_colours(state, slot):
        for kind in KINDS:
            if state.supply[colour][kind] > 0:
                for at in board.spots(colour, kind):
                    yield Place(kind, at, colour if shown else None)
    fourth = fourth_colour(state.seats)
    if fourth is not None:
        for kind in BLOCKS:
            if state.extra[slot.seat][kind] > 0:
                for at in board.spots(fourth, kind):
                    yield Place(kind, at, None, True)


def legal_moves(state: SkybridgeState, seat: int) -> list[Place]:
    slot = current_slot(state)
    if slot is None or slot.seat != seat:
        return []
    return slot_moves(state, slot)


def play(state: SkybridgeState, seat: int, action: Place) -> list[Event]:
    """Apply one placement, then pass the turn on (skipping seats that cannot place)."""
    slot = current_slot(state)
    if slot is None:
        raise NotYourTurn("The game is over.", code="game_over")
    if slot.seat != seat:
        raise NotYourTurn(f"It is seat {slot.seat + 1}'s turn, not yours.",
                          code="not_your_turn", seat=slot.seat)
    legal = slot_moves(state, slot)
    if action not in legal:
        why = _why_illegal(state, slot, action)
        raise IllegalAction(why.message, code=why.code, legal=[a.text() for a in legal[:20]])
    colour = piece_colour(state, slot, action)
    pool = state.extra[seat] if action.extra else state.supply[colour]
    pool[action.kind] -= 1
    state.board.place(colour, action.kind, action.at)
    state.last = {
        "seat": seat,
        "colour": colour,
        "kind": action.kind,
        "at": list(action.at),
        "extra": action.extra,
    }
    events = [_placed_event(state, seat, colour, action)]
    events.extend(_pass_turn(state))
    return events


def piece_colour(state: SkybridgeState, slot: Slot, action: Place) -> str:
    """The colour of the piece ``action`` puts down when ``slot`` plays it."""
    if action.extra:
        fourth = fourth_colour(state.seats)
        assert fourth is not None
        return fourth
    colour = action.colour if slot.colour is None else slot.colour
    assert colour is not None
    return colour


def _placed_event(state: SkybridgeState, seat: int, colour: str, action: Place) -> Event:
    board = state.board
    if action.kind == "bridge":
        a, b = action.at
        return Event(
            "bridge_placed",
            {"seat": seat, "colour": colour, "foundations": [a, b], "height": board.height(a)},
        )
    (f,) = action.at
    if action.kind == "roof":
        return Event(
            "roof_placed",
            {"seat": seat, "colour": colour, "foundation": f, "storeys": board.height(f)},
        )
    return Event(
        "block_placed",
        {
            "seat": seat,
            "colour": colour,
            "storeys": 3 if action.kind == "block3" else 2,
            "foundation": f,
            "extra": action.extra,
            "height": board.height(f),
        },
    )


def _pass_turn(state: SkybridgeState) -> list[Event]:
    assert state.turn is not None
    ring = rotation(state)
    skipped: list[Event] = []
    out: list[int] = []
    for step in range(1, len(ring) + 1):
        index = (state.turn + step) % len(ring)
        if index in state.eliminated:
            continue
        slot = ring[index]
        if can_place(state, slot):
            state.turn = index
            state.eliminated.extend(out)
            return skipped
        if state.options["elimination"]:
            out.append(index)
        skipped.append(
            Event(
                "turn_skipped",
                {
                    "seat": slot.seat,
                    "colours": slot_colours(state, slot),
                    "eliminated": bool(state.options["elimination"]),
                },
            )
        )
    # Nobody can place: the game ends (S7); the skips of this last round say nothing new.
    state.turn = None
    totals = seat_totals(state.board, state.seats)
    best = max(totals)
    return [
        Event(
            "game_over",
            {"totals": totals, "winners": [s for s, t in enumerate(totals) if t == best]},
        )
    ]


def _why_illegal(state: SkybridgeState, slot: Slot, action: Place) -> Refusal:
    """The first rule ``action`` breaks, with a stable code (see board.Refusal)."""
    fourth = fourth_colour(state.seats)
    if action.extra:
        if fourth is None:
            return Refusal("no_fourth_colour", "Fourth-colour blocks are for 3 players only.")
        colour = fourth
        if state.extra[slot.seat].get(action.kind, 0) <= 0:
            return Refusal("none_left", f"You have no {fourth} {KIND_NAMES[action.kind]} left.")
    else:
        mine = slot_colours(state, slot)
        if slot.colour is None:
            if action.colour is None:
                return Refusal("which_colour", f"Say which colour you play: {' or '.join(mine)}.")
            colour = action.colour
        else:
            if action.colour is not None and action.colour != slot.colour:
                return Refusal(
                    "wrong_colour", f"This turn you play {slot.colour}, not {action.colour}."
                )
            colour = slot.colour
        if colour not in mine:
            return Refusal("not_your_colour", f"You play {' and '.join(mine)}, not {colour}.")
        if state.supply[colour][action.kind] <= 0:
            return Refusal("none_left", f"You have no {colour} {KIND_NAMES[action.kind]} left.")
    try:
        state.board.check(colour, action.kind, action.at)
    except Refusal as refusal:
        return refusal
    return Refusal("illegal", f"{action.text()} is not possible now.")


def resolve_typed(state: SkybridgeState, seat: int, typed: Typed) -> Place:
    """Fill in what the text left to the rules: the colour, and fourth-colour blocks."""
    place, word = typed.place, typed.colour_word
    fourth = fourth_colour(state.seats)
    mine = seat_colours(state.seats)[seat]
    if place.extra or (word is not None and word == fourth):
        if fourth is None:
            raise ParseError("Fourth-colour blocks (x3@5, x2@5) exist only in the 3-player game.",
                             code="no_fourth_colour")
        if place.kind not in BLOCKS:
            raise ParseError(f"Only blocks come in the fourth colour ({fourth}).",
                             code="fourth_not_block", colour=fourth)
        return Place(place.kind, place.at, None, True)
    if word is not None and word not in mine:
        raise ParseError(f"You play {' and '.join(mine)}, not {word}.", code="not_your_colour",
                         mine=list(mine), colour=word)
    if not state.options["choose_colour"]:
        slot = current_slot(state)
        if word is not None and slot is not None and slot.seat == seat and word != slot.colour:
            raise ParseError(f"This turn you play {slot.colour}; write it without {word}.",
                             code="wrong_colour", colour=slot.colour, typed=word)
        return place
    if word is not None:
        return Place(place.kind, place.at, word)
    legal = legal_moves(state, seat)
    fits = [c for c in mine if Place(place.kind, place.at, c) in legal]
    if len(fits) > 1:
        options = " or ".join(Place(place.kind, place.at, c).text() for c in fits)
        raise ParseError(f"Both your colours can do that: write {options}.",
                         code="both_colours", options=[Place(place.kind, place.at, c).text()
                                                       for c in fits])
    if fits:
        return Place(place.kind, place.at, fits[0])
    stocked = [c for c in mine if state.supply[c][place.kind] > 0] or mine
    return Place(place.kind, place.at, stocked[0])
