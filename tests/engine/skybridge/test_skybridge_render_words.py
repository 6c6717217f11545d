"""Skybridge pictures at a French table: no English label drawn, every label looked up
has its French entry, and names replace "Seat N" wherever they are given."""

from __future__ import annotations

from skyhelp import GAME

from engine.core.play import ai_playout
from engine.core.rng import Rng
from engine.skybridge.render import render_board, render_final
from engine.skybridge.render import words as render_words
from tests.engine.render_words import labels_asked, recorded


def draw_all(locale: str, names: list[str] | None = None) -> None:
    """A game in progress and the same game over, board and scores."""
    state = GAME.setup(3, {}, 5)
    rng = Rng.from_seed(5)
    ai = GAME.ai("greedy")
    for _ in range(8):
        seat = min(GAME.pending(state).waiting)
        GAME.apply(state, seat, ai.choose(state, seat, rng))
    view = GAME.view(state, None)
    render_board(view, names=names, locale=locale)
    render_final(view, names=names, locale=locale)  # the estimate
    ai_playout(GAME, state, ["greedy"] * 3, 5)
    view = GAME.view(state, None)
    render_board(view, names=names, locale=locale)
    render_final(view, names=names, locale=locale)


def english_words() -> set[str]:
    """Words of the English labels that French replaces (placeholders removed)."""
    import re

    found: set[str] = set()
    for key, value in render_words.FRENCH.items():
        if value == key:
            continue
        for word in re.findall(r"[A-Za-z]{4,}", re.sub(r"\{[^}]*\}", " ", key)):
            if word.lower() not in value.lower():
                found.add(word)
    return found


def test_no_english_word_is_drawn_at_a_french_table() -> None:
    english = english_words()
    assert {"storeys", "Final", "Seat", "bridge"} <= english
    with recorded() as texts:
        draw_all("fr")
    words = {w for t in texts for w in t.replace(":", " ").split()}
    assert not words & english, words & english
    # At an English table the same recording finds them: the check can fail.
    with recorded() as texts:
        draw_all("en")
    assert len({w for t in texts for w in t.split()} & english) >= 5


def test_the_french_table_covers_every_label_looked_up() -> None:
    asked = labels_asked(render_words, lambda: draw_all("fr"))
    assert len(asked) >= 8
    assert not sorted(asked - set(render_words.FRENCH))


def test_names_replace_seat_numbers_everywhere() -> None:
    names = ["Zoé", "王", "Jürgen"]
    with recorded() as texts:
        draw_all("en", names)
    joined = " ".join(texts)
    assert "Seat" not in joined
    assert all(n in joined for n in names)
    with recorded() as texts:
        draw_all("en")
    assert "Seat 1" in " ".join(texts)
