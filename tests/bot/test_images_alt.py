"""Every image posted carries a description (Discord's alt text), in the table's language."""

from __future__ import annotations

from bot.images import MAX_ALT_CHARS, Image, describe
from bot.service.notifications import FileSpec


def test_the_board_names_the_players_and_the_scores_rank_them() -> None:
    board = describe("ginkgopolis", FileSpec("board"), table_id=3, names=["Zoé", "王"])
    assert board == "The Ginkgopolis board of table #3, players: Zoé, 王."
    outcome = {"standings": [{"seat": 1, "rank": 1, "total": 42, "name": "seat 1"},
                             {"seat": 0, "rank": 2, "total": 37, "name": "seat 0"}]}
    scores = describe("skybridge", FileSpec("scores"), table_id=4, names=["Zoé", "王"],
                      outcome=outcome, locale="fr")
    assert scores == "Scores finaux de la table n° 4 (Skybridge) : 1. 王 42, 2. Zoé 37."
    hand = describe("ginkgopolis", FileSpec("board", seat=0), table_id=3, names=["Zoé"])
    assert hand.startswith("Your hand") and "Zoé" not in hand


def test_an_image_without_a_description_still_says_what_it_is() -> None:
    assert Image("timelapse-12.gif", b"").alt == "Timelapse image of table #12"
    long = Image("board-1.png", b"", "x" * 5000)
    assert len(long.alt) == MAX_ALT_CHARS
