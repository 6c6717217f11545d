"""The view's JSON shape is the one documented in engine/neotopia/view.py (the renderers
read it), and a seat sees its own hand only."""

from __future__ import annotations

import json

from engine.core.rng import Rng
from engine.neotopia import GAME
from engine.neotopia.state import NeotopiaState
from tests.engine.neotopia.helpers import HOUSE

TOP = {"game", "seats", "viewer", "options", "data_set", "colours", "phase", "board",
       "production", "reserve", "bonus_types", "bonus_piles", "tracks", "offer",
       "deck_size", "players", "turn", "end", "last", "final"}
CELL = {"id", "region", "q", "r", "x", "y", "kind", "centre", "bonus", "outer", "element",
        "element_rgb", "bonus_token"}
CARD = {"id", "type", "type_name_en", "type_name_fr", "points", "building", "pattern", "size",
        "drawing"}
PLAYER = {"seat", "colour", "first_player", "character", "hand_size", "hand", "tokens",
          "tokens_used", "projects", "scores"}
TURN = {"seat", "round", "actions_left", "bonus_used", "stage", "bonus", "taking",
        "draws_left"}
PAD = {"seat", "colour", "rank", "total", "regions", "best", "second", "worst", "tokens",
       "tie_break"}


def played(seats: int, seed: int, steps: int | None) -> NeotopiaState:
    st = GAME.setup(seats, {}, seed)
    rng = Rng.from_seed(seed)
    ai = GAME.ai("greedy")
    n = 0
    while not st.over and (steps is None or n < steps):
        GAME.apply(st, st.current, ai.choose(st, st.current, rng))
        n += 1
    return st


def test_the_documented_shape_mid_game() -> None:
    st = played(4, 2, 60)
    view = GAME.view(st, 1)
    assert set(view) == TOP | {"legal"}
    assert set(GAME.view(st, None)) == TOP
    assert len(view["board"]["cells"]) == len(HOUSE.cells)
    assert all(set(c) == CELL for c in view["board"]["cells"])
    assert {r["id"] for r in view["board"]["regions"]} == {"desert", "aquatic", "forest"}
    assert all(set(m) == {"id", "regions", "elements", "slots"}
               for m in view["board"]["manufactures"])
    assert set(view["production"]) == {"stack_size", "on_top", "centre", "centre_used",
                                       "discarded", "removed", "flag_turned"}
    assert all(set(c) == CARD for c in view["offer"])
    assert all(set(p) == PLAYER for p in view["players"])
    assert all(set(c) == CARD | {"status"} for c in view["players"][1]["hand"])
    assert view["players"][0]["hand"] is None
    assert set(view["turn"]) == TURN
    for track in view["tracks"]:
        assert track["thresholds"] == [7, 13, 18] and track["length"] == 20
        assert [s["seat"] for s in track["scores"]] == [0, 1, 2, 3]
    # Elements on the view's cells are exactly the board.
    assert {c["id"]: c["element"] for c in view["board"]["cells"] if c["element"]} == st.board
    json.dumps(view)


def test_the_final_pad_once_over() -> None:
    st = played(3, 5, None)
    view = GAME.view(st, None)
    assert view["turn"] is None and view["phase"] == "over"
    assert [set(p) for p in view["final"]] == [PAD] * 3
    for pad in view["final"]:
        assert pad["total"] == (pad["best"]["points"] + pad["second"]["points"]
                                + pad["worst"]["x3"] + pad["tokens"]["points"])
        for region in pad["regions"].values():
            assert region["total"] == region["track"] + region["group"]
