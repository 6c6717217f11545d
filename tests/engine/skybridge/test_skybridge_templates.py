"""Every sentence about Skybridge comes from templates/<locale>/skybridge/, in en and fr."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
import pytest
from skyhelp import GAME, board_of, play, scenario

from bot.service import Refused
from bot.text import Renderer
from engine.core.play import playout
from engine.core.protocol import Action
from engine.core.rng import Rng
from engine.skybridge.scoring import outcome
from engine.skybridge.state import SkybridgeState

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


def say(locale: str, kind: str, data: dict[str, Any]) -> str:
    # The service spreads the event's data into the context, beside the seat names.
    context = {**data, "data": data, "names": NAMES, "locale": locale, "event": kind}
    return ENV.get_template(f"{locale}/skybridge/event_{kind}.txt").render(context).strip()


def all_events() -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for seats, options in ((2, {"choose_colour": True}), (3, {}), (4, {"elimination": True})):
        for seed in range(4):
            state = GAME.setup(seats, options, seed)
            rng = Rng.from_seed(seed)

            def choose(st: SkybridgeState, seat: int, rng: Rng = rng) -> Action:
                return rng.choice(GAME.legal_actions(st, seat))

            playout(
                GAME,
                state,
                choose,
                on_apply=lambda seat, action, evs: events.extend(e.to_json() for e in evs),
            )
    return events


EVENTS = all_events()


def test_games_produce_every_event_kind() -> None:
    kinds = {e["kind"] for e in EVENTS}
    assert kinds >= {"block_placed", "bridge_placed", "roof_placed", "game_over"}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_event_renders_with_the_actors_name(locale: str) -> None:
    for event in EVENTS:
        text = say(locale, event["kind"], event["data"])
        assert text and "None" not in text and "{" not in text
        if "seat" in event["data"]:
            assert NAMES[event["data"]["seat"]] in text


@pytest.mark.parametrize("locale", LOCALES)
def test_skip_and_elimination_sentences(locale: str) -> None:
    skipped = {"seat": 1, "colours": ["red", "green"], "eliminated": False}
    out = {**skipped, "eliminated": True}
    expected = {
        "en": (
            "Bruno cannot place any red or green piece and is skipped this turn.",
            "Bruno cannot place any red or green piece and is out of the game.",
        ),
        "fr": (
            "Bruno ne peut poser aucune pièce rouge ni verte et passe son tour.",
            "Bruno ne peut poser aucune pièce rouge ni verte et sort de la partie.",
        ),
    }[locale]
    assert (say(locale, "turn_skipped", skipped), say(locale, "turn_skipped", out)) == expected


def test_placement_sentences() -> None:
    state = scenario(4, {5: "Y3", 6: "G3"}, turn_seat=0)
    (block,) = [e for e in play(state, 0, "3@1") if e["kind"] == "block_placed"]
    assert say("en", "block_placed", block["data"]) == (
        "Alice placed a 3-storey red block on foundation 1; that tower is now 3 storeys high."
    )
    assert say("fr", "block_placed", block["data"]) == (
        "Alice a posé un bloc rouge de 3 étages sur la fondation 1 ; "
        "cette tour fait maintenant 3 étages."
    )
    bridge = {"seat": 2, "colour": "green", "foundations": [5, 6], "height": 4}
    assert say("en", "bridge_placed", bridge) == (
        "Chloé laid the green bridge across foundations 5 and 6; "
        "both towers are now 4 storeys high."
    )
    roof = {"seat": 3, "colour": "blue", "foundation": 5, "storeys": 9}
    assert say("fr", "roof_placed", roof) == (
        "Dmitri a posé un toit bleu sur la fondation 5 : cette tour de 9 étages "
        "est fermée et compte désormais pour le bleu."
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_game_over_names_shared_winners(locale: str) -> None:
    text = say(locale, "game_over", {"totals": [6, 6, 0, 0], "winners": [0, 1]})
    assert "Alice" in text and "Bruno" in text and "6" in text


@pytest.mark.parametrize("locale", LOCALES)
def test_score_lines_render_for_every_key(locale: str) -> None:
    result = outcome(board_of({1: "Y3 R= G2 R^", 2: "B3 R= Y3 R^"}), 4)
    lines = [ln for s in result.standings for ln in s.lines]
    assert {ln.key for ln in lines} == {"roof", "bridge_double"}
    result2 = outcome(board_of({1: "Y3 R= G2 R^", 2: "B3 R= Y2"}), 4)
    lines += list(result2.standings[0].lines)
    template = ENV.get_template(f"{locale}/skybridge/score_line.txt")
    for line in lines:
        text = template.render(line={"key": line.key, "points": line.points, "detail": line.detail})
        assert text and text != line.key and "None" not in text


@pytest.mark.parametrize("locale", LOCALES)
def test_your_turn_explains_the_text_forms(locale: str) -> None:
    state = GAME.setup(3, {}, 1)
    seat = min(GAME.pending(state).waiting)
    options = [{"text": a.text()} for a in GAME.legal_actions(state, seat)]
    context = {
        "table_id": 7,
        "name": NAMES[seat],
        "seat": seat,
        "view": GAME.view(state, seat),
        "decision": "place",
        "options": options,
        "deadline": None,
        "locale": locale,
    }
    text = ENV.get_template(f"{locale}/skybridge/your_turn.txt").render(context)
    assert NAMES[seat] in text and "3@5" in text and "x3@5" in text and "`3@1`" in text


@pytest.mark.parametrize(("locale", "why"), [
    ("en", "may not rest on a red piece"),
    ("fr", "ne repose pas sur une pièce de sa couleur"),
])
def test_refusal_gives_the_reason(locale: str, why: str) -> None:
    """The reason comes from the engine's code, in the reader's language."""
    refused = Refused("illegal", "A red piece may not rest on a red piece (top of "
                      "foundation 1).", typed="3@1", reason="same_colour", reason_params={},
                      options=[{"text": "3@2", "json": {}}], legal=["3@2"])
    text = Renderer().refusal(refused, locale=locale, game="skybridge")
    assert "`3@1`" in text and why in text and "`3@2`" in text


@pytest.mark.parametrize("locale", LOCALES)
def test_text_view_lists_every_tower_bottom_to_top(locale: str) -> None:
    state = scenario(3, {1: "Y3 R= G2 R^", 2: "B3 R= Y2"}, turn_seat=1)
    context = {"view": GAME.view(state, 1), "locale": locale}
    text = ENV.get_template(f"{locale}/skybridge/view.txt").render(context)
    assert "1  h 6   Y3 =R>2 G2 ^R" in text
    assert "2  h 6   B3 =R>1 Y2" in text
    assert "9  h 0" in text
    assert "x3@" in text and "3@3" in text  # the fourth colour's blocks, and the legal moves
    assert "12" in text  # red's live score: 6 + 6


@pytest.mark.parametrize("locale", LOCALES)
def test_prompt_and_hand_speak_of_moves_without_an_empty_line(locale: str) -> None:
    """Skybridge deals no hand, so /hand and the closed-DM notice speak of moves; the
    prompt is one block of text (it once held an empty line)."""
    state = GAME.setup(3, {}, 1)
    seat = min(GAME.pending(state).waiting)
    context = {"table_id": 7, "name": NAMES[seat], "seat": seat,
               "view": GAME.view(state, seat), "decision": "place", "deadline": None,
               "options": [{"text": a.text()} for a in GAME.legal_actions(state, seat)]}
    texts = [Renderer().render_template(name, context, locale=locale, game="skybridge")
             for name in ("your_turn", "hand")]
    texts.append(Renderer().render_template(
        "dm_unreachable", {"names": NAMES, "unreachable_seat": 0, "table_id": 7},
        locale=locale, game="skybridge"))
    for text in texts:
        assert "\n\n" not in text and "None" not in text
        assert "hand," not in text and "your hand" not in text and "main" not in text
    assert ("your moves" if locale == "en" else "vos coups") in texts[1]
    ginkgo = Renderer().render_template("hand", context, locale=locale, game="ginkgopolis")
    assert ("your hand" if locale == "en" else "votre main") in ginkgo


@pytest.mark.parametrize("locale", LOCALES)
def test_game_over_counts_points_as_the_score_does(locale: str) -> None:
    alone = say(locale, "game_over", {"totals": [69, 12], "winners": [0]})
    one = say(locale, "game_over", {"totals": [1, 1], "winners": [0, 1]})
    assert "69 points" in alone and "1 point " in one + " "
    assert "storey" not in alone + one and "étage" not in alone + one


def test_french_texts_show_the_french_move_words_which_parse_alike() -> None:
    """French readers are shown `pont 5-6` and `toit 5` (the refusals as the prompt
    does); the parser reads them as the English `bridge 5-6` and `roof 5`."""
    import re

    for path in sorted((ROOT / "fr" / "skybridge").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\b(bridge|roof) \d", text), path.name
    rules = (ROOT / "fr" / "discord" / "rules_skybridge.txt").read_text(encoding="utf-8")
    assert "`pont 5-6`" in rules and "`toit 5`" in rules
    state = GAME.setup(2, GAME.default_options(), 1)
    for french, english in (("pont 5-6", "bridge 5-6"), ("toit 5", "roof 5")):
        assert GAME.parse_action(state, 0, french) == GAME.parse_action(state, 0, english)
