"""The final image: each city's allocation and every player's score by category."""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

import pytest
from PIL import ImageChops

from engine.quadropolis.render import final_layout, render_final
from engine.quadropolis.render.final import CATEGORIES, category_lines
from engine.quadropolis.render.palette import (
    ENERGY,
    INHABITANT,
    KIND_FILL,
    KIND_PATTERN,
    REMOVED,
)
from engine.quadropolis.render.read import read_board
from tests.engine.quadropolis.render.states import GAME, NAMES, played, png, share

DISCORD_LIMIT = 10 * 1024 * 1024


@lru_cache(maxsize=4)
def _ended(seats: int, seed: int, mode: str) -> tuple[dict[str, Any], dict[str, Any]]:
    st, views = played(seats, seed, mode=mode, squares=True)
    outcome = GAME.outcome(st)
    assert outcome is not None
    return views[-1], outcome.to_json()


def ended(seats: int = 4, seed: int = 7, mode: str = "classic") -> tuple[
        dict[str, Any], dict[str, Any]]:
    view, outcome = _ended(seats, seed, mode)
    return copy.deepcopy(view), copy.deepcopy(outcome)


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_same_bytes_and_a_sane_size(mode: str) -> None:
    view, outcome = ended(mode=mode)
    data = render_final(view, outcome, names=NAMES)
    assert data == render_final(copy.deepcopy(view), copy.deepcopy(outcome), names=NAMES)
    im = png(data)
    assert im.size == final_layout(read_board(view), outcome).size
    assert im.height < 2 * im.width
    assert len(data) < DISCORD_LIMIT / 20


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_every_category_of_every_player_is_drawn(mode: str) -> None:
    view, outcome = ended(mode=mode)
    lay = final_layout(read_board(view), outcome)
    base = png(render_final(view, outcome))
    for i, standing in enumerate(lay.standings):
        lines = category_lines(standing)
        assert len(lay.lines[i]) == len(lines)
        for k, line in enumerate(lines):
            # Every key the engine gives has its own label: no category is unnamed.
            assert line["key"] in CATEGORIES, line["key"]
            changed = copy.deepcopy(outcome)
            target = next(s for s in changed["standings"] if s["seat"] == standing["seat"])
            next(ln for ln in target["lines"] if ln["key"] == line["key"])["points"] += 7
            diff = ImageChops.difference(base, png(render_final(view, changed)))
            box = diff.getbbox()
            assert box is not None, line["key"]
            x0, y0, x1, y1 = lay.lines[i][k]
            assert x0 <= box[0] and box[2] <= x1 and y0 <= box[1] and box[3] <= y1, line["key"]
    keys = {ln["key"] for s in outcome["standings"] for ln in category_lines(s)}
    assert {"tower_blocks", "harbors"} <= keys


def test_each_name_is_drawn_in_its_block() -> None:
    view, outcome = ended()
    lay = final_layout(read_board(view), outcome)
    base = png(render_final(view, outcome, names=NAMES))
    for i, standing in enumerate(lay.standings):
        other = list(NAMES)
        other[int(standing["seat"])] = "Ωmega Ёж"
        diff = ImageChops.difference(base, png(render_final(view, outcome, names=other)))
        box = diff.getbbox()
        assert box is not None
        x0, y0, x1, y1 = lay.blocks[i]
        assert x0 <= box[0] and box[2] <= x1 and y0 <= box[1] and box[3] <= y1


def test_removed_buildings_are_greyed_and_active_ones_keep_their_colour() -> None:
    view, outcome = ended()
    lay = final_layout(read_board(view), outcome)
    order = [int(s["seat"]) for s in lay.standings]
    entry = next(e for e in view["final"] if e["buildings"])
    seat = int(entry["seat"])
    city = lay.cities[order.index(seat)]
    # One activated building is declared removed: the image must follow the allocation.
    target = next(b for b in entry["buildings"] if b["active"])
    changed = copy.deepcopy(view)
    hit = next(b for b in next(e for e in changed["final"] if e["seat"] == seat)["buildings"]
               if (b["row"], b["col"]) == (target["row"], target["col"]))
    hit.update(active=False, inhabitants=0, energy=0, customers=0, absorbs=0)
    for v, removed in ((view, False), (changed, True)):
        im = png(render_final(v, outcome))
        box = city.space_box(target["row"] - 1, target["col"] - 1)
        kind = target["type"]
        colour = share(im, box, [KIND_FILL[kind], KIND_PATTERN[kind]], tol=8)
        grey = share(im, box, [REMOVED], tol=8)
        assert (colour < 0.05 and grey > 0.2) if removed else (colour > 0.2 and grey < 0.05)


def test_resources_placed_on_a_building_are_drawn_on_it() -> None:
    view, outcome = ended()
    lay = final_layout(read_board(view), outcome)
    order = [int(s["seat"]) for s in lay.standings]
    found = 0
    im = png(render_final(view, outcome))
    for entry in view["final"]:
        city = lay.cities[order.index(int(entry["seat"]))]
        for b in entry["buildings"]:
            box = city.space_box(b["row"] - 1, b["col"] - 1)
            if b["inhabitants"]:
                assert share(im, box, [INHABITANT], tol=6) > 0.01, b
                found += 1
            if b["energy"]:
                assert share(im, box, [ENERGY], tol=6) > 0.01, b
                found += 1
            if not b["active"] or not (b["inhabitants"] or b["energy"]):
                assert share(im, box, [INHABITANT, ENERGY], tol=6) < 0.005, b
    assert found >= 4


def test_a_seat_view_is_refused() -> None:
    view, outcome = ended()
    view["seat"] = 0
    with pytest.raises(ValueError, match="public view"):
        render_final(view, outcome)
