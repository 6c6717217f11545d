"""The final image: the final city above every player's score pad, from the outcome."""

from __future__ import annotations

import copy
from typing import Any

from engine.neotopia.render import final_layout, render_final
from engine.neotopia.render.palette import HIGHLIGHT
from tests.engine.neotopia.render.states import GAME, NAMES, final4, played, png, share


def _final(st: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    outcome = GAME.outcome(st)
    assert outcome is not None
    return GAME.view(st, None), outcome.to_json()


def _lit(im: Any, box: tuple[int, int, int, int]) -> bool:
    x0, y0, _x1, y1 = box
    return share(im, (x0, y0 + 20, x0 + 4, y1 - 20), [HIGHLIGHT], tol=6) > 0.5


def test_deterministic_and_small() -> None:
    view, outcome = _final(final4())
    a = render_final(view, outcome, names=NAMES)
    assert a == render_final(copy.deepcopy(view), copy.deepcopy(outcome), names=NAMES)
    assert len(a) < 1024 * 1024
    assert png(a).size == final_layout(view, outcome, NAMES).size


def test_rows_follow_the_ranking_and_only_winners_are_highlighted() -> None:
    for st in (final4(), played(3, 11)[0], played(2, 4)[0]):
        view, outcome = _final(st)
        im = png(render_final(view, outcome))
        lay = final_layout(view, outcome)
        ranks = [s["rank"] for s in lay.standings]
        assert ranks == sorted(ranks) and len(lay.rows) == st.seats
        for box, s in zip(lay.rows, lay.standings, strict=True):
            assert _lit(im, box) == (s["rank"] == 1), s


def test_a_tie_highlights_both_winners() -> None:
    view, outcome = _final(final4())
    tied = copy.deepcopy(outcome)
    for i, s in enumerate(tied["standings"]):
        s["rank"] = 1 if i < 2 else 3
    im = png(render_final(view, tied))
    assert sum(_lit(im, b) for b in final_layout(view, tied).rows) == 2


def test_the_pad_changes_with_the_lines() -> None:
    view, outcome = _final(final4())
    lay = final_layout(view, outcome)
    changed = copy.deepcopy(outcome)
    first = changed["standings"][0]
    first["lines"][-1]["points"] += 3
    first["lines"][-1]["detail"]["count"] += 1
    first["total"] += 3
    a, b = png(render_final(view, outcome)), png(render_final(view, changed))
    row = next(i for i, s in enumerate(lay.standings) if s["seat"] == first["seat"])
    others = [box for i, box in enumerate(lay.rows) if i != row]
    assert a.crop(lay.rows[row]).tobytes() != b.crop(lay.rows[row]).tobytes()
    assert all(a.crop(box).tobytes() == b.crop(box).tobytes() for box in others)


def test_every_region_appears_once_in_each_pad() -> None:
    # The image's table reads the three region lines; the engine must name each region once.
    _view, outcome = _final(final4())
    for s in outcome["standings"]:
        regions = [ln["detail"]["region"] for ln in s["lines"] if "region" in ln["detail"]]
        assert sorted(regions) == ["aquatic", "desert", "forest"]
        assert sum(ln["points"] for ln in s["lines"]) == s["total"]


def test_names_are_drawn_and_secrets_are_not() -> None:
    st = final4()
    view, outcome = _final(st)
    assert render_final(view, outcome, names=NAMES) != render_final(view, outcome)
    other = GAME.scramble_hidden(st, None, 5)
    assert render_final(GAME.view(other, None), outcome, names=NAMES) == render_final(
        view, outcome, names=NAMES)


def test_largest_groups_drawn_are_those_the_outcome_counts() -> None:
    from engine.neotopia.render.groups import largest_groups
    from engine.neotopia.render.model import read_board

    for st in (final4(), played(3, 11)[0], played(2, 4)[0]):
        view, outcome = _final(st)
        board = read_board(view)
        best = largest_groups(board.geometry.cells, board.elements,
                              [p.colour for p in board.players])
        for s in outcome["standings"]:
            colour = view["players"][s["seat"]]["colour"]
            for ln in s["lines"]:
                d = ln["detail"]
                if "region" in d:
                    assert len(best.get((d["region"], colour), ())) == d["group"], (s, d)


def test_largest_groups_are_washed_in_their_colour() -> None:
    from engine.neotopia.render.groups import largest_groups
    from engine.neotopia.render.model import read_board
    from engine.neotopia.render.palette import element_fill, shade

    view, outcome = _final(final4())
    im = png(render_final(view, outcome))
    lay = final_layout(view, outcome)
    board = read_board(view)
    best = largest_groups(board.geometry.cells, board.elements,
                          [p.colour for p in board.players])
    members = {cid: colour for (_, colour), ids in best.items() for cid in ids}
    washed = 0
    for cell in view["board"]["cells"]:
        if not cell["element"]:
            continue
        cx, cy = lay.city.centre(cell["q"], cell["r"])
        r = lay.city.radius
        # The corner of the hexagon, outside the disc: the wash or the region's ground.
        corner = (round(cx + r * 0.78), round(cy - 2), round(cx + r * 0.88), round(cy + 2))
        wash = shade(element_fill(cell["element"]), 1.55)
        lit = share(im, corner, [wash], tol=8) > 0.5
        assert lit == (cell["id"] in members), cell["id"]
        washed += lit
    assert washed > 10
