"""Every sentence about Neotopia comes from templates/<locale>/neotopia/, in en and fr."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jinja2
import pytest

from engine.core.play import playout
from engine.core.protocol import Action
from engine.core.rng import Rng
from engine.neotopia import GAME
from engine.neotopia.scoring import lines
from engine.neotopia.state import NeotopiaState
from tests.engine.neotopia.helpers import act, position

ROOT = Path(__file__).resolve().parents[3] / "templates"
LOCALES = ("en", "fr")
NAMES = ["Alice", "Bruno", "Chloé", "Dmitri"]
ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(ROOT)),
    undefined=jinja2.StrictUndefined,
    autoescape=False,
    trim_blocks=True,
    lstrip_blocks=True,
)
ENV.filters["when"] = str
ALL_KINDS = {"start_placed", "drew", "drew_card", "placed", "token_taken", "refilled",
             "refill_failed", "tile_turned", "end_triggered", "built", "bonus_used",
             "actions_lost", "turn", "turn_ended", "game_over"}


def say(locale: str, kind: str, data: dict[str, Any]) -> str:
    context = {**data, "data": data, "names": NAMES, "locale": locale, "event": kind}
    return ENV.get_template(f"{locale}/neotopia/event_{kind}.txt").render(context).strip()


def played_events() -> tuple[list[dict[str, Any]], list[NeotopiaState]]:
    events: list[dict[str, Any]] = []
    ends = []
    for seats in (2, 3, 4):
        for seed in range(2):
            state = GAME.setup(seats, {}, seed)
            rng = Rng.from_seed(seed)
            players = [GAME.ai("greedy" if i % 2 else "random") for i in range(seats)]

            def choose(st: NeotopiaState, seat: int, rng: Rng = rng,
                       players: list[Any] = players) -> Action:
                chosen: Action = players[seat].choose(st, seat, rng)
                return chosen

            playout(GAME, state, choose,
                    on_apply=lambda seat, action, evs: events.extend(e.to_json() for e in evs))
            ends.append(state)
    return events, ends


EVENTS, ENDS = played_events()
RARE = [
    {"kind": "refill_failed", "data": {"manufacture": "FD"}},
    {"kind": "actions_lost", "data": {"seat": 1, "count": 2}},
    {"kind": "game_over", "data": {"reason": "stall", "totals": [40, 40, 12],
                                   "winners": [0, 1], "group_points": []}},
    {"kind": "tile_turned", "data": {"tile": "P12", "back": ["R", "G", "P", "B"],
                                     "elements": ["R"], "to": "centre"}},
    {"kind": "placed", "data": {"seat": 2, "colour": "P", "source": "reserve", "cell": "D11",
                                "region": "desert", "bonus": "private_initiative"}},
    {"kind": "placed", "data": {"seat": 2, "colour": "B", "source": "FD", "cell": "F37",
                                "region": "forest", "bonus": "building_permits"}},
]


def test_games_produce_the_usual_event_kinds() -> None:
    kinds = {e["kind"] for e in EVENTS}
    assert kinds >= ALL_KINDS - {"refill_failed", "actions_lost"}
    assert kinds <= ALL_KINDS


@pytest.mark.parametrize("locale", LOCALES)
def test_every_event_renders_with_the_actors_name(locale: str) -> None:
    for event in EVENTS + RARE:
        text = say(locale, event["kind"], event["data"])
        assert text and "None" not in text and "{" not in text and "_" not in text
        if "seat" in event["data"] and event.get("to") is None:
            assert NAMES[event["data"]["seat"]] in text


def test_sentences() -> None:
    built = {"seat": 3, "card": "C44", "type": "PG", "region": "desert", "cell": "D11",
             "points": 4, "score": 4}
    assert say("en", "built", built) == (
        "Dmitri built project C44 in the desert region for 4 points (desert track: 4).")
    assert say("fr", "built", built) == (
        "Dmitri a construit le projet C44 dans la région désertique et marque 4 points "
        "(piste désertique : 4).")
    moved = {"seat": 0, "colour": "P", "source": "FD", "cell": "D11", "region": "desert",
             "bonus": None}
    assert say("en", "placed", moved) == (
        "Alice moved a purple element from manufacture FD to D11 (desert).")
    token = {"seat": 1, "bonus": "automation", "region": "forest", "threshold": 7,
             "how": "track"}
    assert say("fr", "token_taken", token) == (
        "Bruno atteint 7 sur la piste forestière et prend un jeton Automatisation.")
    assert say("en", "drew", {"seat": 2, "source": "deck", "card": None}) == (
        "Chloé drew a project from the deck.")


@pytest.mark.parametrize("locale", LOCALES)
def test_score_lines_render_for_every_key(locale: str) -> None:
    template = ENV.get_template(f"{locale}/neotopia/score_line.txt")
    for st in ENDS:
        for seat in range(st.seats):
            for line in lines(st, seat):
                text = template.render(line={"key": line.key, "points": line.points,
                                             "detail": dict(line.detail)})
                assert text and text != line.key and "None" not in text and "_" not in text


def your_turn(locale: str, st: NeotopiaState, seat: int) -> str:
    context = {
        "table_id": 7, "name": NAMES[seat], "seat": seat, "view": GAME.view(st, seat),
        "decision": GAME.pending(st).waiting[seat],
        "options": [{"text": a.text()} for a in GAME.legal_actions(st, seat)],
        "deadline": None, "locale": locale, "game": "neotopia",
    }
    return ENV.get_template(f"{locale}/neotopia/your_turn.txt").render(context)


@pytest.mark.parametrize("locale", LOCALES)
def test_your_turn_explains_each_decision(locale: str) -> None:
    st = GAME.setup(4, {}, 3)
    seat = st.current
    assert "D00" in your_turn(locale, st, seat)
    st = position(4, active=0, board={"A00": "B", "A01": "R", "A02": "G", "A03": "G",
                                       "A10": "G"},
                  manufactures={"DA": ["G", "R"], "AF": ["B"], "FD": ["P"]},
                  hands={0: ["C06"]}, tokens={0: ["subsidy"]})
    texts = {}
    texts["turn"] = your_turn(locale, st, 0)
    act(st, 0, "DA:G")
    texts["place"] = your_turn(locale, st, 0)
    act(st, 0, "A09")
    texts["build"] = your_turn(locale, st, 0)
    act(st, 0, "build C06")
    act(st, 0, "use subsidy")
    texts["subsidy"] = your_turn(locale, st, 0)
    assert "DA:R = the red element of DA" in texts["turn"] \
        or "DA:R = l'élément rouge de DA" in texts["turn"]
    words = WORDS[locale]
    assert "C06" in texts["turn"] and f"`{words['draw']} {words['deck']}`" in texts["turn"]
    assert "`A09`" in texts["place"] and words["back"] in texts["place"]
    assert f"{words['type']} {words['build']} C06" in texts["build"]
    assert f"{words['build']} {words['none']}" in texts["build"]
    assert f"{words['draw']} {words['deck']}" in texts["subsidy"]
    if locale == "fr":
        # The English command words appear nowhere in a French prompt
        assert not re.search(r"\b(draw|build|back|use|end)\b", " ".join(texts.values()))
    for text in texts.values():
        assert NAMES[0] in text and "None" not in text


WORDS = {
    "en": {"draw": "draw", "deck": "deck", "build": "build", "none": "none", "back": "back",
           "type": "type"},
    "fr": {"draw": "piocher", "deck": "paquet", "build": "construire", "none": "aucun",
           "back": "retour", "type": "tapez"},
}
EXAMPLE = re.compile(r"\b((?:build|construire|draw|piocher) C\d+|reserve:[RGPB]|[A-Z]{2}:[RGPB]"
                     r"|[A-Z]\d\d)\b")


@pytest.mark.parametrize("locale", LOCALES)
def test_every_example_in_a_prompt_can_be_typed_as_it_stands(locale: str) -> None:
    """The prompts' examples (a card to draw, an element to take, a cell) are the seat's
    own options at that moment: a fixed "draw C10" named a card that had often left the
    offer, and a newcomer who typed it was refused."""
    seen: set[str] = set()
    for seed in range(3):
        st = GAME.setup(4, {}, seed)
        rng = Rng.from_seed(seed)
        greedy = GAME.ai("greedy")
        while GAME.outcome(st) is None:
            seat = st.current
            legal = {a.text() for a in GAME.legal_actions(st, seat)}
            text = your_turn(locale, st, seat).split("\nYour hand")[0].split("\nVotre main")[0]
            prompt = text.split("Options (")[0]
            for example in EXAMPLE.findall(prompt):
                # an example is typed in the reader's words, and read as a legal action
                head = example.split(" ")[0]
                seen.add("d" if head in ("draw", "piocher") else head.split(":")[0][:1])
                assert GAME.parse_action(st, seat, example).text() in legal, (example, prompt)
            GAME.apply(st, seat, greedy.choose(st, seat, rng))
    # draws, takes (a manufacture's letters), cells and the reserve were all exercised
    assert {"d", "r"} <= seen and len(seen) >= 4


@pytest.mark.parametrize("locale", LOCALES)
def test_refusal_gives_the_reason(locale: str) -> None:
    from bot.service.errors import Refused
    from bot.text import Renderer

    refused = Refused("illegal", "D30 is not open to this element; it may go on D01.",
                      typed="D30", reason="cell_closed",
                      reason_params={"cell": "D30", "cells": ["D01"]},
                      options=[{"text": "D01"}])
    text = Renderer().refusal(refused, locale=locale, game="neotopia")
    now = {"en": "is not possible now: D30 is not open", "fr": "n'est pas possible maintenant"}
    assert "`D30`" in text and now[locale] in text and "`D01`" in text


@pytest.mark.parametrize("locale", LOCALES)
def test_text_view(locale: str) -> None:
    st = position(4, active=1, board={"D00": "R", "D01": "B"}, tokens={2: ["automation"]})
    text = ENV.get_template(f"{locale}/neotopia/view.txt").render(
        {"view": GAME.view(st, 1), "locale": locale})
    deck = {"en": "draw deck", "fr": "piocher paquet"}[locale]
    assert "01B 02." in text and "06. 00R" in text and "FD" in text and deck in text
    assert "None" not in text


@pytest.mark.parametrize("locale", LOCALES)
def test_rules_say_how_to_type_every_action_and_that_the_set_is_a_house_set(
        locale: str) -> None:
    text = (ROOT / locale / "discord" / "rules_neotopia.txt").read_text(encoding="utf-8")
    forms = {
        "en": ("`draw C10`", "`draw deck`", "`FD:P`", "`D11`", "`FD:P>D11`", "`back`",
               "`build C44`", "`build none`", "`use subsidy`", "`use automation`",
               "`use initiative`", "`use permits`", "`end`"),
        # French readers are shown the French words, which parse to the same actions.
        "fr": ("`piocher C10`", "`piocher paquet`", "`FD:P`", "`D11`", "`FD:P>D11`",
               "`retour`", "`construire C44`", "`construire aucun`",
               "`utiliser subvention`", "`utiliser automatisation`",
               "`utiliser initiative`", "`utiliser permis`", "`fin`"),
    }[locale]
    for form in forms:
        assert form in text
    assert ("house set" if locale == "en" else "jeu maison") in text
    assert len(text) < 2000


def test_french_options_and_view_show_the_french_command_words() -> None:
    """A French reader is shown the French words (which the parser reads into the same
    actions as the English ones); the engine's action texts stay English for the log."""
    from bot.text import Renderer

    st = position(4, active=0, board={"A00": "B", "A01": "R", "A02": "G", "A03": "G",
                                       "A10": "G"},
                  manufactures={"DA": ["G", "R"], "AF": ["B"], "FD": ["P"]},
                  hands={0: ["C06"]}, tokens={0: ["subsidy"]})
    options = [{"text": a.text()} for a in GAME.legal_actions(st, 0)]
    shown = {}
    for locale in LOCALES:
        shown[locale] = Renderer().render_template(
            "your_turn", {"table_id": 7, "name": "Alice", "seat": 0,
                          "view": GAME.view(st, 0), "decision": "turn", "options": options,
                          "deadline": None}, locale=locale, game="neotopia")
    assert "`draw deck`" in shown["en"] and "`use subsidy`" in shown["en"]
    assert "`piocher paquet`" in shown["fr"] and "`utiliser subvention`" in shown["fr"]
    assert "draw" not in shown["fr"] and "`use " not in shown["fr"]
    for french, english in (("piocher paquet", "draw deck"), ("utiliser subvention",
                                                               "use subsidy")):
        assert GAME.parse_action(st, 0, french) == GAME.parse_action(st, 0, english)
        assert GAME.parse_action(st, 0, french).text() == english
    view = {"view": {**GAME.view(st, 0), "legal": [o["text"] for o in options]},
            "locale": "fr"}
    text = ENV.get_template("fr/neotopia/view.txt").render(view)
    assert "piocher paquet" in text and "draw deck" not in text
    act(st, 0, "DA:G")
    act(st, 0, "A09")
    build = [{"text": a.text()} for a in GAME.legal_actions(st, 0)]
    text = Renderer().render_template("your_turn", {
        "table_id": 7, "name": "Alice", "seat": 0, "view": GAME.view(st, 0),
        "decision": "build", "options": build, "deadline": None}, locale="fr",
        game="neotopia")
    assert "`construire C06`, `construire aucun`" in text
    assert GAME.parse_action(st, 0, "construire aucun").text() == "build none"


@pytest.mark.parametrize("locale", LOCALES)
def test_prompt_hand_line_says_each_project_in_words(locale: str) -> None:
    """The hand line once read "C06 (GG, 2/4)", never explained: it names the type and
    the points the project is worth to this player."""
    st = position(4, active=0, board={"A00": "B"}, hands={0: ["C06"]})
    card = GAME.view(st, 0)["players"][0]["hand"][0]
    points = card["points"]
    if card["building"]:
        mine = GAME.view(st, 0)["players"][0]["colour"] == card["building"]
        points = points["own_colour" if mine else "other_colour"]
    line = next(ln for ln in your_turn(locale, st, 0).splitlines()
                if ln.startswith(("Your hand", "Votre main")))
    name = card[f"type_name_{locale}"]
    unit = "point" if points == 1 else "points"
    words = {"en": f"C06 {name} ({card['type']}, {points} {unit} for you)",
             "fr": f"C06 {name} ({card['type']}, {points} {unit} pour vous)"}
    assert words[locale] in line and "/" not in line
