"""Every Quadropolis event, prompt, view, score line and refusal has a sentence in English
and French that renders."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.text import Renderer
from engine.core.errors import IllegalAction
from engine.core.rng import Rng
from engine.quadropolis import GAME
from engine.quadropolis.actions import Place, Take
from tests.engine.quadropolis.helpers import fresh, on_site, tile_id

ROOT = Path(__file__).resolve().parents[3] / "templates"
NAMES = ["Ann", "Bob", "Cy", "Di"]
LOCALES = ["en", "fr"]


def collect(seats: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    state = GAME.setup(seats, options, seed)
    rng = Rng.from_seed(seed)
    ais = [GAME.ai("greedy" if s % 2 else "random") for s in range(seats)]
    events: list[Any] = []
    prompts: dict[str, dict[str, Any]] = {}
    views: list[dict[str, Any]] = [GAME.view(state, None)]
    while GAME.outcome(state) is None:
        seat = state.to_play
        assert seat is not None
        kind = GAME.pending(state).waiting[seat]
        prompts.setdefault(kind, {"decision": kind, "seat": seat,
                                  "view": GAME.view(state, seat)})
        events += GAME.apply(state, seat, ais[seat].choose(state, seat, rng))
        if len(events) % 40 == 0:
            views.append(GAME.view(state, seat))
    views.append(GAME.view(state, None))
    outcome = GAME.outcome(state)
    assert outcome is not None
    return {"events": events, "prompts": list(prompts.values()), "views": views,
            "outcome": outcome.to_json()}


GAMES = [collect(4, 3, {}), collect(2, 4, {"mode": "expert", "squares": True}),
         collect(3, 5, {"mode": "expert"})]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_event_renders(locale: str) -> None:
    env = Renderer(ROOT).env
    kinds = set()
    for game in GAMES:
        for e in game["events"]:
            kinds.add(e.kind)
            ctx = {"names": NAMES, "locale": locale, **e.data}
            text = env.get_template(f"{locale}/quadropolis/event_{e.kind}.txt").render(ctx)
            assert text.strip() and "{{" not in text and "None" not in text
    assert {"took", "placed", "discarded", "round", "round_end", "game_over"} <= kinds


@pytest.mark.parametrize("locale", LOCALES)
def test_prompts_and_views_render(locale: str) -> None:
    env = Renderer(ROOT).env
    for game in GAMES:
        for ctx in game["prompts"]:
            full = {**ctx, "table_id": 1, "name": "Ann", "game": "quadropolis",
                    "deadline": None, "options": [], "locale": locale, "names": NAMES}
            text = env.get_template(f"{locale}/quadropolis/your_turn.txt").render(full)
            if ctx["decision"] == "take":
                assert "A3@L4" in text
            else:
                options = ctx["view"]["taken"]["options"]
                assert all(o in text for o in options)
                # The example to type is the seat's first possible placement, spelled out.
                first = next(o for o in options if o != "discard")
                spelled = {"en": f"Type {first} to build it on row {first[1]}, column {first[3]}",
                           "fr": f"Écrivez {first} pour le construire en ligne {first[1]}, "
                                 f"colonne {first[3]}"}[locale]
                assert spelled in text
        for view in game["views"]:
            text = env.get_template(f"{locale}/quadropolis/view.txt").render(
                {"view": view, "locale": locale, "options": []})
            assert "r5" in text and "None" not in text


@pytest.mark.parametrize("locale", LOCALES)
def test_score_lines_render(locale: str) -> None:
    env = Renderer(ROOT).env
    for game in GAMES:
        for standing in game["outcome"]["standings"]:
            for line in standing["lines"]:
                text = env.get_template(f"{locale}/quadropolis/score_line.txt").render(
                    {"line": line, "locale": locale})
                assert text.strip() and line["key"] not in ("", None)
                assert "_" not in text  # every key has its words


def _refusal(code_action: tuple[str, Any]) -> IllegalAction:
    state = fresh(4, seed=21)
    seat = state.to_play
    assert seat is not None
    on_site(state, 1, 1, tile_id("factory"))
    GAME.apply(state, seat, Take(1, "T1"))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, seat, code_action[1])
    assert err.value.code == code_action[0]
    return err.value


@pytest.mark.parametrize("locale", LOCALES)
def test_a_refusal_explains_the_rule_from_the_engine_code(locale: str) -> None:
    error = _refusal(("not_in_line", Place(4, 4)))
    ctx = {"typed": "r4c4", "message": error.message, "reason": error.code,
           "reason_params": dict(error.params), "options": [], "locale": locale}
    env = Renderer(ROOT).env
    text = env.get_template(f"{locale}/quadropolis/refusal_illegal.txt").render(ctx)
    wanted = {"en": "row 1 or column 1", "fr": "ligne 1 ou la colonne 1"}[locale]
    assert wanted in text and "r1c2" in text


@pytest.mark.parametrize("locale", LOCALES)
def test_the_rules_name_every_text_form(locale: str) -> None:
    text = (ROOT / locale / "discord" / "rules_quadropolis.txt").read_text(encoding="utf-8")
    for form in ("A3@L4", "r2c3", "discard" if locale == "en" else "défausser"):
        assert form in text


@pytest.mark.parametrize("locale", LOCALES)
def test_a_tile_no_space_takes_is_to_be_discarded(locale: str) -> None:
    env = Renderer(ROOT).env
    ctx = next(c for g in GAMES for c in g["prompts"] if c["decision"] == "place")
    view = {**ctx["view"], "taken": {**ctx["view"]["taken"], "options": ["discard"]}}
    full = {**ctx, "view": view, "table_id": 1, "name": "Ann", "game": "quadropolis",
            "deadline": None, "options": [], "locale": locale, "names": NAMES}
    text = env.get_template(f"{locale}/quadropolis/your_turn.txt").render(full)
    wanted = {"en": "No space of your city can take it: type discard.",
              "fr": "Aucune case de votre ville ne peut l'accueillir : écrivez défausser."}
    assert wanted[locale] in text and "r2c3" not in text


SIDE_WORDS = {"en": {"L": "left end of site row", "R": "right end of site row",
                     "T": "top of site column", "B": "bottom of site column"},
              "fr": {"L": "au bout gauche de la ligne", "R": "au bout droit de la ligne",
                     "T": "en haut de la colonne", "B": "en bas de la colonne"}}


@pytest.mark.parametrize("locale", LOCALES)
def test_the_take_example_is_the_seats_first_take_spelled_out(locale: str) -> None:
    """A newcomer types the example: it is a take the seat may make now (a fixed A3@L4
    was often an architect already used or a closed slot), and its words say where."""
    env = Renderer(ROOT).env
    seen = set()
    for seats, seed, options in ((4, 3, {}), (3, 5, {"mode": "expert"})):
        state = GAME.setup(seats, options, seed)
        rng = Rng.from_seed(seed)
        greedy = GAME.ai("greedy")
        while GAME.outcome(state) is None:
            seat = state.to_play
            assert seat is not None
            legal = GAME.legal_actions(state, seat)
            if GAME.pending(state).waiting[seat] == "take":
                ctx = {"decision": "take", "seat": seat, "view": GAME.view(state, seat),
                       "table_id": 1, "name": "Ann", "game": "quadropolis", "deadline": None,
                       "options": [{"text": a.text()} for a in legal], "locale": locale,
                       "names": NAMES}
                text = env.get_template(f"{locale}/quadropolis/your_turn.txt").render(ctx)
                example = legal[0].text()
                n, slot = example[1:].split("@")
                words = SIDE_WORDS[locale][slot[0]]
                spelled = {"en": f"{example} puts architect {n} at the {words} {slot[1:]}",
                           "fr": f"{example} place l'architecte {n} {words} {slot[1:]}"}
                assert spelled[locale] in text
                if example != "A3@L4":  # the fixed example is gone (A3@L4 may be an option)
                    assert "A3@L4 puts" not in text and "A3@L4 place" not in text
                seen.add(slot[0])
            GAME.apply(state, seat, greedy.choose(state, seat, rng))
    assert len(seen) >= 2  # more than one side spelled out
