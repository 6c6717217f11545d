"""Every image posted carries a description (Discord's alt text), in the table's language."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.images import MAX_ALT_CHARS, Image, describe
from bot.service.notifications import FileSpec
from engine.core import get_game


def test_the_board_names_the_players_and_the_scores_rank_them() -> None:
    board = describe("ginkgopolis", FileSpec("board"), table_id=3, names=["Zoé", "王"])
    assert board == "The Ginkgopolis board of table #3, players: Zoé, 王."
    outcome = {"standings": [{"seat": 1, "rank": 1, "total": 42, "name": "seat 1"},
                             {"seat": 0, "rank": 2, "total": 37, "name": "seat 0"}]}
    scores = describe("skybridge", FileSpec("scores"), table_id=4, names=["Zoé", "王"],
                      outcome=outcome, locale="fr")
    assert scores == "Scores finaux de la table n° 4 (Skybridge) : 1. 王 42, 2. Zoé 37."
    hand = describe("ginkgopolis", FileSpec("board", seat=0), table_id=3, names=["Zoé"])
    assert hand.startswith("Your private view") and "Zoé" not in hand


def test_an_image_without_a_description_still_says_what_it_is() -> None:
    assert Image("timelapse-12.gif", b"").alt == "Timelapse image of table #12"
    long = Image("board-1.png", b"", "x" * 5000)
    assert len(long.alt) == MAX_ALT_CHARS


def _midgame(name: str, moves: int = 25) -> tuple[Any, Any]:
    """A 3-seat game of ``name`` a few random moves in, so that hands hold something."""
    game = get_game(name)
    state = game.setup(3, game.default_options(), 7)
    rng = random.Random(3)
    for _ in range(moves):
        seats = sorted(game.pending(state).seats)
        if not seats:
            break
        game.apply(state, seats[0], rng.choice(game.legal_actions(state, seats[0])))
    return game, state


HAND_WORDS = {  # what a seat's hand image says in words, per game and language
    ("ginkgopolis", "en"): ("Hand: ", "Behind your screen: "),
    ("ginkgopolis", "fr"): ("Main : ", "Derrière votre paravent : "),
    ("quadropolis", "en"): ("You hold ", "Your architects: "),
    ("quadropolis", "fr"): ("Vous avez ", "Vos architectes : "),
    ("skybridge", "en"): ("Your colours: ", "Your score estimate: "),
    ("skybridge", "fr"): ("Vos couleurs : ", "Votre score estimé : "),
    ("neotopia", "en"): ("Your hand: ", " points"),
    ("neotopia", "fr"): ("Votre main : ", " points"),
}


@pytest.mark.parametrize(("game_name", "locale"), sorted(HAND_WORDS))
def test_a_hand_image_says_the_private_situation_in_words(game_name: str,
                                                          locale: str) -> None:
    # The decision DM no longer lists the hand: its image's alt text must.
    game, state = _midgame(game_name)
    alt = describe(game_name, FileSpec("board", seat=0), table_id=5, names=["Zoé", "B", "C"],
                   view=game.view(state, 0), locale=locale)
    for words in HAND_WORDS[game_name, locale]:
        assert words in alt, alt
    assert len(alt) <= MAX_ALT_CHARS and "{" not in alt


def test_a_hand_names_its_cards() -> None:
    game, state = _midgame("neotopia")
    view = game.view(state, 0)
    alt = describe("neotopia", FileSpec("board", seat=0), table_id=5, view=view)
    ids = [card["id"] for card in view["players"][view["viewer"]]["hand"]]
    assert ids and all(card in alt for card in ids), alt


@pytest.mark.parametrize("game_name", ["ginkgopolis", "neotopia"])
def test_the_board_image_never_says_a_hand(game_name: str) -> None:
    # The public board's alt text is read by the whole channel: even handed a seat's
    # view by mistake, it holds no private words.
    game, state = _midgame(game_name)
    private = game.view(state, 0)
    for locale in ("en", "fr"):
        board = describe(game_name, FileSpec("board"), table_id=5, names=["Zoé", "B", "C"],
                         view=private, locale=locale)
        assert board.startswith(("The ", "Le plateau")), board
        for words in HAND_WORDS[game_name, locale]:
            assert words not in board, board


def test_a_long_alt_text_is_cut_after_a_word_with_an_ellipsis() -> None:
    long = Image("hand-1.png", b"", "card " * 400)
    assert len(long.alt) <= MAX_ALT_CHARS and long.alt.endswith("card…")
    game, state = _midgame("neotopia")
    view = game.view(state, 0)
    me = view["players"][view["viewer"]]
    me["hand"] = me["hand"] * 60  # far more than 1,024 characters of projects
    alt = describe("neotopia", FileSpec("board", seat=0), table_id=5, view=view,
                   locale="fr")
    assert len(alt) <= MAX_ALT_CHARS and alt.endswith("…") and alt.startswith("Votre vue")
