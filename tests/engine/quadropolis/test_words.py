"""Words of issue 24, item 15: counts of one in the singular (both languages), a penalty
that costs nothing is not printed by ``simulate``, and a player who could not draw owed
tiles is not said to lose any."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
import pytest

from bot.text import Renderer

ROOT = Path(__file__).resolve().parents[3] / "templates"


def standing(lines: list[dict[str, Any]]) -> dict[str, Any]:
    return {"seat": 0, "name": "Seat 1", "total": 12, "rank": 1, "lines": lines}


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_simulate_skips_a_penalty_of_zero(locale: str) -> None:
    lines = [{"key": "shops", "points": 12, "detail": {"active": 2, "removed": 0}},
             {"key": "penalty_energy", "points": 0, "detail": {"unplaced": 0, "absorbed": 1}},
             {"key": "penalty_inhabitants", "points": -1, "detail": {"unplaced": 1}}]
    # Rooted in the locale, as bot/simulate.py renders it.
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(ROOT / locale)),
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True)
    text = env.get_template("cli/simulate.txt").render(
        game="quadropolis", players=1, seed=1, actions=3, kinds=["greedy"],
        outcome={"standings": [standing(lines)]})
    assert "0 unplaced" not in text and "0 baril" not in text
    assert ("1 unplaced inhabitant" in text) if locale == "en" else ("1 habitant" in text)


@pytest.mark.parametrize(("locale", "words"), [
    ("en", "1 inhabitant placed, 1 empty space"), ("fr", "1 habitant placé, 1 case vide")])
def test_a_tiebreak_of_one_is_singular(locale: str, words: str) -> None:
    line = {"key": "tiebreak", "points": 0,
            "detail": {"inhabitants_placed": 1, "empty_spaces": 1, "removed": []}}
    text = Renderer(ROOT).render_template("score_line", {"line": line}, locale=locale,
                                          game="quadropolis")
    assert words in text


@pytest.mark.parametrize(("locale", "words"), [
    ("en", "Zoé should have drawn 1 more tile, but the supply is empty."),
    ("fr", "Zoé aurait dû piocher 1 tuile de plus, mais la réserve est vide.")])
def test_tiles_not_drawn_are_not_lost(locale: str, words: str) -> None:
    text = Renderer(ROOT).render_template(
        "event_gain_lost", {"names": ["Zoé"], "seat": 0, "item": "tile", "n": 1},
        locale=locale, game="ginkgopolis")
    assert text == words


def test_one_spelling_of_harbor_in_text_and_images() -> None:
    roots = [ROOT, ROOT.parent / "engine" / "quadropolis"]
    found = [str(p) for root in roots for p in root.rglob("*")
             if p.suffix in (".txt", ".py") and "harbour" in p.read_text("utf-8").lower()]
    assert found == []
