"""The final image: the final city beside each player's score breakdown."""

from __future__ import annotations

import copy

from engine.ginkgopolis.render import final_layout, render_final
from engine.ginkgopolis.render.palette import BUILDING_FILL, BUILDING_PATTERN, HIGHLIGHT
from tests.engine.ginkgopolis.render.states import GAME, late5, played, png, share


def _final(st):  # type: ignore[no-untyped-def]
    return GAME.view(st, None), GAME.outcome(st).to_json()


def test_deterministic_and_small() -> None:
    st = late5()
    view, outcome = _final(st)
    a = render_final(view, outcome)
    assert a == render_final(copy.deepcopy(view), copy.deepcopy(outcome))
    assert len(a) < 1024 * 1024
    assert png(a).size == final_layout(view, outcome).size


def test_rows_follow_the_ranking_and_only_winners_are_highlighted() -> None:
    for st in (late5(), played(3, 11)[0], played(2, 4)[0]):
        view, outcome = _final(st)
        im = png(render_final(view, outcome))
        lay = final_layout(view, outcome)
        ranks = [s["rank"] for s in lay.standings]
        assert ranks == sorted(ranks)
        assert len(lay.rows) == len(outcome["standings"])
        for box, s in zip(lay.rows, lay.standings, strict=True):
            x0, y0, _x1, y1 = box
            border = (x0, y0 + 20, x0 + 4, y1 - 20)
            lit = share(im, border, [HIGHLIGHT], tol=6) > 0.5
            assert lit == (s["rank"] == 1), s


def test_a_tie_highlights_both_winners() -> None:
    st = late5()
    view, outcome = _final(st)
    tied = copy.deepcopy(outcome)
    for i, s in enumerate(tied["standings"]):
        s["rank"] = 1 if i < 2 else 3
    im = png(render_final(view, tied))
    lay = final_layout(view, tied)
    lit = [
        share(im, (b[0], b[1] + 20, b[0] + 4, b[3] - 20), [HIGHLIGHT], tol=6) > 0.5
        for b in lay.rows
    ]
    assert sum(lit) == 2


def test_final_city_shows_every_building() -> None:
    view, outcome = _final(late5())
    im = png(render_final(view, outcome))
    city = final_layout(view, outcome).city
    for b in view["board"]:
        box = city.tile_box(b["x"], b["y"])
        assert share(im, box, [BUILDING_FILL[b["color"]], BUILDING_PATTERN[b["color"]]]) > 0.3


def test_breakdown_lines_add_up_to_the_totals() -> None:
    # The table shows per-kind sums and the total side by side; they must agree.
    from engine.ginkgopolis.render.final import COLUMNS, _sum

    _view, outcome = _final(late5())
    for s in outcome["standings"]:
        assert sum(_sum(s["lines"], key) for key, _ in COLUMNS) == s["total"]
