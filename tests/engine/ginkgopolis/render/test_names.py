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


def test_every_labelled_cell_is_inside_the_city_not_on_the_header() -> None:
    """A building on the city's edge has free cells beyond the buildings and tokens; their
    coordinates once fell on the header and the panels (seen: "2,-3" over "round 14")."""
    from engine.ginkgopolis.render.layout import bounds_of, cells_of, labelled_cells
    from tests.engine.ginkgopolis.render.states import played

    beyond = 0
    for view in played(4, 11)[1]:
        lay = board_layout(view)
        old = bounds_of(cells_of(view))
        beyond += any(not (old.min_x <= x <= old.max_x and old.min_y <= y <= old.max_y)
                      for x, y in labelled_cells(view))
        ax0, ay0, ax1, ay1 = lay.city_area
        for x, y in labelled_cells(view):
            x0, y0, x1, y1 = lay.city.cell_box(x, y)
            assert ax0 <= x0 and x1 <= ax1 and ay0 <= y0 and y1 <= ay1, (x, y)
    assert beyond  # such cells were met


def test_a_french_table_gets_french_labels_and_english_stays_the_default() -> None:
    from engine.ginkgopolis.render.words import FRENCH, language, tr

    view = GAME.view(late5(), None)
    en = png(render_board(view))
    assert png(render_board(view, locale="en")).tobytes() == en.tobytes()
    fr = png(render_board(view, locale="fr"))
    lay = board_layout(view)
    header = (0, 0, lay.size[0], 56)
    assert not same(en, fr, header)
    assert tr("Round {n}", n=3) == "Round 3"  # outside a render: English
    with language("fr"):
        assert tr("Round {n}", n=3) == "Tour 3"
        assert tr("a label nobody translated") == "a label nobody translated"
    # Every French entry keeps the placeholders of its English key.
    import string

    for key, value in FRENCH.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(key) if f}
        assert fields == {f for _, f, _, _ in string.Formatter().parse(value) if f}, key


def test_the_bot_passes_the_tables_language_to_a_renderer_that_takes_it() -> None:
    from bot.images import render_png
    from bot.service.notifications import FileSpec

    view = GAME.view(late5(), None)
    fr = render_png("ginkgopolis", FileSpec("board"), view, names=["Zoé"], locale="fr")
    assert fr == render_board(view, names=["Zoé"], locale="fr")


def test_the_private_image_speaks_french_and_names_its_player() -> None:
    from engine.ginkgopolis.render import hand_layout, render_private
    from tests.engine.ginkgopolis.render.states import early

    view = GAME.view(early(), 1)
    en = png(render_private(view))
    assert png(render_private(view, locale="en")).tobytes() == en.tobytes()
    fr = png(render_private(view, locale="fr"))
    named = png(render_private(view, names=["A", "Jürgen", "C", "D"], locale="fr"))
    lay = hand_layout(view, locale="fr")
    # Cards are as tall as their words need: French runs longer.
    assert en.size == hand_layout(view).size and fr.size == lay.size
    assert not same(en, fr, (0, 0, fr.width, 56))  # the header's words
    x0, y0, _, _ = lay.front  # the player's panel names them
    assert not same(fr, named, (x0 + 40, y0 + 8, x0 + 200, y0 + 36))
