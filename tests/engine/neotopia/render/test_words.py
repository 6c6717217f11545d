"""Neotopia images at a French table: no English label drawn, every label looked up has
its French entry, project types in French from the view, and names replace colours."""

from __future__ import annotations

from engine.neotopia.render import (
    render_board,
    render_final,
    render_private,
    render_timelapse,
    words,
)
from tests.engine.neotopia.render.states import GAME, NAMES, final4, mid4, played
from tests.engine.render_words import english_labels, labels_asked, recorded


def draw_all(locale: str, names: list[str] | None = None) -> None:
    """Board, every seat's private image mid-game, the final image and the timelapse."""
    given = names or []
    st = mid4()
    render_board(GAME.view(st, None), given, locale=locale)
    for seat in range(4):
        render_private(GAME.view(st, seat), given, locale=locale)
    st = final4()
    outcome = GAME.outcome(st)
    assert outcome is not None
    render_final(GAME.view(st, None), outcome.to_json(), given, locale=locale)
    render_board(GAME.view(st, None), given, locale=locale)
    render_timelapse(played(4, 7)[1], locale=locale)


def test_no_english_label_is_drawn_at_a_french_table() -> None:
    english = english_labels(words.FRENCH, strip=" ,")
    assert {"Project offer", "Final scoring", "Bonus tokens"} <= english
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


def test_project_types_are_drawn_in_the_tables_language() -> None:
    view = GAME.view(mid4(), None)
    offer = view["offer"]
    assert offer
    with recorded() as texts:
        render_board(view, locale="fr")
    assert any(str(card["type_name_fr"]) in texts for card in offer)
    assert not any(str(card["type_name_en"]) in texts for card in offer
                   if card["type_name_en"] != card["type_name_fr"])


def test_names_replace_colours_and_unnamed_seats_get_french_colours() -> None:
    with recorded() as texts:
        draw_all("en", NAMES)
    drawn = "\n".join(texts)
    assert all(n in drawn for n in NAMES[:3])  # the longest may be cut to fit
    assert "Seat" not in drawn
    with recorded() as texts:
        draw_all("fr")
    drawn = "\n".join(texts)
    assert "Rouge" in drawn and "Red" not in drawn


def test_the_bot_passes_the_tables_language() -> None:
    from bot.images import render_png
    from bot.service.notifications import FileSpec

    view = GAME.view(mid4(), None)
    got = render_png("neotopia", FileSpec("board"), view, names=NAMES, locale="fr")
    assert got == render_board(view, NAMES, locale="fr")
    assert got != render_board(view, NAMES)
