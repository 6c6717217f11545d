"""The PNG renderer: deterministic bytes, and pixels where the layout says pieces are."""

from __future__ import annotations

import io

from PIL import Image
from skyhelp import GAME, play, scenario

from engine.core.play import ai_playout
from engine.skybridge.render import Layout, final_layout, render_board, render_final
from engine.skybridge.render.canvas import WIDTH
from engine.skybridge.render.layout import PLANK_OUT
from engine.skybridge.render.palette import CELL, FILL, TEXT

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3

# Bridges: red 1-2 (same row, drawn across), yellow 2-5 (between rows, an arrow).
LAYOUT = {
    1: "G3 R= B2", 2: "B3 R= Y=", 3: "G3 B2 Y2", 4: "Y3", 5: "B2 G2 Y=", 6: "R2 B3 G^",
}  # fmt: skip


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], slack: int = 6) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(pixel, colour, strict=True))


def inside(box: tuple[int, int, int, int]) -> tuple[int, int]:
    """A point inside a piece's rectangle, clear of its outline and of its centred letter."""
    return (box[0] + 4, box[3] - 3)


def test_same_view_same_bytes() -> None:
    state = GAME.setup(3, {}, 4)
    ai_playout(GAME, state, ["greedy"] * 3, 4)
    view = GAME.view(state, None)
    assert render_board(view) == render_board(GAME.view(state.copy(), None))
    names = ["Ann", "Bo", "Cy"]
    outcome = GAME.outcome(state)
    assert render_final(view, names=names) == render_final(view, outcome, names=names)
    first = image(render_board(view))
    assert first.width == WIDTH and 600 < first.height < 1600


def test_pieces_are_drawn_in_their_colours_where_the_layout_puts_them() -> None:
    state = scenario(4, LAYOUT, turn_seat=RED)
    view = GAME.view(state, None)
    picture = image(render_board(view))
    layout = Layout.for_view(view)
    for tower in view["board"]:
        for piece in tower["pieces"]:
            if piece["kind"] == "roof":
                continue
            box = layout.piece_box(tower["foundation"], piece["level"], piece["storeys"])
            pixel = picture.getpixel(inside(box))
            assert near(pixel, FILL[piece["colour"]]), (tower["foundation"], piece, pixel)
    # The green roof on 6: just above its base, in the middle.
    roof = layout.roof_box(6, 5)
    assert near(picture.getpixel(((roof[0] + roof[2]) // 2 - 10, roof[3] - 3)), FILL["green"])
    # The red bridge 1-2 is drawn across the gap between the two towers, at its level.
    left, right = layout.piece_box(1, 3, 1), layout.piece_box(2, 3, 1)
    gap_x = (left[2] + right[0]) // 2 + 12
    assert near(picture.getpixel((gap_x, (left[1] + left[3]) // 2)), FILL["red"])
    # Nothing is drawn across between 2 and 3 at that height.
    left3 = layout.piece_box(3, 3, 1)
    assert not near(picture.getpixel(((right[2] + left3[0]) // 2, left3[1] + 5)), FILL["red"])
    # The yellow bridge 2-5 joins two rows: tower 2 gets an arrow pointing down to 5.
    bridge = layout.piece_box(2, 4, 1)
    arrow_x = bridge[2] + PLANK_OUT + 5 + 9
    assert near(picture.getpixel((arrow_x, bridge[1] + 2)), FILL["yellow"])
    # The roofed cell 6 is tinted green, the others are not.
    cell6, cell5 = layout.cell(6), layout.cell(5)
    tinted = picture.getpixel((cell6[0] + 6, cell6[1] + 12))
    plain = picture.getpixel((cell5[0] + 6, cell5[1] + 12))
    assert plain == CELL
    assert tinted != CELL and tinted[1] > tinted[0] and tinted[2] > tinted[0]


def test_last_piece_has_a_thick_outline() -> None:
    state = scenario(4, {f: "Y3" if f % 2 else "G3" for f in range(1, 10)}, turn_seat=RED)
    play(state, RED, "2@5")
    view = GAME.view(state, None)
    picture = image(render_board(view))
    box = Layout.for_view(view).piece_box(5, 3, 2)
    assert near(picture.getpixel((box[0] - 2, (box[1] + box[3]) // 2)), TEXT, slack=10)
    other = Layout.for_view(view).piece_box(4, 0, 3)
    assert not near(picture.getpixel((other[0] - 2, (other[1] + other[3]) // 2)), TEXT, 10)


def test_scores_image_is_the_board_above_a_block_per_player() -> None:
    state = GAME.setup(2, {}, 3)
    ai_playout(GAME, state, ["greedy", "greedy"], 3)
    view = GAME.view(state, None)
    board = image(render_board(view, names=["Chloé", "Zoë"]))
    scores = image(render_final(view, names=["Chloé", "Zoë"]))
    lay = final_layout(view, view["outcome"])
    assert scores.size == (WIDTH, lay.height)
    # Above the scores, the same header and towers as the board posted last.
    grid = (0, 0, WIDTH, Layout.for_view(view).board_bottom)
    assert scores.crop(grid).tobytes() == board.crop(grid).tobytes()
    # A block per player, each as tall as its lines, best first.
    for s, (_, y0, _, y1) in zip(lay.standings, lay.blocks, strict=True):
        assert y1 - y0 >= 32 * max(1, len(s["lines"]))
    assert [s["rank"] for s in lay.standings] == sorted(s["rank"] for s in lay.standings)


def test_chinese_and_accented_names_change_the_picture_not_its_size() -> None:
    view = GAME.view(scenario(2, LAYOUT), None)
    a = image(render_board(view, names=["王", "Zoé"]))
    b = image(render_board(view, names=["李", "Zoe"]))
    long = image(render_board(view, names=["W" * 90, "龙" * 90]))
    assert a.size == b.size == long.size
    assert a.tobytes() != b.tobytes()


def test_a_french_table_gets_french_words_and_english_stays_the_default() -> None:
    import string

    from engine.skybridge.render.words import FRENCH, language, tr

    view = GAME.view(scenario(2, LAYOUT), None)
    en = render_board(view, names=["Zoé", "王"])
    assert render_board(view, names=["Zoé", "王"], locale="en") == en
    fr = image(render_board(view, names=["Zoé", "王"], locale="fr"))
    # Longer French words take more legend lines rather than a smaller print.
    assert fr.width == image(en).width and fr.tobytes() != image(en).tobytes()
    with language("fr"):
        assert tr("h {n}", n=7) == "h 7" and tr("last move") == "dernier coup"
    assert tr("last move") == "last move"
    for key, value in FRENCH.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(key) if f}
        assert fields == {f for _, f, _, _ in string.Formatter().parse(value) if f}, key
