"""Quadropolis images at a French table: no English label drawn, every label looked up
has its French entry, and names replace "Seat N" wherever they are given."""

from __future__ import annotations

from typing import Any

from engine.quadropolis.render import (
    render_board,
    render_final,
    render_private,
    render_timelapse,
    words,
)
from tests.engine.quadropolis.render.states import GAME, NAMES, played
from tests.engine.render_words import english_labels, labels_asked, recorded


def outcome_of(st: Any) -> dict[str, Any]:
    outcome = GAME.outcome(st)
    assert outcome is not None
    return outcome.to_json()


def draw_all(locale: str, names: list[str] | None = None) -> None:
    """Board, private image, final image and timelapse, classic and expert."""
    for options in ({"squares": True}, {"mode": "expert"}):
        st, _ = played(4, 3, stop_round=2, stop_turn=2, **options)
        render_board(GAME.view(st, None), names, locale=locale)
        seat = min(GAME.pending(st).waiting)
        render_private(GAME.view(st, seat), names, locale=locale)
        st, views = played(4, 3, **options)
        render_final(views[-1], outcome_of(st), names, locale=locale)
        render_timelapse(views, locale=locale)


def test_no_english_label_is_drawn_at_a_french_table() -> None:
    english = english_labels(words.FRENCH)
    assert {"Game over", "Architects in the pool", "Tower blocks"} <= english
    with recorded() as texts:
        draw_all("fr", NAMES)
    drawn = "\n".join(texts)
    assert not [e for e in english if e in drawn]
    with recorded() as texts:
        draw_all("en", NAMES)
    drawn = "\n".join(texts)
    assert len([e for e in english if e in drawn]) >= 15  # the check can fail


def test_the_french_table_covers_every_label_looked_up() -> None:
    asked = labels_asked(words, lambda: draw_all("fr"))
    assert len(asked) >= 20
    assert not sorted(asked - set(words.FRENCH))


def test_names_replace_seat_numbers_and_french_seats_without_names() -> None:
    with recorded() as texts:
        draw_all("en", NAMES)
    drawn = "\n".join(texts)
    assert "Seat" not in drawn
    assert all(n in drawn for n in NAMES)
    with recorded() as texts:
        draw_all("fr")
    assert "Place 1" in "\n".join(texts)


def test_english_stays_the_default_and_french_changes_the_picture() -> None:
    st, _ = played(4, 3, stop_round=2, stop_turn=2)
    view = GAME.view(st, None)
    en = render_board(view, NAMES)
    assert render_board(view, NAMES, locale="en") == en
    assert render_board(view, NAMES, locale="fr") != en


def test_the_bot_passes_the_tables_language() -> None:
    from bot.images import render_png
    from bot.service.notifications import FileSpec

    st, _ = played(4, 3, stop_round=2, stop_turn=2)
    view = GAME.view(st, None)
    got = render_png("quadropolis", FileSpec("board"), view, names=NAMES, locale="fr")
    assert got == render_board(view, NAMES, locale="fr")
