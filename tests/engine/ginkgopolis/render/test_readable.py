"""Readable at Discord's preview width, and French at a French table.

Discord shows an image 550 px wide: a text ``size`` pixels tall on an image ``width``
pixels wide is read at ``size * 550 / width`` pixels. Panels, final rows and the
timelapse's band keep every word and number at 11 px or more once scaled.
"""

from __future__ import annotations

import copy
import io
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import Image

from engine.ginkgopolis.render import (
    board,
    board_layout,
    cardart,
    final,
    final_layout,
    hand,
    hand_layout,
    panel,
    render_board,
    render_final,
    render_private,
    render_timelapse,
    tiles,
    timelapse,
    words,
)
from engine.ginkgopolis.render.canvas import Canvas
from engine.ginkgopolis.render.cardart import chip_size
from engine.ginkgopolis.render.city import LABELLED_PITCH
from engine.ginkgopolis.render.layout import CityLayout
from tests.engine.ginkgopolis.render.states import GAME, early, late5, played
from tests.engine.render_words import labels_asked

PREVIEW = 550
READ_PX = 11
NAMES = ["Zoé", "Jürgen", "王", "李小龙", "Ann"]


def outcome_of(st: Any) -> dict[str, Any]:
    outcome = GAME.outcome(st)
    assert outcome is not None
    return outcome.to_json()


def read_px(size: float, width: int) -> float:
    return size * PREVIEW / width


def test_the_layout_constants_give_11_px_at_550_wide() -> None:
    # Computed from the constants, not from pixels: a smaller constant fails here.
    assert read_px(panel.MIN_FONT, board.WIDTH) >= READ_PX
    assert chip_size(panel.CHIP_H) >= panel.MIN_FONT  # a chip's code and counts
    assert panel.NAME_FONT >= panel.MIN_FONT and panel.SP_FONT >= panel.MIN_FONT
    assert read_px(board.HEADER_FONT, board.WIDTH) >= READ_PX
    assert read_px(board.LEGEND_FONT, board.WIDTH) >= READ_PX
    assert read_px(final.FONT, board.WIDTH) >= READ_PX
    # The city's labels, and the private image's words and cards.
    assert read_px(tiles.MIN_LABEL, board.WIDTH) >= READ_PX
    assert read_px(hand.TEXT, hand.WIDTH) >= READ_PX
    assert read_px(cardart.CARD_TEXT, hand.WIDTH) >= READ_PX
    # The timelapse is at most FRAME_MAX + 2 margins wide.
    frame_w = timelapse.FRAME_MAX + 2 * timelapse.MARGIN
    assert read_px(timelapse.BAND_FONT, frame_w) >= READ_PX


@contextmanager
def recorded() -> Iterator[list[tuple[str, int, float, float]]]:
    """Every text drawn meanwhile: (text, size, x, y)."""
    calls: list[tuple[str, int, float, float]] = []
    original = Canvas.text

    def text(self: Canvas, xy: tuple[float, float], text: str, size: int, *args: Any,
             **kwargs: Any) -> int:
        if text:
            calls.append((text, size, xy[0], xy[1]))
        return original(self, xy, text, size, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Canvas, "text", text)
        yield calls


def inside(x: float, y: float, box: tuple[int, int, int, int]) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def late4() -> tuple[Any, list[dict[str, Any]]]:
    st, views = played(4, 5)
    return st, views


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_every_text_on_a_late_four_player_boards_panels_reads_11_px(locale: str) -> None:
    _st, views = late4()
    for view in (views[-3], views[-1], GAME.view(late5(), None)):
        lay = board_layout(view)
        with recorded() as calls:
            render_board(view, names=NAMES[:len(view["players"])], locale=locale)
        in_panels = [(t, s) for t, s, x, y in calls if any(inside(x, y, b) for b in lay.panels)]
        assert len(in_panels) > 10 * len(lay.panels)  # the recording saw the panels
        small = [(t, s) for t, s in in_panels if read_px(s, lay.size[0]) < READ_PX]
        assert not small
        # The header too.
        header = [(t, s) for t, s, _x, y in calls if y < board.HEADER_H]
        assert header and min(read_px(s, lay.size[0]) for _t, s in header) >= READ_PX
        # The legend's words fit at their full size in both languages.
        legend = [s for t, s, x, y in calls if inside(x, y, lay.legend) and len(t) > 3]
        assert len(legend) == 6 and min(legend) >= board.LEGEND_FONT


def city_box(city: CityLayout) -> tuple[int, int, int, int]:
    return (city.left, city.top, city.left + city.width, city.top + city.height)


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_every_label_in_the_city_reads_11_px_on_the_board_and_the_final_image(
        locale: str) -> None:
    _st, views = late4()
    for view in (views[-3], views[-1], GAME.view(late5(), None), GAME.view(early(), None),
                 nine_columns(views[-3]), nine_columns(views[-1])):
        for lay_size, city, draw in _city_images(view, locale):
            with recorded() as calls:
                draw()
            in_city = [(t, s) for t, s, x, y in calls if inside(x, y, city_box(city))]
            codes = {str(b["top"]) for b in view["board"]}
            heights = {str(b["height"]) for b in view["board"]}
            drawn = {t for t, _s in in_city}
            # Every tile code, every height, every token letter and an owner's letter.
            assert codes <= drawn and heights <= drawn and set(view["tokens"]) <= drawn
            assert any(len(t) == 1 and t.isalpha() and t not in view["tokens"] for t in drawn)
            small = sorted({(t, s) for t, s in in_city if read_px(s, lay_size[0]) < READ_PX})
            assert not small


def nine_columns(view: dict[str, Any]) -> dict[str, Any]:
    """The city one column wider than any seeded game's: its westmost token moved west."""
    wide = copy.deepcopy(view)
    west = min(wide["tokens"], key=lambda k: wide["tokens"][k][0])
    wide["tokens"][west][0] -= 1
    xs = [b["x"] for b in wide["board"]] + [t[0] for t in wide["tokens"].values()]
    assert max(xs) - min(xs) + 1 == 9
    return wide


def test_a_nine_column_city_keeps_its_labels_and_the_panels_theirs() -> None:
    _st, views = late4()
    view = nine_columns(views[-3])
    lay = board_layout(view)
    assert lay.size[0] == board.WIDTH and lay.city.pitch >= LABELLED_PITCH
    with recorded() as calls:
        render_board(view, names=NAMES[:4])
    in_panels = [(t, s) for t, s, x, y in calls if any(inside(x, y, b) for b in lay.panels)]
    assert len(in_panels) > 40
    assert min(read_px(s, lay.size[0]) for _t, s in in_panels) >= READ_PX
    assert not [t for t, _s in in_panels if t.endswith("…")]


def _city_images(view: dict[str, Any], locale: str) -> list[Any]:
    out: list[Any] = []
    lay = board_layout(view)
    out.append((lay.size, lay.city, lambda: render_board(view, names=NAMES[:4], locale=locale)))
    if view.get("phase") == "over":
        fst = played(4, 5)[0] if len(view["players"]) == 4 else late5()
        outcome = outcome_of(fst)
        flay = final_layout(view, outcome, locale=locale)
        out.append((flay.size, flay.city,
                    lambda: render_final(view, outcome, names=NAMES[:len(view["players"])],
                                         locale=locale)))
    return out


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_every_breakdown_text_of_the_final_image_reads_11_px_and_is_not_clipped(
        locale: str) -> None:
    for st in (played(4, 5)[0], late5()):
        view, outcome = GAME.view(st, None), outcome_of(st)
        lay = final_layout(view, outcome, locale=locale)
        with recorded() as calls:
            data = render_final(view, outcome, names=NAMES[:len(view["players"])],
                                locale=locale)
        assert Image.open(io.BytesIO(data)).size == lay.size
        for box in lay.rows:
            texts = [(t, s, x) for t, s, x, y in calls if inside(x, y, box)]
            assert len(texts) >= 8
            assert min(read_px(s, lay.size[0]) for _t, s, _x in texts) >= READ_PX
            # Nothing is cut: no ellipsis in the breakdown, every line starts in the row.
            assert not [t for t, _s, _x in texts if t.endswith("…")]
        # Each card and district of the outcome is written in full somewhere in its row.
        for box, s in zip(lay.rows, lay.standings, strict=True):
            drawn = " ".join(t for t, _s, x, y in calls if inside(x, y, box))
            for ln in s["lines"]:
                if ln["key"] == "card":
                    assert f"{ln['detail']['card']} +{ln['points']}" in drawn
                if ln["key"] == "district":
                    assert f"+{ln['points']}" in drawn


def _private_views() -> list[dict[str, Any]]:
    """A hand, a late seat with many tiles, and a draft packet."""
    rich = late5()
    rich.players[0].tiles = ["B12", "R7", "Y3", "Y19", "B2", "R20", "R1", "B9"]
    return [GAME.view(early(), 1), GAME.view(played(4, 5, stop_round=9)[0], 3),
            GAME.view(rich, 0), GAME.view(GAME.setup(4, {}, 2), 0)]


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_every_text_of_the_private_image_reads_11_px(locale: str) -> None:
    for view in _private_views():
        lay = hand_layout(view, locale=locale)
        with recorded() as calls:
            data = render_private(view, names=NAMES[:len(view["players"])], locale=locale)
        assert Image.open(io.BytesIO(data)).size == lay.size
        assert len(calls) > 40
        small = sorted({(t, s) for t, s, *_ in calls if read_px(s, lay.size[0]) < READ_PX})
        assert not small
        # The card's words stay on the card: none is drawn below its bottom edge.
        for box in lay.cards:
            on_card = [(t, y) for t, _s, x, y in calls if box[0] <= x <= box[2] and
                       box[1] <= y <= box[3] + 200]
            below = [t for t, y in on_card if box[3] - 8 < y <= box[3] + 4]
            assert not below, below
            # The caption under a card is written whole, however many lines it takes.
            with words.language(locale):
                caption = hand._city_caption(view, view["me"]["hand"][lay.cards.index(box)]) \
                    if view["me"]["hand"] else ""
            under = [t for t, _s, x, y in calls if box[0] - 20 <= x <= box[2] + 20 and
                     box[3] < y < min(box[3] + 100, lay.screen[1])]
            assert " ".join(under).split() == caption.split()
        # The boxes' words too, and nothing is cut short.
        assert not [t for t, *_ in calls if t.endswith("…")]
        name = NAMES[int(view["seat"])]
        assert any(t.startswith(name) for t, *_ in calls)


def test_the_last_timelapse_frame_shows_the_final_scores() -> None:
    st, views = late4()
    outcome = outcome_of(st)
    with recorded() as calls:
        render_timelapse(views, outcome)
    band = [c[0] for c in calls if c[3] < timelapse.BAND_H]
    assert band.count("Final scores") == 1  # only the last frame
    last_frame = band[band.index("Final scores"):]
    numbers = sorted(t for t in last_frame if t.isdigit())
    assert numbers == sorted(str(s["total"]) for s in outcome["standings"])
    # Without the outcome, the last frame shows the success-point tokens instead.
    with recorded() as calls:
        render_timelapse(views)
    band = [c[0] for c in calls if c[3] < timelapse.BAND_H]
    assert "Final scores" not in band


# -- French at a French table


def english_labels() -> set[str]:
    """Labels that have a French translation different from themselves."""
    return {k for k, v in words.FRENCH.items() if v != k and "{" not in k}


def all_images(locale: str) -> None:
    st, views = late4()
    outcome = outcome_of(st)
    n = len(views[-1]["players"])
    render_board(views[-3], names=NAMES[:n], locale=locale)
    render_board(GAME.view(GAME.setup(3, {}, 2), None), locale=locale)  # the draft
    render_final(views[-1], outcome, names=NAMES[:n], locale=locale)
    render_private(GAME.view(early(), 1), names=NAMES[:4], locale=locale)
    render_timelapse(views, outcome, locale=locale)


def test_no_english_label_is_drawn_at_a_french_table() -> None:
    with recorded() as calls:
        all_images("fr")
    drawn = {t for t, *_ in calls}
    english = english_labels()
    assert not drawn & english, drawn & english
    # The same recording at an English table does see those labels: the check can fail.
    with recorded() as calls:
        all_images("en")
    assert len({t for t, *_ in calls} & english) > 15


def test_the_french_table_covers_every_label_looked_up() -> None:
    asked = labels_asked(words, lambda: all_images("fr"))
    assert len(asked) > 30
    assert not sorted(asked - set(words.FRENCH))
