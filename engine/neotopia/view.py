"""What one seat, or the public, may see of a Neotopia table: the JSON shape that the
renderers (``engine/neotopia/render/``), templates and transports read.

Secret: every hand (a seat sees only its own), the order of the project deck, the
order of the production stack (and the tiles put back in the box), the bonus tokens
below the top of each pile. Everything else is public: the board, the elements, the
tokens on bonus cells, the tops of the piles, the manufactures, the reserve, the
tracks, the offer, the counts of cards, tiles and tokens, the tokens each player holds.

The shape is fixed; later versions only add keys. All lists are in a stable order
(cells in data order, regions clockwise from the data set, seats ascending).

``view(state, seat)`` returns::

    {
      "game": "neotopia",
      "seats": 4,                          # number of players
      "viewer": 2,                         # the seat this view is for, or null (public)
      "options": {"dataset": "house", "mirror": false, "second_lap_bonus": false},
      "data_set": {"id": "neotopia-house-1", "kind": "house",
                   "note_en": "...", "note_fr": "..."},   # 'house': not the printed set
      "colours": [                         # the 4 element colours, data order
        {"id": "R", "name": "red", "rgb": [200, 52, 44],
         "element_en": "Sustainable Energy", "element_fr": "Énergie renouvelable",
         "seat": 0},                       # the seat playing this colour, or null
        ...
      ],
      "phase": "start" | "play" | "over",  # start = the starting elements (N3)
      "board": {
        "grid": "hex",                     # axial (q, r), flat-top;
                                           # x = 1.5 q, y = sqrt(3) (r + q / 2), y down
        "production_slot": [0, 0],         # (q, r) of the tile stack
        "regions": [
          {"id": "desert", "letter": "D", "name_en": "desert region",
           "name_fr": "région désertique", "centre": "D00",
           "manufactures": ["DA", "FD"],
           "last_project": {"card": "C22", "type": "RG", "seat": 1} | null,
           "projects": [{"card": "C26", "type": "RP", "seat": 2}, ...],  # oldest first
           "elements": 10},                # elements on this region's cells
          ...
        ],
        "cells": [
          {"id": "D11", "region": "desert", "q": 1, "r": -3, "x": 1.5, "y": -4.33,
           "kind": "bonus",                # "centre" | "bonus" | "outer" | "normal"
           "centre": false, "bonus": true, "outer": false,
           "element": "P" | null,          # colour id of the element on the cell
           "element_rgb": [120, 70, 170] | null,
           "bonus_token": "building_permits" | null},  # face-up token still on the cell
          ...                              # every cell of the data set (129 in the house set)
        ],
        "manufactures": [
          {"id": "DA", "regions": ["desert", "aquatic"],
           "elements": ["R", "G"],         # colour ids, in colour order (a multiset)
           "slots": [[2, -2], [3, -3], [4, -4], [5, -5]]},  # (q, r) to draw up to 4 elements
          ...
        ],
      },
      "production": {
        "stack_size": 9,                   # tiles still in the stack, flag tile included
        "on_top": ["B", "B", "R", "P"],    # elements waiting on the top tile
        "centre": [],                      # the flag tile's 4 elements once it is turned
        "centre_used": false,              # the centre elements went to a manufacture
        "discarded": [{"id": "P01", "back": ["R", "R", "G", "B"]}, ...],  # turned, in order
        "removed": 0,                      # tiles put back in the box (2-3 players)
        "flag_turned": false,
      },
      "reserve": {"R": 15, "G": 17, "P": 19, "B": 17},
      "bonus_types": [{"id": "subsidy", "name_en": "Government Subsidy",
                       "name_fr": "Subvention gouvernementale", "effect_en": "..."}, ...],
      "bonus_piles": [{"region": "desert", "size": 4, "top": "subsidy" | null}, ...],
      "tracks": [                          # one score track per region
        {"region": "desert", "length": 20, "thresholds": [7, 13, 18],
         "scores": [{"seat": 0, "colour": "R", "score": 22, "laps": 1, "space": 2}, ...]},
        ...
      ],
      "offer": [CARD, ...],                # face-up projects (fewer than 4 mid-turn)
      "deck_size": 37,
      "players": [
        {"seat": 0, "colour": "R", "first_player": true,
         "character": {"colour": "R", "name": "red", "rgb": [200, 52, 44]},  # character card
         "hand_size": 3,
         "hand": [CARD, ...] | null,       # only in the viewer's own entry, else null
         "tokens": ["automation"],         # bonus tokens held (face up), not yet used
         "tokens_used": ["building_permits"],
         "projects": ["C44", "C49"],       # projects built, oldest first
         "scores": {"desert": 4, "aquatic": 2, "forest": 8}},
        ...
      ],
      "turn": {                            # null once the game is over
        "seat": 3, "round": 5,             # round 0 is the starting-element round
        "actions_left": 2, "bonus_used": false,
        "stage": "turn",                   # what the seat decides now: "start" | "turn" |
                                           # "place" | "build" | "subsidy" | "automation" |
                                           # "initiative" | "permits"
        "bonus": "building_permits" | null,  # the bonus being spent in this stage
        "taking": {"source": "FD", "colour": "P"} | null,  # element chosen, to place
        "draws_left": 0,                   # Government Subsidy draws still owed
      } | null,
      "end": {"triggered": false, "final_round": null | 6, "reason": null | "flag" | "stall"},
      "last": {"seat": 3, "text": "FD:P"} | null,   # the last action applied
      "legal": ["draw C10", "draw deck", "FD:P", ...],  # only in a seat's own view
      "final": null | [                    # once over: the score pad, per seat
        {"seat": 3, "colour": "B", "rank": 1, "total": 80,
         "regions": {"desert": {"track": 18, "group": 4, "total": 22}, ...},
         "best": {"region": "desert", "points": 22},
         "second": {"region": "forest", "points": 19},
         "worst": {"region": "aquatic", "points": 11, "x3": 33},
         "tokens": {"count": 2, "points": 6},
         "tie_break": [11, 19, 22]},
        ...
      ],
    }

CARD (a project card)::

    {"id": "C44", "type": "PG", "type_name_en": "Agritech centre",
     "type_name_fr": "Centre agritech",
     "points": 4 | {"own_colour": 2, "other_colour": 4},
     "building": "P" | null,               # building cards: the building's colour
     "pattern": [[0, 0, "P"], [0, 1, "G"], ...],   # [dq, dr, colour] in board axes
     "size": 5,
     "drawing": [" P G", "P G P"],         # the pattern in text (engine/neotopia/textview.py)
     "status": {...}}                      # hand cards only: textview.card_status

The board also holds ``"map": [{"region": "desert", "lines": ["   42o ...", ...]}, ...]``,
each region drawn in text with its cell numbers and what is on them (textview.py).
"""

from __future__ import annotations

import math
from typing import Any

from engine.neotopia import textview
from engine.neotopia.data import DataSet, derived_from
from engine.neotopia.legal import legal_actions
from engine.neotopia.scoring import outcome, pad
from engine.neotopia.state import NeotopiaState

RGB: dict[str, list[int]] = {
    "red": [200, 52, 44], "green": [60, 150, 70], "purple": [120, 70, 170],
    "blue": [40, 100, 190],
}
HOUSE_NOTE_EN = ("The board, project cards and production tiles are a documented house set "
                 "built to the rulebook's constraints, not the printed components.")
HOUSE_NOTE_FR = ("Le plateau, les cartes projet et les tuiles production forment un jeu "
                 "maison documenté, construit selon les contraintes de la règle, et non le "
                 "matériel imprimé.")


class _Static:
    """The parts of a view that only the data set decides, made once per data set: each
    cell's fixed keys, each colour's RGB, each card's JSON (its drawing included), each
    tile's back. A view copies them (a view never shares a list or a dict with another)."""

    def __init__(self, data: DataSet) -> None:
        self.data = data
        names = {c.id: c.name for c in data.colours}
        self.rgb: dict[str, list[int]] = {
            c: list(RGB.get(name, [128, 128, 128])) for c, name in names.items()}
        # Each cell's keys, in the view's order, as on a cell with no element nor token.
        self.cells: list[tuple[str, dict[str, Any]]] = [
            (cell.id, {
                "id": cell.id, "region": cell.region, "q": cell.q, "r": cell.r,
                "x": round(1.5 * cell.q, 4),
                "y": round(math.sqrt(3) * (cell.r + cell.q / 2), 4),
                "kind": cell.kind, "centre": cell.kind == "centre",
                "bonus": cell.kind == "bonus", "outer": cell.kind == "outer",
                "element": None, "element_rgb": None, "bonus_token": None})
            for cell in data.cells.values()]
        self.position = {cell_id: n for n, (cell_id, _) in enumerate(self.cells)}
        self.cards: dict[str, dict[str, Any]] = {}
        self.tile_backs = {t.id: list(t.back) for t in data.tiles}

    def card(self, card_id: str) -> dict[str, Any]:
        made = self.cards.get(card_id)
        if made is None:
            made = self.cards[card_id] = _card_json(self.data, card_id)
        points = made["points"]
        return {**made, "points": dict(points) if isinstance(points, dict) else points,
                "pattern": [list(p) for p in made["pattern"]],
                "drawing": list(made["drawing"])}


_static = derived_from(_Static)


def _card_json(data: DataSet, card_id: str) -> dict[str, Any]:
    card = data.cards[card_id]
    ptype = data.types[card.type]
    points: int | dict[str, int] = card.points if card.points is not None else {
        "own_colour": data.building_own, "other_colour": data.building_other}
    return {
        "id": card.id, "type": card.type, "type_name_en": ptype.name_en,
        "type_name_fr": ptype.name_fr, "points": points, "building": card.building,
        "pattern": [[q, r, c] for q, r, c in card.pattern], "size": len(card.pattern),
        "drawing": textview.pattern_lines(data.grid, card.pattern),
    }


def card_json(data: DataSet, card_id: str) -> dict[str, Any]:
    return _static(data).card(card_id)


def _hand(st: NeotopiaState, seat: int, regions: dict[str, textview.RegionBoard]
          ) -> list[dict[str, Any]]:
    data = st.data
    static = _static(data)
    last = {r.id: (data.cards[c].type if (c := st.last_project(r.id)) else None)
            for r in data.regions}
    hand = st.hands[seat]
    statuses = textview.card_statuses(data, st.board, last, hand, bool(st.options["mirror"]),
                                      regions)
    out = []
    for c, status in zip(hand, statuses, strict=True):
        card = static.card(c)  # a copy of its own, and the status after its other keys
        card["status"] = status
        out.append(card)
    return out


def _rgb(data: DataSet, colour: str | None) -> list[int] | None:
    if colour is None:
        return None
    rgb = _static(data).rgb.get(colour)
    if rgb is None:
        # Not a colour of the data set: the lookup the view always made, which fails.
        name = next(c.name for c in data.colours if c.id == colour)
        return list(RGB.get(name, [128, 128, 128]))
    return list(rgb)


def view(st: NeotopiaState, seat: int | None) -> dict[str, Any]:
    data = st.data
    static = _static(data)
    board, tokens, rgb = st.board, st.cell_tokens, static.rgb
    elements = textview.region_boards(data, board)
    regions = []
    for reg in data.regions:
        projects = [
            {"card": b["card"], "type": data.cards[b["card"]].type, "seat": b["seat"]}
            for b in st.built if b["region"] == reg.id
        ]
        regions.append({
            "id": reg.id, "letter": reg.letter, "name_en": reg.name_en, "name_fr": reg.name_fr,
            "centre": reg.centre, "manufactures": list(reg.manufactures),
            "last_project": projects[-1] if projects else None, "projects": projects,
            # The region's cells on the board: one bit each, in one colour's mask.
            "elements": sum(cells.bit_count() for _, cells in elements[reg.id]),
        })
    # Every cell as on an empty board, then the elements and tokens put on theirs.
    cells = [free.copy() for _, free in static.cells]
    at = static.position
    for cell_id, element in board.items():
        n = at.get(cell_id)
        if n is not None and element is not None:
            cell = cells[n]
            cell["element"] = element
            colour = rgb.get(element)
            cell["element_rgb"] = _rgb(data, element) if colour is None else colour[:]
    for cell_id, token in tokens.items():
        n = at.get(cell_id)
        if n is not None and token is not None:
            cells[n]["bonus_token"] = token
    tile_backs = static.tile_backs
    out: dict[str, Any] = {
        "game": "neotopia",
        "seats": st.seats,
        "viewer": seat,
        "options": dict(st.options),
        "data_set": {"id": data.id, "kind": data.kind,
                     "note_en": HOUSE_NOTE_EN if data.kind == "house" else data.source,
                     "note_fr": HOUSE_NOTE_FR if data.kind == "house" else data.source},
        "colours": [
            {"id": c.id, "name": c.name, "rgb": _rgb(data, c.id), "element_en": c.element_en,
             "element_fr": c.element_fr, "seat": st.seat_of(c.id)}
            for c in data.colours
        ],
        "phase": st.phase,
        "board": {
            "grid": data.grid,
            "production_slot": list(data.production_slot),
            "regions": regions,
            "cells": cells,
            "manufactures": [
                {"id": m.id, "regions": list(m.regions), "elements": list(st.manufactures[m.id]),
                 "slots": [list(s) for s in m.slots]}
                for m in data.manufactures
            ],
            "map": [{"region": r.id, "lines": textview.region_map(
                data, st.board, st.cell_tokens, r.id, elements[r.id])} for r in data.regions],
        },
        "production": {
            "stack_size": len(st.stack), "on_top": list(st.on_top), "centre": list(st.centre),
            "centre_used": st.centre_used,
            "discarded": [{"id": t, "back": list(tile_backs[t])} for t in st.discarded],
            "removed": len(st.removed), "flag_turned": st.flag_turned,
        },
        "reserve": dict(st.reserve),
        "bonus_types": [{"id": b.id, "name_en": b.name_en, "name_fr": b.name_fr,
                         "effect_en": b.effect} for b in data.bonus_types],
        "bonus_piles": [{"region": r.id, "size": len(st.piles[r.id]),
                         "top": st.piles[r.id][0] if st.piles[r.id] else None}
                        for r in data.regions],
        "tracks": [
            {"region": r.id, "length": data.track_length, "thresholds": list(data.thresholds),
             "scores": [_marker(data, st.scores[s][r.id], s) for s in range(st.seats)]}
            for r in data.regions
        ],
        "offer": [card_json(data, c) for c in st.offer],
        "deck_size": len(st.deck),
        "players": [
            {"seat": s, "colour": st.colour_of(s), "first_player": s == st.first,
             "character": {"colour": st.colour_of(s), "name": data.colours[s].name,
                           "rgb": _rgb(data, st.colour_of(s))},
             "hand_size": len(st.hands[s]),
             "hand": _hand(st, s, elements) if s == seat else None,
             "tokens": list(st.tokens[s]), "tokens_used": list(st.used_tokens[s]),
             "projects": [b["card"] for b in st.built if b["seat"] == s],
             "scores": dict(st.scores[s])}
            for s in range(st.seats)
        ],
        "turn": None if st.over else {
            "seat": st.current, "round": st.round, "actions_left": st.actions_left,
            "bonus_used": st.bonus_used, "stage": st.stage, "bonus": st.bonus,
            "taking": dict(st.taking) if st.taking else None, "draws_left": st.draws_left,
        },
        "end": {"triggered": st.flag_turned, "final_round": st.final_round,
                "reason": st.end_reason},
        "last": dict(st.last) if st.last else None,
        "final": None,
    }
    if st.over:
        final = []
        ranks = {}
        for standing in outcome(st).standings:
            ranks[standing.seat] = standing.rank
        for s in range(st.seats):
            final.append({**pad(st, s), "rank": ranks[s]})
        out["final"] = final
    if seat is not None:
        out["legal"] = [a.text() for a in legal_actions(st, seat)]
    return out


def _marker(data: DataSet, score: int, seat: int) -> dict[str, Any]:
    length = data.track_length
    laps = (score - 1) // length if score > 0 else 0
    return {"seat": seat, "colour": data.colour_ids[seat], "score": score, "laps": laps,
            "space": score - length * laps}
