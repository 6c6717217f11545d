"""Every Ginkgopolis event and prompt has a sentence in English and French that renders."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.text import Renderer
from engine.core.rng import Rng
from engine.ginkgopolis import GAME

ROOT = Path(__file__).resolve().parents[3] / "templates"


def collect(
    seats: int, seed: int, options: dict[str, Any]
) -> tuple[list[Any], list[dict[str, Any]]]:
    """Events of a whole game, and one prompt context per decision kind met."""
    state = GAME.setup(seats, options, seed)
    rng = Rng.from_seed(seed)
    ai = GAME.ai("random")
    events: list[Any] = []
    prompts: dict[str, dict[str, Any]] = {}
    while GAME.outcome(state) is None:
        pending = GAME.pending(state)
        for seat, kind in pending.waiting.items():
            prompts.setdefault(kind, {"decision": kind, "view": GAME.view(state, seat)})
        seat = min(pending.waiting)
        events += GAME.apply(state, seat, ai.choose(state, seat, rng))
    return events, list(prompts.values())


GAMES = [
    collect(4, 3, {}),
    collect(1, 4, {"expert_hal": True}),
    collect(2, 5, {"characters": "intro"}),
]


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_every_event_renders_in_both_locales(locale: str) -> None:
    env = Renderer(ROOT).env
    kinds = set()
    for events, _ in GAMES:
        for e in events:
            kinds.add(e.kind)
            ctx = {"names": ["Ann", "Bob", "Cy", "Di", "Ed"], "locale": locale, **e.data}
            text = env.get_template(f"{locale}/ginkgopolis/event_{e.kind}.txt").render(ctx)
            assert text.strip() and "{{" not in text
    assert {"reveal", "gain", "round", "game_over", "urbanize", "token_moved"} <= kinds


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_every_prompt_renders_with_the_seats_own_hand(locale: str) -> None:
    env = Renderer(ROOT).env
    for _, prompts in GAMES:
        for ctx in prompts:
            full = {
                **ctx,
                "table_id": 1,
                "name": "Ann",
                "game": "ginkgopolis",
                "deadline": None,
                "options": [],
                "locale": locale,
            }
            text = env.get_template(f"{locale}/ginkgopolis/your_turn.txt").render(full)
            for card in ctx["view"]["me"]["hand"]:
                assert card in text


def test_a_refusal_explains_the_rule_in_french_from_the_engine_code() -> None:
    from engine.core.errors import IllegalAction
    from engine.ginkgopolis.actions import PlayCard
    from tests.engine.ginkgopolis.rulings_helpers import unaffordable_pick

    st = unaffordable_pick()
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, 0, PlayCard("R12", "R5"))
    ctx = {
        "typed": "R12+R5",
        "message": err.value.message,
        "reason": err.value.code,
        "reason_params": dict(err.value.params),
        "options": [],
    }
    env = Renderer(ROOT).env
    fr = env.get_template("fr/ginkgopolis/refusal_illegal.txt").render({**ctx, "locale": "fr"})
    en = env.get_template("en/ginkgopolis/refusal_illegal.txt").render({**ctx, "locale": "en"})
    assert "demande 3 ressources et 7 points de succès" in fr
    assert "needs 3 resources and 7 success points" in en
