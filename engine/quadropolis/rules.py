"""The rules of a turn: where an architect may go, where a tile may be placed, and the
changes a move makes (take, move the Urbanist, place, gains, end of round)."""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.protocol import Event
from engine.quadropolis.actions import SIDE_NAMES, SLOTS, Discard, Place, QAction, Take
from engine.quadropolis.setup import TURNS_PER_ROUND, start_round
from engine.quadropolis.state import SITE, State
from engine.quadropolis.tiles import TILES


@cache
def slot_target(slot: str, architect: int) -> tuple[int, int]:
    """The site space that architect N at ``slot`` points at: the N-th from that end (L141).
    Cached (a few hundred pairs at most): a seat's view asks it for every take (issue 25)."""
    side, line = slot[0], int(slot[1:])
    if side == "L":
        return line, architect
    if side == "R":
        return line, SITE + 1 - architect
    if side == "T":
        return architect, line
    return SITE + 1 - architect, line


def faces_urbanist(slot: str, urbanist: tuple[int, int] | None) -> bool:
    """A slot facing the Urbanist's row or column anywhere is forbidden (L139; Q2)."""
    if urbanist is None:
        return False  # off the board at a round's start (Q4)
    side, line = slot[0], int(slot[1:])
    return urbanist[0] == line if side in "LR" else urbanist[1] == line


def architects_available(state: State, seat: int) -> list[int]:
    if state.mode == "classic":
        return sorted(state.players[seat].architects)
    return sorted(n for n, count in state.pool.items() if count > 0)


def legal_takes(state: State, seat: int) -> list[Take]:
    if state.phase != "take" or state.to_play != seat:
        return []
    used = {s["slot"] for s in state.slots}
    free = [s for s in SLOTS if s not in used and not faces_urbanist(s, state.urbanist)]
    return [Take(n, s) for n in architects_available(state, seat) for s in free]


def takes_nothing(state: State, action: QAction) -> bool:
    """Whether ``action`` is a take aimed at an empty or face-down site space: legal (Q3),
    at times the only move, but a player should know before choosing it."""
    if not isinstance(action, Take) or state.phase != "take":
        return False
    row, col = slot_target(action.slot, action.architect)
    return state.site[row - 1][col - 1] is None or not state.face_up[row - 1][col - 1]


def can_place(state: State, seat: int, tile_id: str, architect: int, row: int, col: int) -> str:
    """'' if the tile may go on (row, col), else a refusal code (see ``refuse_place``)."""
    board = state.board
    if not (1 <= row <= board.rows and 1 <= col <= board.cols):
        return "off_city"
    tile = TILES[tile_id]
    stack = state.players[seat].city[row - 1][col - 1]
    if board.space_numbers is None:
        in_line = row == architect or col == architect
    else:
        in_line = (
            board.space_numbers[row - 1][col - 1] == architect
            or board.districts[row - 1][col - 1] == architect
        )
    if not stack:
        return "" if in_line else "not_in_line"
    top = TILES[stack[-1]]
    if not tile.stackable or top.type != tile.type:
        return "occupied"
    if len(stack) >= state.tables.max_floors:
        return "stack_full"
    # Q5: a stack is eligible in row/column N (expert: space/district N) or as floor N.
    return "" if in_line or len(stack) + 1 == architect else "not_in_line"


def legal_placements(state: State, seat: int) -> list[QAction]:
    taken = state.taken
    if state.phase != "place" or taken is None or taken["seat"] != seat:
        return []
    board = state.board
    out: list[QAction] = [
        Place(r, c)
        for r in range(1, board.rows + 1)
        for c in range(1, board.cols + 1)
        if not can_place(state, seat, taken["tile"], taken["architect"], r, c)
    ]
    out.append(Discard())
    return out


def legal_actions(state: State, seat: int) -> list[QAction]:
    if state.phase == "take":
        return list(legal_takes(state, seat))
    if state.phase == "place":
        return legal_placements(state, seat)
    return []


def play(state: State, seat: int, action: QAction) -> list[Event]:
    """Apply one action; raises before changing anything if it is not allowed."""
    if state.over:
        raise NotYourTurn("The game is over.", code="game_over")
    if not 0 <= seat < state.seats or state.to_play != seat:
        raise NotYourTurn(
            "It is not your turn.", code="not_your_turn", to_play=state.to_play,
        )
    if isinstance(action, Take):
        return _take(state, seat, action)
    return _place(state, seat, action)


def _take(state: State, seat: int, action: Take) -> list[Event]:
    if state.phase != "take":
        raise IllegalAction(
            "Place the tile you took first (r2c3) or discard it.", code="place_first",
        )
    n, slot = action.architect, action.slot
    if n not in architects_available(state, seat):
        if state.mode == "classic":
            raise IllegalAction(
                f"You have no architect {n} left this round.", code="architect_used",
                architect=n, available=architects_available(state, seat),
            )
        raise IllegalAction(
            f"No architect {n} is left in the pool this round.", code="architect_used",
            architect=n, available=architects_available(state, seat),
        )
    if any(s["slot"] == slot for s in state.slots):
        raise IllegalAction(
            f"An architect already stands at {slot}.", code="slot_taken", slot=slot,
        )
    if faces_urbanist(slot, state.urbanist):
        raise IllegalAction(
            f"Slot {slot} faces the Urbanist's line.", code="urbanist_line", slot=slot,
        )
    row, col = slot_target(slot, n)
    tile_id = state.site[row - 1][col - 1]
    face_up = state.face_up[row - 1][col - 1]
    if state.mode == "classic":
        state.players[seat].architects.remove(n)
    else:
        state.pool[n] -= 1
    state.slots.append({"slot": slot, "architect": n, "seat": seat})
    state.urbanist = (row, col)
    state.last = {"seat": seat, "action": action.to_json(), "text": action.text()}
    data: dict[str, Any] = {
        "seat": seat, "architect": n, "slot": slot, "side": SIDE_NAMES[slot[0]],
        "line": int(slot[1:]), "row": row, "col": col,
    }
    if tile_id is None or not face_up:
        # Q3: nothing to take; the Urbanist still moves there and the architect is spent.
        data.update(what="face_down" if tile_id is not None else "empty", tile=None, type=None)
        events = [Event("took", data)]
        events += _next(state)
        return events
    state.site[row - 1][col - 1] = None
    state.taken = {"seat": seat, "architect": n, "slot": slot, "tile": tile_id}
    state.phase = "place"
    tile = TILES[tile_id]
    data.update(what="tile", tile=tile_id, type=tile.type)
    return [Event("took", data)]


def _place(state: State, seat: int, action: QAction) -> list[Event]:
    taken = state.taken
    if state.phase != "place" or taken is None:
        raise IllegalAction(
            "First take a tile with an architect (A3@L4).", code="take_first",
        )
    tile_id = str(taken["tile"])
    tile = TILES[tile_id]
    if isinstance(action, Discard):
        state.discards.append(tile_id)
        state.taken = None
        state.last = {"seat": seat, "action": action.to_json(), "text": action.text()}
        events = [Event("discarded", {"seat": seat, "tile": tile_id, "type": tile.type})]
        return events + _next(state)
    assert isinstance(action, Place)
    architect = int(taken["architect"])
    why = can_place(state, seat, tile_id, architect, action.row, action.col)
    if why:
        raise refuse_place(state, why, tile_id, architect, action)
    player = state.players[seat]
    stack = player.city[action.row - 1][action.col - 1]
    stack.append(tile_id)
    player.inhabitants += tile.inhabitants
    player.energy += tile.energy
    mayor = tile.mayor and state.mayor != seat
    if tile.mayor:
        state.mayor = seat  # L207: at once; the next round starts with this seat
    state.taken = None
    state.last = {"seat": seat, "action": action.to_json(), "text": action.text()}
    events = [
        Event("placed", {
            "seat": seat, "tile": tile_id, "type": tile.type, "row": action.row,
            "col": action.col, "floor": len(stack), "inhabitants": tile.inhabitants,
            "energy": tile.energy, "mayor": tile.mayor, "new_mayor": mayor,
        })
    ]
    return events + _next(state)


def refuse_place(
    state: State, why: str, tile_id: str, architect: int, action: Place
) -> IllegalAction:
    where = action.text()
    seat = int(state.taken["seat"]) if state.taken else -1
    options = [a.text() for a in legal_placements(state, seat)]
    params: dict[str, Any] = {
        "space": where, "architect": architect, "options": options, "mode": state.mode,
        "type": TILES[tile_id].type,
    }
    if why == "off_city":
        board = state.board
        return IllegalAction(
            f"Your city has {board.rows} rows and {board.cols} columns; {where} is outside it.",
            code="off_city", rows=board.rows, cols=board.cols, **params,
        )
    if why == "occupied":
        return IllegalAction(
            f"{where} is taken, and a {TILES[tile_id].type.replace('_', ' ')} cannot go on top "
            "of that building.",
            code="occupied", **params,
        )
    if why == "stack_full":
        return IllegalAction(
            f"The stack on {where} already has {state.tables.max_floors} floors.",
            code="stack_full", max=state.tables.max_floors, **params,
        )
    if state.mode == "classic":
        message = f"With architect {architect}, place in row {architect} or column {architect}"
    else:
        message = f"With architect {architect}, place on a space numbered {architect} or in " \
            f"district {architect}"
    return IllegalAction(
        f"{message} (or build floor {architect} of a stack); {where} is not allowed.",
        code="not_in_line", **params,
    )


def _next(state: State) -> list[Event]:
    """Pass the turn on; at the end of a round clear the site, then deal the next one."""
    state.phase = "take"
    state.index += 1
    if state.index < state.seats:
        return []
    state.index = 0
    state.turn += 1
    if state.turn <= TURNS_PER_ROUND:
        return []
    # End of the round (L130-132): untaken tiles go back to the box, the Urbanist leaves.
    left = [t for row in state.site for t in row if t is not None]
    state.box.extend(left)
    ended = state.round
    events = [Event("round_end", {"round": ended, "left": len(left)})]
    if ended >= state.rounds:
        state.site = [[None] * SITE for _ in range(SITE)]
        state.face_up = [[False] * SITE for _ in range(SITE)]
        state.urbanist = None
        state.slots = []
        state.phase = "over"
        return events
    start_round(state, ended + 1)
    face_down = sum(1 for row in state.face_up for f in row if not f)
    events.append(
        Event("round", {"round": state.round, "first": state.first, "face_down": face_down})
    )
    return events
