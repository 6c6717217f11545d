"""The text view tells the running score (issue 24, item 1): what each city would score
if the game ended now, its best allocation, in the public view and in both languages;
once the game is over the final points say it instead. Counts of one read in the
singular (item 15)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.text import Renderer
from engine.core.rng import Rng
from engine.quadropolis import GAME
from engine.quadropolis.final import allocations
from engine.quadropolis.state import State
from tests.engine.quadropolis.helpers import fresh

ROOT = Path(__file__).resolve().parents[3] / "templates"
NAMES = ["Ann", "Bob"]
LEAD = {"en": "Score if the game ended now: ", "fr": "Score si la partie s’arrêtait maintenant : "}


def played(moves: int, seed: int = 3) -> State:
    state = fresh(2, seed=seed)
    rng = Rng.from_seed(seed)
    ai = GAME.ai("greedy")
    for _ in range(moves):
        if GAME.outcome(state) is not None:
            break
        seat = state.to_play
        assert seat is not None
        GAME.apply(state, seat, ai.choose(state, seat, rng))
    return state


def text(state: State, locale: str) -> str:
    return Renderer(ROOT).render_template("view", {"view": GAME.view(state, None), "names": NAMES},
                                          locale=locale, game="quadropolis")


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_public_view_tells_the_running_score(locale: str) -> None:
    state = played(30)
    totals = [a.total for a in allocations(state)]
    public = GAME.view(state, None)
    assert [p["score_now"] for p in public["players"]] == totals
    expected = LEAD[locale] + ", ".join(f"{n} {t}" for n, t in zip(NAMES, totals, strict=True))
    assert expected + "." in text(state, locale)


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_a_finished_game_shows_its_final_points_not_a_running_score(locale: str) -> None:
    state = played(10_000)
    assert GAME.outcome(state) is not None
    assert LEAD[locale] not in text(state, locale)


@pytest.mark.parametrize(("locale", "one", "many"), [
    ("en", "1 inhabitant,", "2 inhabitants,"), ("fr", "1 habitant,", "2 habitants,")])
def test_one_inhabitant_is_singular(locale: str, one: str, many: str) -> None:
    state = fresh(2)
    state.players[0].inhabitants, state.players[1].inhabitants = 1, 2
    lines = text(state, locale).splitlines()
    ann = next(ln for ln in lines if ln.startswith("Ann"))
    bob = next(ln for ln in lines if ln.startswith("Bob"))
    assert one in ann and many in bob
