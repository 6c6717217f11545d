"""Views in the documented shape of ``engine/neotopia/view.py``, built from a position
of the house data set (the worked example E2 of neotopia-house-set.md), so that the
render tests do not depend on how a played game happens to go."""

from __future__ import annotations

import copy
import json
import math
from functools import cache
from typing import Any

from engine.neotopia.data import resolve

SQRT3 = math.sqrt(3.0)
NAMES = ["Alice", "Bob", "Chloé", "Dmitri Ivanovich"]


@cache
def house() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(resolve("house").read_text(encoding="utf-8"))
    return loaded


def card_json(card_id: str) -> dict[str, Any]:
    raw = next(c for c in house()["project_cards"]["cards"] if c["id"] == card_id)
    types = {t["id"]: t for t in house()["project_types"]}
    return {"id": raw["id"], "type": raw["type"], "type_name_en": types[raw["type"]]["name_en"],
            "type_name_fr": types[raw["type"]]["name_fr"], "points": raw["points"],
            "building": raw["building"], "pattern": raw["pattern"], "size": raw["size"]}


def e2_view(seat: int | None = None, *, hands: list[list[str]] | None = None) -> dict[str, Any]:
    """Blue's turn of the rulebook's example (L449-524), before his first action."""
    raw = house()
    sc = raw["scenarios"][1]["before"]
    board: dict[str, str] = {}
    for cells in sc["board"].values():
        board.update(cells)
    hands = hands or [["C01", "C21"], ["C30", "C31", "C45"], ["C13"], list(sc["hands"]["B"])]
    colours = ["R", "G", "P", "B"]
    cells = []
    for c in raw["board"]["cells"]:
        element = board.get(c["id"])
        token = sc["bonus_on_cells"].get(c["id"]) if element is None else None
        cells.append({"id": c["id"], "region": c["region"], "q": c["q"], "r": c["r"],
                      "x": 1.5 * c["q"], "y": SQRT3 * (c["r"] + c["q"] / 2),
                      "kind": c["kind"], "centre": c["kind"] == "centre",
                      "bonus": c["kind"] == "bonus", "outer": c["kind"] == "outer",
                      "element": element, "element_rgb": None, "bonus_token": token})
    regions = []
    for r in raw["board"]["regions"]:
        last = sc["last_project"][r["id"]]
        regions.append({
            "id": r["id"], "letter": r["letter"], "name_en": r["name_en"],
            "name_fr": r["name_fr"], "centre": r["centre_cell"],
            "manufactures": r["manufactures"],
            "last_project": {"card": last, "type": card_json(last)["type"], "seat": 1},
            "projects": [{"card": last, "type": card_json(last)["type"], "seat": 1}],
            "elements": sum(1 for c in cells if c["region"] == r["id"] and c["element"])})
    scores = [{"desert": 3, "aquatic": 9, "forest": 0}, {"desert": 12, "aquatic": 3,
                                                          "forest": 7},
              {"desert": 7, "aquatic": 7, "forest": 22}, sc["scores"]["B"]]
    players = []
    for s in range(4):
        players.append({
            "seat": s, "colour": colours[s], "first_player": s == 0,
            "hand_size": len(hands[s]),
            "hand": [card_json(x) for x in hands[s]] if s == seat else None,
            "tokens": [["automation"], [], ["subsidy", "private_initiative"], []][s],
            "tokens_used": [], "projects": [],
            "scores": scores[s]})
    piles = sc["bonus_piles_top_first"]
    view = {
        "game": "neotopia", "seats": 4, "viewer": seat,
        "options": {"dataset": "house", "mirror": False, "second_lap_bonus": False},
        "data_set": {"id": "neotopia-house-1", "kind": "house", "note_en": "", "note_fr": ""},
        "colours": [{"id": c, "seat": i} for i, c in enumerate(colours)],
        "phase": "play",
        "board": {
            "grid": "hex", "production_slot": [0, 0], "regions": regions, "cells": cells,
            "manufactures": [{"id": m["id"], "regions": m["touches_regions"],
                              "elements": sc["manufactures"][m["id"]],
                              "slots": m["display_slots_qr"]}
                             for m in raw["board"]["manufactures"]],
        },
        "production": {"stack_size": 9, "on_top": sc["stack"]["elements_on_top_tile"],
                       "centre": [], "centre_used": False,
                       "discarded": [{"id": t, "back": []} for t in ["P01", "P05", "P04"]],
                       "removed": 0, "flag_turned": False},
        "reserve": dict(sc["reserve"]),
        "bonus_types": [],
        "bonus_piles": [{"region": r, "size": len(piles[r]), "top": piles[r][0]}
                        for r in ("desert", "aquatic", "forest")],
        "tracks": [{"region": r, "length": 20, "thresholds": [7, 13, 18],
                    "scores": []} for r in ("desert", "aquatic", "forest")],
        "offer": [card_json(x) for x in sc["offer"]],
        "deck_size": 30,
        "players": players,
        "turn": {"seat": 3, "round": 4, "actions_left": 3, "bonus_used": False,
                 "stage": "turn", "bonus": None, "taking": None, "draws_left": 0},
        "end": {"triggered": False, "final_round": None, "reason": None},
        "last": {"seat": 2, "text": "D27"},
        "final": None,
    }
    if seat is not None:
        view["legal"] = ["draw deck"]
    return copy.deepcopy(view)
