"""Players' names on the Ginkgopolis images, in any script, never over the points."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from engine.ginkgopolis.render import board_layout, final_layout, render_board, render_final
from tests.engine.ginkgopolis.render.states import GAME, late5


def png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def same(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int]) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is None


def test_each_panel_shows_its_seats_name_and_a_long_one_leaves_the_points_alone() -> None:
    view = GAME.view(late5(), None)
    n = len(view["players"])
    plain = png(render_board(view))
    short = png(render_board(view, names=["Zoé", "王", "Jürgen", "李小龙", "Ann"][:n]))
    long = png(render_board(view, names=["W" * 80, "王" * 40, "Jürgen", "李小龙", "Ann"][:n]))
    lay = board_layout(view)
    x0, y0, x1, _ = lay.panels[0]
    name_row = (x0 + 60, y0 + 8, x0 + 200, y0 + 36)
    assert not same(plain, short, name_row)  # the colour word gave way to the name
    assert not same(short, long, name_row)
    points = (x1 - 60, y0 + 4, x1, y0 + 40)
    assert same(plain, long, points)  # cut with an ellipsis before the points


def test_the_final_rows_name_the_players() -> None:
    state = late5()
    view = GAME.view(state, None)
    outcome = GAME.outcome(state)
    assert outcome is not None
    n = len(view["players"])
    names = ["Zoé", "王", "Jürgen", "李小龙", "Ann 🦄"][:n]
    plain = png(render_final(view, outcome.to_json()))
    named = png(render_final(view, outcome.to_json(), names=names))
    lay = final_layout(view, outcome.to_json())
    for (x0, y0, x1, _), _s in zip(lay.rows, lay.standings, strict=True):
        assert not same(plain, named, (x0 + 90, y0 + 8, x0 + 300, y0 + 36))
        assert same(plain, named, (x1 - 50, y0 + 4, x1 - 4, y0 + 40))


def test_cells_a_token_may_move_to_carry_their_coordinates() -> None:
    from engine.ginkgopolis.render.city import COORD

    view = GAME.view(late5(), None)
    im = png(render_board(view))
    lay = board_layout(view).city
    built = {(int(b["x"]), int(b["y"])) for b in view["board"]}
    tokens = {(int(x), int(y)) for x, y in view["tokens"].values()}
    free = sorted({(x + 1, y) for x, y in built} - built - tokens)
    assert free
    for x, y in free[:3]:
        x0, y0, x1, y1 = lay.cell_box(x, y)
        pixels = list(im.crop((x0, y0, x1, y1)).getdata())
        inked = sum(1 for p in pixels
                    if max(abs(a - b) for a, b in zip(p, COORD, strict=True)) < 40)
        assert inked > 20, (x, y)
