"""Templates: every refusal and notification has a text in each locale; lookups fall
back from game to generic and from French to English; the view pretty printer."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import REFUSAL_CODES, Notification, Refused
from bot.text import TEMPLATES, Renderer, discord_time, duration
from bot.viewtext import pretty

GENERIC = ["lobby", "joined", "bot_added", "left", "kicked", "replaced", "started",
           "your_turn", "hand", "reminder", "submitted", "waiting", "acted", "event",
           "timeout_played", "paused", "resumed", "extended", "aborted", "game_over", "view",
           "refusal", "console_help"]


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_every_generic_template_exists(locale: str) -> None:
    names = GENERIC + [f"refusal_{code}" for code in REFUSAL_CODES]
    missing = [n for n in names if not (TEMPLATES / locale / f"{n}.txt").is_file()]
    assert missing == []


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("code", REFUSAL_CODES)
def test_every_refusal_renders(locale: str, code: str) -> None:
    refused = Refused(code, "Because.", options=[{"text": "p3", "json": {}}], legal=["p3"],
                      typed="p9", max_seats=4, min_seats=2, seats=1, game="x",
                      seat_number=9, current_version=3, prompt_version=2)
    text = Renderer().refusal(refused, locale=locale)
    assert text and "{{" not in text


def _note(template: str, locale: str = "fr", game: str = "nogame", **context: object
          ) -> Notification:
    return Notification(table_id=1, seat=None, template=template, context=context, game=game,
                        locale=locale, fallback="event" if template.startswith("event_") else None)


def test_game_templates_win_and_generic_ones_catch_the_rest(tmp_path: Path) -> None:
    for locale in ("en", "fr"):
        (tmp_path / locale / "demo").mkdir(parents=True)
        (tmp_path / locale / "event.txt").write_text("generic {{ event }}")
    (tmp_path / "en" / "demo" / "event_boom.txt").write_text("{{ names[seat] }} goes boom")
    (tmp_path / "en" / "joined.txt").write_text("{{ joined_name }} joined")
    renderer = Renderer(tmp_path)
    boom = _note("event_boom", locale="en", game="demo", names=["Ann"], seat=0, event="boom")
    assert renderer.render(boom) == "Ann goes boom"
    # No French text for this event: the English sentence beats the generic fallback.
    french = _note("event_boom", locale="fr", game="demo", names=["Ann"], seat=0, event="boom")
    assert renderer.render(french) == "Ann goes boom"
    other = _note("event_other", locale="fr", game="demo", event="other")
    assert renderer.render(other) == "generic other"
    # A template missing in French comes from English.
    assert renderer.render(_note("joined", joined_name="Bo")) == "Bo joined"
    with pytest.raises(LookupError):
        renderer.render(_note("nothing_at_all"))


def test_a_broken_game_template_falls_back(tmp_path: Path) -> None:
    (tmp_path / "en" / "demo").mkdir(parents=True)
    (tmp_path / "en" / "event.txt").write_text("generic {{ event }}")
    (tmp_path / "en" / "demo" / "event_boom.txt").write_text("{{ missing_variable }}")
    note = _note("event_boom", locale="en", game="demo", event="boom")
    assert Renderer(tmp_path).render(note) == "generic boom"


def test_time_and_duration_filters() -> None:
    assert discord_time(1_800_000_000.7) == "<t:1800000000:R>"
    assert duration(86400) == "1 d" and duration(5400) == "1 h 30 min" and duration(20) == "20 s"
    renderer = Renderer(time_format=discord_time)
    note = Notification(table_id=1, seat=0, template="reminder", locale="en", game="nogame",
                        context={"name": "Ann", "table_id": 1, "game": "g",
                                 "decision": "pick", "deadline": 1_800_000_000})
    assert "<t:1800000000:R>" in renderer.render(note)


def test_pretty_view_is_readable() -> None:
    text = pretty({"round": 2, "hand": [3, 5], "players": [{"seat": 0, "sp": 4},
                                                           {"seat": 1, "sp": None}],
                   "board": {"a": {"b": [1, {"c": True}]}}})
    assert text.splitlines()[:2] == ["round: 2", "hand: [3, 5]"]
    assert "  - {seat: 0, sp: 4}" in text and "{seat: 1, sp: -}" in text
    assert "c: yes" in text


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_ginkgopolis_text_board_keeps_its_columns_and_fits_80(locale: str) -> None:
    from tests.engine.ginkgopolis.render.states import GAME, early, late5

    for state in (early(), late5()):
        view = GAME.view(state, None)
        text = Renderer().render_template("view", {"view": view}, locale=locale,
                                          game="ginkgopolis")
        lines = text.splitlines()
        ys = sorted({int(b["y"]) for b in view["board"]}
                    | {int(c[1]) for c in view["tokens"].values()})
        rows = [ln for ln in lines if ln[:4].strip().lstrip("-").isdigit()
                and int(ln[:4]) in ys and len(ln) > 10]
        assert len(rows) == len(ys)
        # Token cells, buildings and empty cells are the same width: every row is as
        # long as the others, and each building code starts on a column boundary.
        assert len({len(r) for r in rows}) == 1
        assert all(len(r) <= 80 for r in rows)
        for b in view["board"]:
            row = next(r for r in rows if int(r[:4]) == int(b["y"]))
            xs = sorted({int(c["x"]) for c in view["board"]}
                        | {int(c[0]) for c in view["tokens"].values()})
            start = 5 + 9 * xs.index(int(b["x"]))
            assert row[start:start + 3].strip() == b["top"]
        for letter, (x, y) in view["tokens"].items():
            row = next(r for r in rows if int(r[:4]) == int(y))
            xs = sorted({int(c["x"]) for c in view["board"]}
                        | {int(c[0]) for c in view["tokens"].values()})
            start = 5 + 9 * xs.index(int(x))
            assert row[start:start + 8].strip() == f"({letter})"


@pytest.mark.parametrize("game", ["ginkgopolis", "quadropolis", "neotopia", "skybridge", None])
@pytest.mark.parametrize("reason", ["illegal", "not_legal"])
def test_an_illegal_move_is_never_said_twice(game: str | None, reason: str) -> None:
    from bot.service.errors import Refused

    for locale, once in (("en", "is not possible now"), ("fr", "pas possible maintenant")):
        refused = Refused("illegal", "R16+R5 is not possible now.", typed="R16+R5",
                          reason=reason, reason_params={}, options=[])
        text = Renderer().refusal(refused, locale=locale, game=game)
        assert text.count(once) == 1 and text.count("R16+R5") == 1, text


def test_the_engines_reason_follows_once_without_its_own_list_of_moves() -> None:
    from bot.service.errors import Refused

    refused = Refused("illegal", "A bridge needs two towers: 2 is empty. Legal now: b1, b2",
                      typed="bridge 2-5", reason="bridge_on_empty", reason_params={},
                      options=[])
    en = Renderer().refusal(refused, locale="en", game="skybridge")
    assert en == "`bridge 2-5` is not possible now: A bridge needs two towers: 2 is empty."
    fr = Renderer().refusal(refused, locale="fr", game="skybridge")
    assert fr == ("`bridge 2-5` n'est pas possible maintenant : un pont a besoin de deux "
                  "tours, et l’une des fondations est vide.")
    parse = Refused("parse", "I could not read 'foo'. Possible now: draft 5", typed="foo",
                    reason="parse", reason_params={}, options=[])
    assert Renderer().refusal(parse, locale="en", game="ginkgopolis") == \
        "I did not understand `foo`: I could not read 'foo'."
    assert Renderer().refusal(parse, locale="fr", game="ginkgopolis") == \
        "Je n'ai pas compris `foo`."


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_draft_and_the_hand_say_what_each_card_does(locale: str) -> None:
    from engine.ginkgopolis.cards import CHARACTERS
    from engine.ginkgopolis.render.words import card_text, character_text
    from tests.engine.ginkgopolis.render.states import GAME

    state = GAME.setup(3, {}, 2)
    view = GAME.view(state, 0)
    text = Renderer().render_template("your_turn", {"view": view, "decision": "draft",
                                                    "table_id": 1, "name": "Zoé",
                                                    "deadline": None, "options": []},
                                      locale=locale, game="ginkgopolis")
    for c in view["me"]["packet"]:
        line = f"- {character_text(c, locale)}"
        assert line in text
        # The words come from the card data: the start and the bonus are both named.
        ch = CHARACTERS[c]
        assert f"+{ch.reward.res or ch.reward.tile or ch.reward.sp} " in line
    while GAME.view(state, 0)["phase"] == "draft":
        for seat in sorted(GAME.pending(state).waiting):
            GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    view = GAME.view(state, 0)
    text = Renderer().render_template("your_turn", {"view": view, "decision": "pick",
                                                    "table_id": 1, "name": "Zoé",
                                                    "deadline": None, "options": []},
                                      locale=locale, game="ginkgopolis")
    assert view["me"]["hand"]
    for card in view["me"]["hand"]:
        assert f"- {card_text(card, locale)}" in text


def test_a_game_without_a_glossary_shows_the_bare_value() -> None:
    env = Renderer().env
    template = env.from_string('{{ 7|words("card") }}')
    assert template.render(game="nosuchgame", locale="en") == "7"


def test_a_member_without_a_seat_is_named_as_a_member_not_as_a_seat() -> None:
    for locale, expected in (("en", "Zed has no seat at this table."),
                             ("fr", "Zed n'a pas de place à cette table.")):
        refused = Refused("no_seat", "Zed has no seat here.", member="Zed")
        assert Renderer().refusal(refused, locale=locale) == expected
    assert Renderer().refusal(Refused("no_seat", "x", seat_number=7), locale="en") == \
        "There is no seat 7 at this table."


# A count printed before one of these nouns must agree with it ("1 tile", "0 tuile"): the
# templates write noun{{ "s" if n != 1 }} in English and noun{{ "s" if n > 1 }} in French.
COUNTED_NOUNS = {
    "en": ("tiles", "cards", "inhabitants", "resources", "buildings", "floors", "games",
           "points", "projects", "actions", "elements", "storeys"),
    "fr": ("tuiles", "cartes", "habitants", "barils", "ressources", "bâtiments", "étages",
           "coups", "parties", "points", "projets", "actions", "éléments"),
}


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_no_count_is_printed_before_a_fixed_plural_noun(locale: str) -> None:
    import re

    nouns = "|".join(COUNTED_NOUNS[locale])
    fixed = re.compile(r"\{\{[^}]*\}\} (?:" + nouns + r")\b")
    found = []
    for path in sorted((TEMPLATES / locale).rglob("*.txt")):
        if "discord" in path.parts or path.name.startswith("image_alt"):
            continue  # the other engineer's files, kept out of this sweep
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(TEMPLATES)}:{number}: {m.group(0)}"
                      for m in fixed.finditer(line)]
    assert found == []


@pytest.mark.parametrize(("locale", "singular", "plural", "french_zero"), [
    ("en", "1 card", "2 cards", None), ("fr", "1 carte", "2 cartes", "0 carte"),
])
def test_counts_agree_with_their_noun(locale: str, singular: str, plural: str,
                                      french_zero: str | None) -> None:
    renderer = Renderer()

    def rebuilt(size: int) -> str:
        return renderer.render_template("event_deck_rebuilt",
                                        {"size": size, "added": [], "burned": []},
                                        locale=locale, game="ginkgopolis")
    assert singular in rebuilt(1) and plural in rebuilt(2)
    if french_zero:
        assert french_zero in rebuilt(0) and "0 cartes" not in rebuilt(0)
    refused = Refused("illegal", "No.", reason="cannot_pay", options=[], typed="R7",
                      reason_params={"tile": "R7", "card": "B12", "res": 1, "sp": 1})
    text = renderer.refusal(refused, locale=locale, game="ginkgopolis")
    assert ("1 resource and 1 success point." if locale == "en"
            else "1 ressource et 1 point de succès.") in text
    full = Refused("illegal", "No.", reason="stack_full", options=[], typed="A1",
                   reason_params={"space": "A1", "max": 1})
    text = renderer.refusal(full, locale=locale, game="quadropolis")
    assert ("already has 1 floor." if locale == "en" else "a déjà 1 étage.") in text
