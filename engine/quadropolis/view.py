"""What one seat, or the public, may see, and the scrambler that proves it (RULINGS Q-views).

Quadropolis has no hands: everything is public except **the face-down tiles on the
construction site** (their spaces are shown, not their faces) and **the coming rounds'
tiles** (their layout comes from the seeded generator, never shown). A seat's view is
the public view plus ``me`` (its legal moves as text forms).

The JSON shape below is a contract with the renderers (``engine/quadropolis/render``)
and the templates: keys are only ever added, never renamed. Coordinates are 1-based,
``row`` from the top and ``col`` from the left, as in the text forms (``r2c3``).

Top level::

    game        "quadropolis"
    seat        the viewing seat, or null for the public/spectators
    seats       number of players (2-4)
    mode        "classic" | "expert"
    options     {"mode": "classic"|"expert", "squares": bool}
    round       current round, 1-based (4 rounds in classic, 5 in expert)
    rounds      4 | 5
    turn        turn within the round, 1..4 (every player plays once per turn)
    phase       "take" (place an architect) | "place" (put the taken tile) | "over"
    to_play     the seat that must decide now, or null when over
    first       the seat that started this round
    mayor       the seat holding the Mayor pawn (it starts the next round)
    site        5 rows of 5 spaces; a space is
                  null                         empty (taken, or nothing there)
                  {"face_down": true}          a face-down tile (its face is secret)
                  {"tile": TILE}               a face-up tile
    urbanist    [row, col] on the site, or null (off the board, start of a round)
    slots       the architects placed this round, in play order:
                  {"slot": "L4", "side": "left"|"right"|"top"|"bottom",
                   "line": 4,            # the row (left/right) or column (top/bottom)
                   "architect": 3,       # its number
                   "seat": 0,            # who played it
                   "target": [4, 3]}     # the site space it aimed at
                slot names: L<r>/R<r> at the left/right end of site row r,
                T<c>/B<c> at the top/bottom end of site column c
    architects  classic: {"per_seat": [[1, 2, 4], ...]}  numbers each seat still holds;
                expert:  {"pool": {"1": 4, "2": 3, ...}}  shared numbers still available
    city_board  {"rows": 4, "cols": 4|5,
                 "districts": [[1, 1, 2, 2], ...],        # district of each space
                 "space_numbers": [[2, 3, 1, 1, 3], ...] | null}   # expert only
    players     one per seat, in seat order:
                  {"seat": 0, "inhabitants": 5, "energy": 2,   # resources held
                   "mayor": false, "architects": [1, 2, 4] | null (expert),
                   "empty_spaces": 9, "tiles": 7,              # buildings' tiles placed
                   "score_now": 12,            # points if the game ended now
                   "city": 4 rows of cols cells; a cell is null (empty) or
                     {"type": "tower_block", "floors": 2,      # a stack counts as one building
                      "tiles": [TILE, TILE],                   # bottom to top
                      "top": TILE}}
    taken       the tile waiting to be placed (phase "place"), else null:
                  {"seat": 1, "architect": 3, "slot": "L4", "tile": TILE,
                   "options": ["r3c1", ..., "discard"]}
    last        the last move, for captions: {"seat", "action", "text"} or null
    left_on_site  how many face-up tiles are still on the site
    face_down   how many face-down tiles are on the site
    final       null until the game is over; then one entry per seat (see FINAL)
    me          only in a seat's view: {"legal": ["A3@L4", ...], "takes_nothing": the
                  legal takes aimed at an empty or face-down space (legal, but they
                  take nothing)}

TILE (a face-up tile; the same fields everywhere)::

    {"id": "1209", "type": "factory", "floors": 1 for tower_block/office else 0,
     "vp": 0, "inhabitants": 0, "energy": 2,            # printed gains when placed
     "cost": {"inhabitants": 1, "energy": 0},           # activation cost
     "mayor": false, "square": false, "mark": "none"|"3-4"|"4",
     "absorbs": 0|1}

    types: tower_block, shop, public_service, park, factory, harbor, office, monument
    (a square is a park with "square": true)

FINAL (``final[i]``, also the detail of the outcome): the chosen allocation::

    {"seat": 0, "rank": 1, "total": 31,
     "score": {"tower_blocks": 9, "shops": 4, "public_services": 7, "parks": 4,
               "factories": 5, "harbors": 3, "offices": 0, "monuments": 0,
               "penalty_inhabitants": -1, "penalty_energy": 0},
     "inhabitants": 8, "energy": 4,                     # held at the end
     "inhabitants_placed": 7, "energy_placed": 4,
     "unplaced_inhabitants": 1, "unplaced_energy": 0, "absorbed": 0,
     "empty_spaces": 3, "resources_placed": 11,
     "buildings": [                                      # every building, reading order
        {"row": 1, "col": 1, "type": "tower_block", "floors": 2, "vp": 0,
         "square": false,
         "active": true, "inhabitants": 0, "energy": 1, # resources placed on it
         "customers": 0, "absorbs": 0, "points": 3},    # (customers and absorbed
                                                        #  energy included)
        ...]}

    A removed (inactive) building has "active": false and no resources.

Example (public view, 2 players, classic, abridged)::

    {"game": "quadropolis", "seat": null, "seats": 2, "mode": "classic",
     "options": {"mode": "classic", "squares": false},
     "round": 1, "rounds": 4, "turn": 1, "phase": "take", "to_play": 1,
     "first": 0, "mayor": 0,
     "site": [[{"tile": {"id": "1101", "type": "tower_block", "floors": 1, "vp": 0,
                         "inhabitants": 2, "energy": 0,
                         "cost": {"inhabitants": 0, "energy": 1}, "mayor": false,
                         "square": false, "mark": "none", "absorbs": 0}},
               {"face_down": true}, null, ...], ...],
     "urbanist": [1, 3],
     "slots": [{"slot": "T3", "side": "top", "line": 3, "architect": 1, "seat": 0,
                "target": [1, 3]}],
     "architects": {"per_seat": [[2, 3, 4], [1, 2, 3, 4]]},
     "city_board": {"rows": 4, "cols": 4, "districts": [[1, 1, 2, 2], [1, 1, 2, 2],
                    [3, 3, 4, 4], [3, 3, 4, 4]], "space_numbers": null},
     "players": [{"seat": 0, "inhabitants": 2, "energy": 0, "mayor": true,
                  "architects": [2, 3, 4], "empty_spaces": 15, "tiles": 1,
                  "city": [[null, null, null, null],
                           [null, {"type": "tower_block", "floors": 1,
                                   "tiles": [...], "top": {...}}, null, null], ...]},
                 {"seat": 1, ...}],
     "taken": null, "last": {"seat": 0, "action": {...}, "text": "r2c2"},
     "left_on_site": 14, "face_down": 9, "final": null}
"""


from __future__ import annotations

from typing import Any

from engine.core.jsoncopy import json_copy
from engine.core.rng import Rng
from engine.quadropolis.actions import SIDE_NAMES
from engine.quadropolis.final import allocations, ranks
from engine.quadropolis.legal import legal_actions
from engine.quadropolis.rules import legal_placements, slot_target, takes_nothing
from engine.quadropolis.state import State
from engine.quadropolis.tiles import face


def _space(state: State, r: int, c: int) -> dict[str, Any] | None:
    tile = state.site[r][c]
    if tile is None:
        return None
    if not state.face_up[r][c]:
        return {"face_down": True}
    return {"tile": face(tile)}


def _cell(stack: list[str]) -> dict[str, Any]:
    """A non-empty stack; ``top`` is the last of ``tiles`` itself, not a copy of it."""
    tiles = [face(t) for t in stack]
    top = tiles[-1]
    return {"type": top["type"], "floors": len(stack), "tiles": tiles, "top": top}


def view(state: State, seat: int | None) -> dict[str, Any]:
    board = state.board
    # What each city would score if the game ended now (its best allocation): the text
    # view has no image to read the running score from.
    now = [a.total for a in allocations(state)]
    players = []
    for i, p in enumerate(state.players):
        # The city read once for its cells, empty spaces and tiles (issue 25).
        city = []
        empty = placed = 0
        for row in p.city:
            cells: list[dict[str, Any] | None] = []
            for stack in row:
                if stack:
                    placed += len(stack)
                    cells.append(_cell(stack))
                else:
                    empty += 1
                    cells.append(None)
            city.append(cells)
        players.append({
            "seat": i,
            "inhabitants": p.inhabitants,
            "energy": p.energy,
            "mayor": state.mayor == i,
            "architects": sorted(p.architects) if state.mode == "classic" else None,
            "empty_spaces": empty,
            "tiles": placed,
            "score_now": now[i],
            "city": city,
        })
    slots = []
    for s in state.slots:
        slot = str(s["slot"])
        slots.append({
            "slot": slot,
            "side": SIDE_NAMES[slot[0]],
            "line": int(slot[1:]),
            "architect": s["architect"],
            "seat": s["seat"],
            "target": list(slot_target(slot, int(s["architect"]))),
        })
    architects: dict[str, Any]
    if state.mode == "classic":
        architects = {"per_seat": [sorted(p.architects) for p in state.players]}
    else:
        architects = {"pool": {str(n): c for n, c in sorted(state.pool.items())}}
    taken: dict[str, Any] | None = None
    placing: int | None = None  # the seat placing the tile taken, if it is its move
    options: list[str] = []
    if state.taken is not None:
        t = state.taken
        options = [a.text() for a in legal_placements(state, int(t["seat"]))]
        taken = {
            "seat": t["seat"], "architect": t["architect"], "slot": t["slot"],
            "tile": face(str(t["tile"])), "options": options,
        }
        if state.phase == "place" and state.to_play == int(t["seat"]):
            placing = state.to_play
    site = [[_space(state, r, c) for c in range(5)] for r in range(5)]
    out: dict[str, Any] = {
        "game": "quadropolis",
        "seat": seat,
        "seats": state.seats,
        "mode": state.mode,
        "options": {"mode": state.mode, "squares": state.squares},
        "round": state.round,
        "rounds": state.rounds,
        "turn": state.turn,
        "phase": state.phase,
        "to_play": state.to_play,
        "first": state.first,
        "mayor": state.mayor,
        "site": site,
        "urbanist": None if state.urbanist is None else list(state.urbanist),
        "slots": slots,
        "architects": architects,
        "city_board": board.to_json(),
        "players": players,
        "taken": taken,
        "last": json_copy(state.last),
        "left_on_site": sum(1 for row in site for s in row if s is not None and "tile" in s),
        "face_down": sum(1 for row in site for s in row if s is not None and "face_down" in s),
        "final": final_view(state) if state.over else None,
    }
    if seat is not None and seat == placing:
        # Its legal moves are the placements listed above, none of them a take: not
        # worked out a second time (issue 25), but a list of its own for the caller.
        out["me"] = {"legal": list(options), "takes_nothing": []}
    elif seat is not None and 0 <= seat < state.seats:
        legal = legal_actions(state, seat)
        out["me"] = {"legal": [a.text() for a in legal],
                     "takes_nothing": [a.text() for a in legal if takes_nothing(state, a)]}
    return out


def final_view(state: State) -> list[dict[str, Any]]:
    allocs = allocations(state)
    rank = ranks(allocs)
    return [
        {"seat": seat, "rank": rank[seat], **a.to_json()}
        for seat, a in enumerate(allocs)
    ]


def scramble_hidden(state: State, seat: int | None, seed: int) -> State:
    """Re-deal what nobody may see: the face-down tiles among the face-down spaces, and
    the coming rounds (their layout comes from the generator, whose state is re-drawn)."""
    out = state.copy()
    rng = Rng.from_seed(seed)
    spaces = [(r, c) for r in range(5) for c in range(5)
              if out.site[r][c] is not None and not out.face_up[r][c]]
    tiles = [out.site[r][c] for r, c in spaces]
    rng.shuffle(tiles)
    for (r, c), t in zip(spaces, tiles, strict=True):
        out.site[r][c] = t
    out.rng = rng.next_u64()
    return out
