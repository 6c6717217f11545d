"""The public board image: what the public view says, nothing secret, every name."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import ImageChops

from engine.quadropolis.render import board_layout, render_board
from engine.quadropolis.render.board import WIDTH
from engine.quadropolis.render.palette import (
    KIND_FILL,
    KIND_PATTERN,
    TILE_BACK,
    TILE_BACK_PATTERN,
    URBANIST,
    player_fill,
)
from engine.quadropolis.render.read import read_board, seat_color
from engine.quadropolis.tiles import TILES
from tests.engine.quadropolis.render.states import GAME, NAMES, played, png, share

DISCORD_LIMIT = 10 * 1024 * 1024


def mid_game(seats: int = 4, **options: object) -> tuple[object, dict[str, object]]:
    st, _ = played(seats, 3, stop_round=2, stop_turn=3, **options)
    return st, GAME.view(st, None)


def test_same_view_gives_same_bytes() -> None:
    st, view = mid_game()
    a = render_board(view, names=NAMES)
    b = render_board(GAME.view(copy.deepcopy(st), None), names=list(NAMES))
    assert a == b
    assert a[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_width_and_size_fit_discord(mode: str) -> None:
    _, view = mid_game(4, mode=mode, squares=True)
    data = render_board(view, names=NAMES)
    im = png(data)
    assert im.size == board_layout(read_board(view)).size
    assert im.width == WIDTH
    # A reader on a phone sees it at 550 px: the image is not absurdly tall either.
    assert im.height < 2.2 * im.width
    assert len(data) < DISCORD_LIMIT / 20


def _face_down_space(st: Any) -> tuple[int, int]:
    return next((r, c) for r in range(5) for c in range(5)
                if st.site[r][c] is not None and not st.face_up[r][c])


def test_a_face_down_tile_never_changes_the_public_image() -> None:
    # Two players: tiles marked "4" and "3-4" stay face down.
    st, view = mid_game(2)
    assert view["face_down"] > 0
    r, c = _face_down_space(st)
    redealt = copy.deepcopy(st)
    # Another tile of another kind under the same back.
    hidden_type = TILES[st.site[r][c]].type
    redealt.site[r][c] = next(t.id for t in TILES.values() if t.type != hidden_type)
    assert render_board(GAME.view(st, None)) == render_board(GAME.view(redealt, None))
    # And the engine's own re-deal of everything hidden (the coming rounds too).
    other = GAME.scramble_hidden(st, None, 99)
    assert GAME.state_to_json(other) != GAME.state_to_json(st)
    assert render_board(GAME.view(st, None)) == render_board(GAME.view(other, None))


def test_the_same_tile_turned_face_up_is_drawn() -> None:
    """The check above could fail: once the public may see the tile, it is drawn."""
    st, _ = mid_game(2)
    r, c = _face_down_space(st)
    shown = copy.deepcopy(st)
    shown.face_up[r][c] = True
    assert render_board(GAME.view(st, None)) != render_board(GAME.view(shown, None))


def test_a_face_up_tile_does_change_the_image() -> None:
    """The check above could fail: a change the public may see is drawn."""
    _, view = mid_game(2)
    changed = copy.deepcopy(view)
    row, col = next((r, c) for r in range(5) for c in range(5)
                    if (view["site"][r][c] or {}).get("tile"))
    tile = changed["site"][row][col]["tile"]
    tile["type"] = "park" if tile["type"] != "park" else "shop"
    assert render_board(view) != render_board(changed)


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_every_name_is_drawn_in_its_own_panel(seat: int) -> None:
    _, view = mid_game(4)
    lay = board_layout(read_board(view))
    base = png(render_board(view, names=NAMES))
    other = list(NAMES)
    other[seat] = "Ωmega Ёж"
    changed = png(render_board(view, names=other))
    box = ImageChops.difference(base, changed).getbbox()
    assert box is not None, "the name is not drawn"
    # Only where that seat is named: its panel, or the side panel (to play, Mayor, last move).
    allowed = [lay.panels[seat], lay.side]
    diff = ImageChops.difference(base, changed).convert("L").point(lambda v: 255 if v else 0)
    for region in allowed:
        diff.paste(0, region)
    assert diff.getbbox() is None


def test_each_site_tile_is_drawn_in_its_kind_and_backs_hide_faces() -> None:
    _, view = mid_game(2)
    board = read_board(view)
    im = png(render_board(view))
    lay = board_layout(board)
    seen = {"tile": 0, "back": 0}
    for r in range(5):
        for c in range(5):
            space = view["site"][r][c]
            box = lay.site.space_box(r, c)
            if board.urbanist == (r, c):
                continue
            if space is None:
                continue
            if space.get("face_down"):
                assert share(im, box, [TILE_BACK, TILE_BACK_PATTERN], tol=6) > 0.5
                seen["back"] += 1
                continue
            kind = space["tile"]["type"]
            own = [KIND_FILL[kind], KIND_PATTERN[kind]]
            assert share(im, box, own, tol=8) > 0.3, (r, c, kind)
            seen["tile"] += 1
    assert seen["tile"] and seen["back"]


def test_architects_stand_at_their_slots_in_their_owners_colour() -> None:
    _, view = mid_game(4)
    assert view["slots"]
    board = read_board(view)
    im = png(render_board(view))
    lay = board_layout(board)
    for slot in view["slots"]:
        index = slot["line"] - 1
        cx, cy = lay.site.slot_center(slot["side"], index)
        k = lay.site.band // 3
        box = (int(cx - k), int(cy - k), int(cx + k), int(cy + k))
        assert share(im, box, [player_fill(seat_color(slot["seat"]))], tol=6) > 0.3, slot


def test_the_urbanist_stands_on_its_space() -> None:
    _, view = mid_game(4)
    assert view["urbanist"] is not None
    board = read_board(view)
    im = png(render_board(view))
    r, c = board.urbanist or (0, 0)
    assert share(im, board_layout(board).site.space_box(r, c), [URBANIST], tol=6) > 0.1


def test_each_city_building_is_drawn_in_its_kind() -> None:
    _, view = mid_game(4, mode="expert")
    board = read_board(view)
    im = png(render_board(view))
    lay = board_layout(board)
    checked = 0
    for p, city in zip(view["players"], lay.cities, strict=True):
        for r, row in enumerate(p["city"]):
            for c, cell in enumerate(row):
                if cell is None:
                    continue
                kind = cell["top"]["type"]
                box = city.space_box(r, c)
                assert share(im, box, [KIND_FILL[kind], KIND_PATTERN[kind]], tol=8) > 0.3
                checked += 1
    assert checked >= 8


def test_a_seat_view_is_refused() -> None:
    st, _ = mid_game(4)
    with pytest.raises(ValueError, match="public view"):
        render_board(GAME.view(st, 0))


def test_another_process_with_another_hash_seed_draws_the_same_bytes() -> None:
    import hashlib
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[4]
    code = (
        "import hashlib\n"
        "from tests.engine.quadropolis.render.test_board import mid_game\n"
        "from tests.engine.quadropolis.render.states import NAMES\n"
        "from engine.quadropolis.render import render_board\n"
        "print(hashlib.sha256(render_board(mid_game()[1], names=NAMES)).hexdigest())\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True,
                         text=True, check=True)
    here = hashlib.sha256(render_board(mid_game()[1], names=NAMES)).hexdigest()
    assert out.stdout.strip() == here


def test_cold_and_warm_caches_give_the_same_image() -> None:
    from engine.quadropolis.render.caches import clear_caches

    _, view = mid_game(4, mode="expert")
    clear_caches()
    cold = render_board(view, names=NAMES)
    render_board(mid_game(3)[1])  # other labels and sizes in the caches
    assert cold == render_board(view, names=NAMES)


def test_golden_image_stays_close() -> None:
    import json
    from pathlib import Path

    from PIL import Image, ImageStat

    # The view is stored beside the image, so a change in the rules or the AI does not
    # move the golden: only a change in drawing does. Rewrite both on purpose only.
    folder = Path(__file__).parent / "golden"
    view = json.loads((folder / "board_4p_expert_seed7_round3.json").read_text(encoding="utf-8"))
    got = png(render_board(view, names=NAMES))
    want = Image.open(folder / "board_4p_expert_seed7_round3.png").convert("RGB")
    assert got.size == want.size
    # Mean absolute difference per channel, out of 255: small enough to catch a layout
    # change, loose enough that another Pillow or FreeType version's anti-aliasing passes.
    diff = ImageStat.Stat(ImageChops.difference(got, want)).mean
    assert max(diff) < 1.5, diff


def test_only_the_architect_placed_last_has_a_halo() -> None:
    from engine.quadropolis.render.palette import HIGHLIGHT

    _, view = mid_game(4)
    assert len(view["slots"]) >= 2
    board = read_board(view)
    im = png(render_board(view))
    lay = board_layout(board)
    for i, slot in enumerate(view["slots"]):
        cx, cy = lay.site.slot_center(slot["side"], slot["line"] - 1)
        r = int(lay.site.band * 0.88 * 0.62)
        ring = (int(cx - r), int(cy - r), int(cx + r), int(cy + r))
        halo = share(im, ring, [HIGHLIGHT], tol=6) > 0.03
        assert halo == (i == len(view["slots"]) - 1), slot
