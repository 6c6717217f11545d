"""Statistics from result rows, the rating chart, the page ids, and the history's
sentences in English and French."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.discord import ids
from bot.discord.history_commands import PAGE, page_id
from bot.history.chart import BAND, HEIGHT, WIDTH, rating_chart
from bot.history.ratings import Rating, Result
from bot.history.stats import MIN_GAMES, leaderboard, player_stats, rating_points, tables_of
from bot.text import Renderer


def row(table: int, player: str, rank: int, score: int, *, game: str = "skybridge",
        at: float = 0.0, started: float = 0.0, versions: int = 10,
        mu: float | None = None, before: float | None = None) -> Result:
    return Result(table, 0 if player == "u0" else 1, "g1", game, player, player.upper(),
                  player.startswith("bot:"), rank, score, at, started, versions,
                  None if mu is not None else "timeout", before, 8.0, mu, 7.0)


def test_player_stats_count_shared_wins_and_pick_the_favourite_and_longest() -> None:
    rows = [row(1, "u0", 1, 30, at=100, versions=20), row(1, "u1", 1, 30, at=100),
            row(2, "u0", 2, 10, game="neotopia", at=900, started=0, versions=5),
            row(3, "u0", 1, 50, at=300), row(3, "u1", 2, 1, at=300)]
    s = player_stats(rows, "u0")
    assert (s.games, s.wins, s.best) == (3, 2, 50)
    assert s.average == pytest.approx(30.0) and s.win_share == pytest.approx(2 / 3)
    assert s.favourite == "skybridge"
    assert (s.longest_table, s.longest_seconds, s.longest_moves) == (2, 900, 4)
    only = player_stats(rows, "u0", "neotopia")
    assert (only.games, only.wins) == (1, 0)
    assert player_stats(rows, "u9").games == 0


def test_leaderboard_sorts_by_the_conservative_estimate_and_sets_newcomers_apart() -> None:
    ratings = [Rating("a", "A", False, 30.0, 6.0, MIN_GAMES),  # 12
               Rating("b", "B", False, 26.0, 2.0, 9),  # 20
               Rating("bot:greedy", "greedy", True, 40.0, 1.0, MIN_GAMES - 1)]
    ranked, apart = leaderboard(ratings)
    assert [r.player for r in ranked] == ["b", "a"]
    assert [r.player for r in apart] == ["bot:greedy"]


def test_rating_points_start_from_the_prior_and_skip_unrated_tables() -> None:
    rows = [row(2, "u0", 1, 9, at=20, mu=27.0, before=26.0),
            row(1, "u0", 1, 9, at=10, mu=26.0, before=25.0),
            row(3, "u0", 1, 9, at=30)]  # unrated
    assert rating_points(rows, "u0", "skybridge") == [(25.0, 8.0), (26.0, 7.0), (27.0, 7.0)]
    assert [[r.table_id for r in t] for t in tables_of(rows)] == [[2], [1], [3]]


def test_the_chart_is_a_png_of_its_size_that_shows_its_numbers() -> None:
    rising = rating_chart([(25.0, 8.0), (26.5, 7.0), (28.0, 6.0), (27.2, 5.5)], "alice")
    image = Image.open(io.BytesIO(rising)).convert("RGB")
    assert image.size == (WIDTH, HEIGHT)
    assert BAND in {c for _, c in image.getcolors(WIDTH * HEIGHT) or []}
    assert rating_chart([(25.0, 8.0), (24.0, 7.0), (22.0, 6.0), (27.2, 5.5)],
                        "alice") != rising
    flat = Image.open(io.BytesIO(rating_chart([(25.0, 0.0), (25.0, 0.0)], "flat")))
    assert flat.size == (WIDTH, HEIGHT)  # a flat line without a band still has a scale


def test_page_ids_are_short_and_not_taken_for_forged_urb_ids() -> None:
    long_game = "x" * 40
    custom = page_id("lb", 9999, long_game)
    assert len(custom) <= 100 and re.fullmatch(PAGE, custom)
    assert not ids.is_ours(custom)
    assert re.fullmatch(PAGE, page_id("hi", 0, "123456789012345678"))
    with pytest.raises(AssertionError):
        page_id("hi", 0, "not an id!")


@pytest.mark.parametrize(("locale", "expected"), [
    ("en", ["Games: 3 · wins: 2 (67 %)", "Score: 30.0 on average, best 50",
            "Rating at Skybridge: 27.0 ± 7.0 (2 rated games)", "Favourite game: Skybridge"]),
    ("fr", ["Parties : 3 · victoires : 2 (67 %)", "Score : 30,0 en moyenne, meilleur 50",
            "Classement à Skybridge : 27,0 ± 7,0 (2 parties classées)",
            "Jeu préféré : Skybridge"]),
])
def test_stats_in_english_and_french(locale: str, expected: list[str]) -> None:
    rows = [row(1, "u0", 1, 30), row(2, "u0", 2, 10), row(3, "u0", 1, 50)]
    stats = player_stats(rows, "u0")
    text = Renderer().render_template("history/stats", {
        "name": "Alice", "game": None, "stats": stats, "win_share": 67,
        "rating": Rating("u0", "U0", False, 27.0, 7.0, 2), "rating_game": "skybridge",
        "longest_hours": 0.5}, locale=locale)
    for line in expected:
        assert line in text.splitlines()


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_leaderboard_and_history_sentences(locale: str) -> None:
    r = Renderer()
    board = r.render_template("history/leaderboard", {
        "game": "neotopia", "page": 2, "pages": 3, "min_games": 3,
        "rows": [{"place": 16, "name": "bob", "is_bot": False, "mu": 30.25, "sigma": 2.0,
                  "games": 7}],
        "apart": [{"name": "greedy", "is_bot": True, "games": 1}]}, locale=locale)
    lines = board.splitlines()
    assert lines[0].endswith("(page 2 of 3)" if locale == "en" else "(page 2 sur 3)")
    assert lines[1].startswith("16. bob") and ("30.2" if locale == "en" else "30,2") in lines[1]
    assert "greedy (bot) (1)" in lines[-1]
    history = r.render_template("history/history", {"page": 1, "pages": 1, "entries": [
        {"table_id": 4, "game": "neotopia", "link": "https://discord.com/channels/1/2/3",
         "unrated": "timeout", "standings": [{"name": "a", "rank": 1, "score": 3,
                                              "is_bot": False}]},
        {"table_id": 3, "game": "skybridge", "link": None, "unrated": None,
         "standings": [{"name": "b", "rank": 1, "score": 5, "is_bot": True}]}]},
        locale=locale)
    first, second = history.splitlines()[1:3]
    assert "<https://discord.com/channels/1/2/3>" in first
    assert ("not rated" if locale == "en" else "non classée") in first
    assert "b (bot) 5" in second and "<" not in second
