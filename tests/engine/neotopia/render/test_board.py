"""The public board image shows what the public view says, and nothing else."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import Image

from engine.neotopia.render import board_layout, render_board
from engine.neotopia.render.canvas import Canvas
from engine.neotopia.render.hexboard import ELEMENT_SCALE
from engine.neotopia.render.model import read_board
from engine.neotopia.render.palette import (
    BACKGROUND,
    ELEMENT_FILL,
    HIGHLIGHT,
    TOKEN_FILL,
    element_fill,
)
from engine.neotopia.render.panels import PLAYER_H
from engine.neotopia.render.pieces import element
from engine.neotopia.render.tracks import marker_spots, space_box, track_space
from tests.engine.neotopia.render.documented import e2_view
from tests.engine.neotopia.render.states import GAME, NAMES, final4, mid4, played, png, share

DISCORD_LIMIT = 10 * 1024 * 1024


def _disc_box(view: dict[str, Any], cell_id: str, names: list[str] | None = None
              ) -> tuple[int, int, int, int]:
    lay = board_layout(view, names or [])
    cell = next(c for c in view["board"]["cells"] if c["id"] == cell_id)
    cx, cy = lay.city.centre(cell["q"], cell["r"])
    r = lay.city.radius * ELEMENT_SCALE * 0.7
    return (round(cx - r), round(cy - r), round(cx + r), round(cy + r))


def test_same_view_gives_same_bytes() -> None:
    st = mid4()
    a = render_board(GAME.view(st, None), names=NAMES)
    b = render_board(GAME.view(st.copy(), None), names=list(NAMES))
    assert a == b
    assert a[:8] == b"\x89PNG\r\n\x1a\n"


def test_size_fits_discord_and_a_preview() -> None:
    for view in (GAME.view(mid4(), None), GAME.view(final4(), None), e2_view()):
        data = render_board(view, names=NAMES)
        im = png(data)
        assert im.size == board_layout(view, NAMES).size
        # Taller than it was: markers sharing a track space stand one under the other at
        # a size that reads at 550 px (four on the start space make the longest board).
        assert im.width == 1000 and im.height < 1.8 * im.width
        assert len(data) < min(DISCORD_LIMIT, 1024 * 1024)


def test_hidden_information_never_changes_the_public_image() -> None:
    st = mid4()
    other = GAME.scramble_hidden(st, None, 99)
    # The re-deal really moved secrets (hands, deck, the stack's order, the tokens below
    # the piles' tops), so the equality below could fail.
    assert st.hands != other.hands and st.deck != other.deck
    assert st.stack != other.stack and st.piles != other.piles
    assert [p[0] for p in st.piles.values() if p] == [p[0] for p in other.piles.values() if p]
    assert render_board(GAME.view(st, None), names=NAMES) == render_board(
        GAME.view(other, None), names=NAMES)


def test_every_element_is_drawn_in_its_colour() -> None:
    for st in (mid4(), final4()):
        view = GAME.view(st, None)
        im = png(render_board(view, names=NAMES))
        placed = [c for c in view["board"]["cells"] if c["element"]]
        assert len(placed) > 10
        for cell in placed:
            box = _disc_box(view, cell["id"])
            own = share(im, box, [ELEMENT_FILL[cell["element"]]], tol=10)
            others = share(im, box, [v for k, v in ELEMENT_FILL.items()
                                     if k != cell["element"]], tol=10)
            assert own > 0.4 and others < 0.02, (cell["id"], own, others)


def test_empty_cells_show_no_element() -> None:
    view = GAME.view(mid4(), None)
    im = png(render_board(view, names=NAMES))
    empty = [c for c in view["board"]["cells"] if not c["element"]]
    assert empty
    for cell in empty:
        box = _disc_box(view, cell["id"])
        assert share(im, box, list(ELEMENT_FILL.values()), tol=10) < 0.02, cell["id"]


def test_bonus_tokens_lie_on_uncovered_bonus_cells_only() -> None:
    view = GAME.view(mid4(), None)
    im = png(render_board(view, names=NAMES))
    with_token = [c for c in view["board"]["cells"] if c["bonus_token"] and not c["element"]]
    without = [c for c in view["board"]["cells"] if not c["bonus_token"] and not c["element"]]
    assert with_token and without
    for cell in with_token:
        assert share(im, _disc_box(view, cell["id"]), [TOKEN_FILL], tol=6) > 0.3, cell["id"]
    for cell in without:
        assert share(im, _disc_box(view, cell["id"]), [TOKEN_FILL], tol=6) < 0.02, cell["id"]


def test_letters_tell_the_colours_apart_without_colour() -> None:
    """Each element in grey levels only: its letter's shape must still differ from the
    other colours', and be the same wherever that colour is drawn."""
    view = GAME.view(final4(), None)
    im = png(render_board(view, names=NAMES))

    def letter_mask(box: tuple[int, int, int, int]) -> bytes:
        # The letter is the lightest ink in the disc: threshold the grey crop near white.
        return im.crop(box).convert("L").point(lambda v: 255 if v > 200 else 0).tobytes()

    masks: dict[str, set[bytes]] = {}
    for cell in view["board"]["cells"]:
        if cell["element"]:
            masks.setdefault(cell["element"], set()).add(letter_mask(_disc_box(view, cell["id"])))
    assert set(masks) == set(ELEMENT_FILL)
    shapes = {colour: max(found, key=lambda m: m.count(255)) for colour, found in masks.items()}
    for colour, mask in shapes.items():
        assert mask.count(255) > 20, colour  # a letter is there
    assert len(set(shapes.values())) == len(shapes)
    # The same drawing on a plain canvas, compared in grey: no two colours alike.
    greys = []
    for colour in ELEMENT_FILL:
        c = Canvas.new(60, 60, BACKGROUND)
        element(c, 30, 30, 24, colour)
        greys.append(c.im.convert("L").point(lambda v: 255 if v > 200 else 0).tobytes())
    assert len(set(greys)) == len(greys)


def test_manufactures_show_their_elements_in_order() -> None:
    view = GAME.view(mid4(), None)
    im = png(render_board(view, names=NAMES))
    lay = board_layout(view, NAMES)
    seen_empty = False
    for m in view["board"]["manufactures"]:
        for i, (q, r) in enumerate(m["slots"]):
            cx, cy = lay.city.centre(q, r)
            rad = lay.city.radius * 0.45
            box = (round(cx - rad), round(cy - rad), round(cx + rad), round(cy + rad))
            if i < len(m["elements"]):
                assert share(im, box, [element_fill(m["elements"][i])], tol=10) > 0.4, m["id"]
            else:
                seen_empty = True
                assert share(im, box, list(ELEMENT_FILL.values()), tol=10) < 0.02, m["id"]
    assert seen_empty


def test_markers_stand_on_each_players_score() -> None:
    st = mid4()
    view = GAME.view(st, None)
    im = png(render_board(view, names=NAMES))
    lay = board_layout(view, NAMES)
    board = read_board(view, NAMES)
    regions = [r["id"] for r in view["board"]["regions"]]
    assert any(p["scores"][r] > 0 for p in view["players"] for r in regions)
    for row, region in zip(lay.track_rows, regions, strict=True):
        spaces: dict[int, list[int]] = {}
        for p in view["players"]:
            spaces.setdefault(track_space(p["scores"][region]), []).append(p["seat"])
        for space, seats in spaces.items():
            box = space_box(row, board, space)
            for seat, (cx, cy, d) in zip(seats, marker_spots(box, len(seats)), strict=True):
                r = d * 0.3
                spot = (round(cx - r), round(cy - r), round(cx + r), round(cy + r))
                colour = view["players"][seat]["colour"]
                assert share(im, spot, [element_fill(colour)], tol=10) > 0.4, (region, seat)


def test_threshold_spaces_are_marked() -> None:
    view = e2_view()
    im = png(render_board(view, names=NAMES))
    lay = board_layout(view, NAMES)
    board = read_board(view, NAMES)
    row = lay.track_rows[0]
    for space in (7, 13, 18, 3, 10):
        _x0, _y0, x1, y1 = space_box(row, board, space)
        strip = (x1 - 8, y1 - 6, x1 - 4, y1 - 2)
        assert (share(im, strip, [(255, 232, 160)], tol=3) > 0.9) == (space in (7, 13, 18))


def test_offer_cards_show_their_patterns() -> None:
    view = GAME.view(mid4(), None)
    im = png(render_board(view, names=NAMES))
    lay = board_layout(view, NAMES)
    assert len(lay.offer) == len(view["offer"]) > 0
    for box, card in zip(lay.offer, view["offer"], strict=True):
        x0, y0, x1, y1 = box
        body = (x0, y0 + (y1 - y0) // 3, x1, y1)
        for colour in {col for _, _, col in card["pattern"]}:
            assert share(im, body, [element_fill(colour)], tol=10) > 0.02, (card["id"], colour)


def test_names_are_drawn_in_the_players_panel() -> None:
    view = e2_view()
    lay = board_layout(view, NAMES)
    a = png(render_board(view, names=NAMES))
    b = png(render_board(view, names=["Zoe", "Yann", "Xavier", "Wu"]))
    c = png(render_board(view))  # without names: colours name the players
    panel = lay.players
    assert a.crop(panel).tobytes() != b.crop(panel).tobytes()
    assert c.crop(panel).tobytes() not in {a.crop(panel).tobytes(), b.crop(panel).tobytes()}
    # The city below the corners does not depend on the names.
    below = (lay.city_area[0], lay.players[3] + 1, lay.city_area[2], lay.city_area[3])
    assert a.crop(below).tobytes() == b.crop(below).tobytes()


def test_active_player_and_last_round_are_shown() -> None:
    view = e2_view()
    lay = board_layout(view, NAMES)
    im = png(render_board(view, names=NAMES))
    n = len(view["players"])
    x0, y0, _x1, y1 = lay.players
    row_h = min(PLAYER_H + 12, (y1 - y0 - 6 * (n - 1)) // n)
    for seat in range(n):
        top = y0 + seat * (row_h + 6)
        edge = (x0, top + 10, x0 + 3, top + row_h - 10)
        lit = share(im, edge, [HIGHLIGHT], tol=6) > 0.8
        assert lit == (seat == view["turn"]["seat"])
    last = copy.deepcopy(view)
    last["end"]["triggered"] = True
    header = (600, 0, 1000, 52)
    assert share(png(render_board(last)), header, [HIGHLIGHT], tol=6) > share(
        png(render_board(view)), header, [HIGHLIGHT], tol=6)


def test_a_seat_view_is_refused() -> None:
    with pytest.raises(ValueError, match="public view"):
        render_board(GAME.view(mid4(), 0))


def test_every_player_count_renders() -> None:
    for seats in (2, 3):
        _st, views = played(seats, 3)
        for view in (views[0], views[-1]):
            im = png(render_board(view))
            assert im.size == board_layout(view).size


def test_cold_and_warm_caches_give_the_same_image() -> None:
    from engine.neotopia.render.caches import clear_caches

    view = GAME.view(final4(), None)
    clear_caches()
    cold = render_board(view, names=NAMES)
    render_board(e2_view(), names=["x", "y", "z", "w"])
    assert cold == render_board(view, names=NAMES)


def test_another_process_with_another_hash_seed_draws_the_same_bytes() -> None:
    import hashlib
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[4]
    code = (
        "import hashlib\n"
        "from tests.engine.neotopia.render.documented import e2_view\n"
        "from engine.neotopia.render import render_board\n"
        "print(hashlib.sha256(render_board(e2_view(), names=['Ä', 'Bø'])).hexdigest())\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True,
                         text=True, check=True)
    here = hashlib.sha256(render_board(e2_view(), names=["Ä", "Bø"])).hexdigest()
    assert out.stdout.strip() == here


def test_golden_image_stays_close() -> None:
    import json
    from pathlib import Path

    from PIL import ImageChops, ImageStat

    # The view is stored beside the image, so a change in the rules or the AI does not
    # move the golden: only a change in drawing does.
    folder = Path(__file__).parent / "golden"
    view = json.loads((folder / "board_e2.json").read_text(encoding="utf-8"))
    got = png(render_board(view, names=NAMES))
    want = Image.open(folder / "board_e2.png").convert("RGB")
    assert got.size == want.size
    diff = ImageStat.Stat(ImageChops.difference(got, want)).mean
    assert max(diff) < 1.5, diff


def _on_squares(view: dict[str, Any]) -> dict[str, Any]:
    """The same position on a square lattice (offset coordinates of the hex cells), as a
    transcribed printed set on squares would give it."""
    square = copy.deepcopy(view)
    square["board"]["grid"] = "square"

    def move(q: int, r: int) -> list[int]:
        return [q, r + (q - (q & 1)) // 2]

    for cell in square["board"]["cells"]:
        cell["q"], cell["r"] = move(cell["q"], cell["r"])
    for m in square["board"]["manufactures"]:
        m["slots"] = [move(q, r) for q, r in m["slots"]]
    return square


def test_a_square_grid_draws_squares_where_the_view_says() -> None:
    from engine.neotopia.render.geometry import cell_points

    view = _on_squares(e2_view())
    data = render_board(view, names=NAMES)
    im = png(data)
    lay = board_layout(view, NAMES)
    assert lay.city.grid == "square" and im.size == lay.size
    assert data != render_board(e2_view(), names=NAMES)
    for cell in view["board"]["cells"]:
        box = _disc_box(view, cell["id"])
        if cell["element"]:
            assert share(im, box, [ELEMENT_FILL[cell["element"]]], tol=10) > 0.4, cell["id"]
    # A square cell fills the corners of its box, which a hexagon leaves empty.
    empty = next(c for c in view["board"]["cells"] if c["kind"] == "normal" and not c["element"])
    cx, cy = lay.city.centre(empty["q"], empty["r"])
    x0, y0 = cell_points("square", cx, cy, lay.city.radius)[0]
    corner = (round(x0) + 3, round(y0) + 3, round(x0) + 7, round(y0) + 7)
    assert share(im, corner, [BACKGROUND], tol=3) < 0.2


def test_an_unknown_grid_is_refused_by_name() -> None:
    view = e2_view()
    view["board"]["grid"] = "triangle"
    with pytest.raises(ValueError, match="triangle"):
        render_board(view)


def test_panels_never_cover_the_city() -> None:
    from engine.neotopia.render.hexboard import footprint

    def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    for view in (e2_view(), GAME.view(final4(), None), _on_squares(e2_view())):
        lay = board_layout(view, NAMES)
        board = read_board(view, NAMES)
        covered = footprint(board, lay.city)
        for panel in (lay.players, lay.legend):
            assert not any(overlap(panel, box) for box in covered), panel
            assert panel[2] - panel[0] >= 270 and panel[0] >= 0 and panel[2] <= lay.size[0]
        assert lay.tracks[1] > max(lay.players[3], lay.legend[3])
    # On the house board the panels sit in the free corners beside the top region.
    lay = board_layout(e2_view(), NAMES)
    assert lay.players[3] < lay.city_area[3] and lay.legend[3] < lay.city_area[3]


def test_any_names_draw_within_their_places() -> None:
    view = e2_view()
    view["turn"]["stage"] = "build"
    view["end"]["triggered"] = True
    # Seat 3 plays: its long name is in the header; seat 0 has none (its colour names it).
    odd = ["", "李雷", "Ωμέγα", "😀 Zoë the Magnificent of Everywhere and Far Beyond"]
    data = render_board(view, names=odd)
    im = png(data)
    assert im.size == board_layout(view, odd).size
    # The header's turn line is cut before LAST ROUND, which stays whole.
    plain = png(render_board(view, names=["A", "B", "C", "D"]))
    last_round = (840, 0, 1000, 52)
    assert im.crop(last_round).tobytes() == plain.crop(last_round).tobytes()
