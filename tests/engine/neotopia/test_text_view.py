"""The text view of Neotopia (issue 24, item 1): each region's map, the cards' patterns
drawn, and why a card of the hand is not built yet; in English and French, within a
terminal's 80 columns for the drawings and Discord's 2,000 characters for the public
view, and never showing a hand to another seat."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jinja2
import pytest

from engine.neotopia import GAME, textview
from engine.neotopia.view import view
from tests.engine.neotopia.helpers import HOUSE, act, position

ROOT = Path(__file__).resolve().parents[3] / "templates"
ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(str(ROOT)),
                         undefined=jinja2.StrictUndefined, autoescape=False,
                         trim_blocks=True, lstrip_blocks=True)
ENV.filters["when"] = str
NAMES = ["Alice", "Bruno", "Chloé", "Dmitri"]
# Example E1 of the house set: green on A09 completes C06's rhombus A02 A03 A09 A10.
E1_BOARD = {"A00": "B", "A01": "R", "A02": "G", "A03": "G", "A04": "P", "A06": "P",
            "A10": "G"}


def render(locale: str, v: dict[str, Any]) -> str:
    text: str = ENV.get_template(f"{locale}/neotopia/view.txt").render(
        view=v, names=NAMES, locale=locale)
    return text.strip()


def parse(lines: list[str]) -> dict[str, tuple[int, int, str]]:
    """The map read back: cell number -> (line, column, glyph)."""
    out = {}
    for i, line in enumerate(lines):
        for m in re.finditer(r"(\d\d)(\S)", line):
            assert m.group(1) not in out, f"cell {m.group(1)} drawn twice"
            out[m.group(1)] = (i, m.start(), m.group(2))
    return out


def touching(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
    step = textview.HALF_STEP
    return (a[0] == b[0] and abs(a[1] - b[1]) == 2 * step) or \
        (abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == step)


@pytest.mark.parametrize("region", [r.id for r in HOUSE.regions])
def test_each_cell_once_with_its_element_and_touching_as_in_the_data(region: str) -> None:
    board = {"D00": "R", "D07": "G", "A00": "B", "A35": "P", "F00": "G", "F01": "G"}
    reg = next(r for r in HOUSE.regions if r.id == region)
    drawn = parse(textview.region_map(HOUSE, board, {}, region))
    assert sorted(reg.letter + n for n in drawn) == sorted(reg.cells)
    for cell in reg.cells:
        glyph = drawn[cell[1:]][2]
        kind = HOUSE.cells[cell].kind
        expected = board.get(cell) or {"centre": "*", "outer": "o"}.get(kind, ".")
        assert glyph == expected, cell
        for other in reg.cells:
            if other != cell:
                assert touching(drawn[cell[1:]], drawn[other[1:]]) == \
                    (other in HOUSE.neighbours[cell]), (cell, other)


def test_the_public_map_shows_bonus_tokens_and_the_elements_of_every_region() -> None:
    st = position(board=E1_BOARD, cell_tokens={"D11": "automation"})
    maps = {m["region"]: m["lines"] for m in view(st, None)["board"]["map"]}
    assert parse(maps["desert"])["11"][2] == "+"
    assert parse(maps["aquatic"])["02"][2] == "G"
    assert max(len(line) for lines in maps.values() for line in lines) <= 40


def test_a_pattern_drawing_touches_as_the_pattern_does() -> None:
    for card in HOUSE.cards.values():
        lines = textview.pattern_lines(HOUSE.grid, card.pattern)
        letters = sorted(ch for line in lines for ch in line if ch != " ")
        assert letters == sorted(c for _, _, c in card.pattern), card.id
    assert textview.pattern_lines(HOUSE.grid, HOUSE.cards["C06"].pattern) == \
        [" G", "G G", " G"]


@pytest.mark.parametrize("locale, short, complete", [
    ("en", "One element short: green on A09 builds it.", "build C06"),
    ("fr", "À un élément près : vert sur A09 le construit.", "build C06")])
def test_a_card_one_element_short_says_where_and_is_offered_once_complete(
        locale: str, short: str, complete: str) -> None:
    st = position(board=E1_BOARD, manufactures={"DA": ["G"], "AF": ["R"], "FD": ["B"]},
                  hands={0: ["C06"]})
    status = view(st, 0)["players"][0]["hand"][0]["status"]
    # A09 and A11 each complete a rhombus: either may be named.
    cell = status["closest"]["missing"][0][0]
    assert status["closest"]["missing"] == [[cell, "G", False]] and cell in ("A09", "A11")
    assert short.replace("A09", cell) in render(locale, view(st, 0))
    act(st, 0, "DA:G")
    act(st, 0, "A09")
    assert complete in view(st, 0)["legal"]


@pytest.mark.parametrize("locale, words", [
    ("en", ["Not yet: closest in the", "2 of 4 in place", "still needs green on"]),
    ("fr", ["Pas encore : au plus près dans la région", "2 sur 4 en place", "il manque vert"])])
def test_a_card_not_complete_says_what_is_missing(locale: str, words: list[str]) -> None:
    # The case: two green elements on F01 and F02, C09 (four greens in a row).
    st = position(board={"F00": "R", "F01": "G", "F02": "G"}, hands={0: ["C09"]})
    status = view(st, 0)["players"][0]["hand"][0]["status"]
    assert status["closest"]["have"] == 2 and len(status["closest"]["missing"]) == 2
    text = render(locale, view(st, 0))
    for word in words:
        assert word in text


@pytest.mark.parametrize("locale, words", [
    ("en", ["Not in the aquatic region: its last project is of this type too (GG).",
            "A whole copy already stands in the desert region"]),
    ("fr", ["Pas dans la région aquatique : son dernier projet est de ce type (GG).",
            "Une copie entière est déjà dans la région désertique"])])
def test_region_rule_and_a_copy_already_complete_are_explained(
        locale: str, words: list[str]) -> None:
    rhombus = {"D00": "G", "D01": "G", "D02": "G", "D08": "G"}
    assert set(rhombus) == {"D00", "D01", "D02", "D08"}
    st = position(board={**rhombus, "A00": "G", "F00": "R"}, hands={0: ["C06"]},
                  built=[(1, "C09", "aquatic")])
    status = view(st, 0)["players"][0]["hand"][0]["status"]
    assert status["blocked"] == ["aquatic"]
    text = render(locale, view(st, 0))
    for word in words:
        assert word in text


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_hand_never_reaches_another_seat_and_the_public_view_fits_discord(
        locale: str) -> None:
    st = position(board=E1_BOARD, hands={0: ["C06", "C44"], 1: ["C09"]})
    public = render(locale, view(st, None))
    other = render(locale, view(st, 1))
    for text in (public, other):
        assert "C06" not in text and "C44" not in text
    assert "C09" not in public
    assert len(public) < 2000
    mine = render(locale, view(st, 0))
    assert "C06" in mine and "C44" in mine
    drawing_lines = [line for line in mine.splitlines() if re.fullmatch(r"[\d\s.*+oRGPB]+",
                                                                        line)]
    assert drawing_lines and max(len(line) for line in drawing_lines) <= 80


def test_the_drawing_is_in_the_view_and_the_game_state_unchanged() -> None:
    st = position(board=E1_BOARD, hands={0: ["C06"]})
    before = GAME.to_json(st) if hasattr(GAME, "to_json") else None
    view(st, 0)
    assert (GAME.to_json(st) if hasattr(GAME, "to_json") else None) == before
