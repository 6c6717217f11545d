"""Refusals say why in the reader's language: every code an engine can raise (read from
its source) has an entry in both locales, a French table never reads the engine's English
sentence, and no refusal says the same thing twice."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import HOST, PLAYERS

from bot.clock import FakeClock
from bot.service import Refused, TableService, TableSettings
from bot.store import SqliteStore
from bot.text import TEMPLATES, Renderer
from tests.bot.refusal_codes import GAMES, codes_of, raised_by

LOCALES = ("en", "fr")
SERVICE_CODES = {"not_legal"}  # bot/service/turns.py: the legal list has the last word
SENTINEL = "Zqx English sentence from the engine."
RENDERER = Renderer()  # one environment: its templates are compiled once
ENGLISH = re.compile(r"\b(the|is|not|you|your|cannot|write|there|only|have|must)\b", re.I)


class AnyParams(dict[str, Any]):
    """Values a template may ask for: any name it reads is there (``p.get`` gives its own
    default), so an entry renders without the engine at hand."""

    def __missing__(self, key: str) -> str:
        return f"<{key}>"

    def __bool__(self) -> bool:
        return True


def _literals(locale: str, game: str) -> str:
    own = TEMPLATES / locale / game / "_reason.txt"
    return own.read_text(encoding="utf-8") + (TEMPLATES / locale / "_reason.txt").read_text(
        encoding="utf-8")


@pytest.mark.parametrize("game", GAMES)
def test_every_error_of_every_game_names_its_code(game: str) -> None:
    assert [r for r in raised_by(game) if not r.explicit] == []


@pytest.mark.parametrize("game", GAMES)
def test_every_parse_error_names_its_code(game: str) -> None:
    assert [r for r in raised_by(game) if r.kind == "ParseError" and not r.explicit] == []


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", GAMES)
def test_every_code_has_an_entry_in_both_locales(game: str, locale: str) -> None:
    text = _literals(locale, game)
    missing = sorted(c for c in codes_of(game) | SERVICE_CODES if f'"{c}"' not in text)
    assert missing == []


@pytest.mark.parametrize("game", GAMES)
def test_every_code_reads_in_french_without_the_engine_s_sentence(game: str) -> None:
    renderer = Renderer()
    for code in sorted(codes_of(game) | SERVICE_CODES):
        for kind in ("illegal", "parse"):
            refused = Refused(kind, SENTINEL, typed="x1", reason=code,
                              reason_params=AnyParams(), options=[])
            text = renderer.refusal(refused, locale="fr", game=game)
            assert "Zqx" not in text, (code, text)
            assert ("pas possible maintenant" in text) or ("pas compris" in text), text
            if code not in ("not_legal", "illegal", "parse"):
                # A reason follows the opening, in French.
                assert " : " in text, (code, text)
                assert ENGLISH.search(re.sub(r"`[^`]*`", "", text)) is None, (code, text)


# A bad move a new player might type, for each game: (text, the engine's code).
BAD_MOVES: dict[str, list[tuple[str, str]]] = {
    "ginkgopolis": [("foo", "unreadable"), ("R7", "wrong_phase"), ("A@0,0", "no_token_to_move")],
    "quadropolis": [("A9@L1", "bad_architect"), ("r1c1", "take_first")],
    "neotopia": [("draw X99", "not_a_card"), ("end", "wrong_stage")],
    "skybridge": [("purple 3@1", "not_a_colour"), ("bridge 1-2", "bridge_on_empty")],
}


async def _refusals(game: str, store: SqliteStore, clock: FakeClock
                    ) -> list[tuple[str, Refused]]:
    from tests.bot.conftest import RenderingNotifier

    service = TableService(store, RenderingNotifier(), clock=clock)
    info = await service.create(HOST, game, seed=3,
                                settings=TableSettings(seat_order="join", locale="fr"))
    await service.join(info.id, PLAYERS[1])
    await service.start(info.id, HOST)
    current = await service.info(info.id)
    seat = sorted(current.waiting)[0]
    found = []
    for text, code in BAD_MOVES[game]:
        with pytest.raises(Refused) as info_:
            await service.act_text(info.id, PLAYERS[seat], text)
        assert info_.value.context["reason"] == code, info_.value.context
        found.append((text, info_.value))
    return found


@pytest.mark.parametrize("game", GAMES)
async def test_a_bad_move_is_refused_in_french_with_its_reason(
        game: str, store: SqliteStore, clock: FakeClock) -> None:
    renderer = Renderer()
    for typed, refused in await _refusals(game, store, clock):
        fr = renderer.refusal(refused, locale="fr", game=game)
        en = renderer.refusal(refused, locale="en", game=game)
        opening = fr.partition("\n")[0]
        english_reason = refused.message.split(" Possible now:")[0].split(" Legal now:")[0]
        assert english_reason not in fr
        assert " : " in opening and ENGLISH.search(re.sub(r"`[^`]*`", "", opening)) is None, fr
        # The engine's reason in English, said once, after the typed move said once.
        assert en.lower().count(english_reason.lower()) == 1, en
        for text in (fr, en):
            assert text.count(f"`{typed}`") == 1, text
            assert "Possible now" not in text and "Legal now" not in text, text


# Typed mistakes a player makes, and moves that were possible once but are not now.
TYPOS = ("", "zzz", "#", "A9@L1", "r9c9", "A1@Q7", "draw X99", "build X99", "use nothing",
         "FD", "FD:Z", "FD:P>Q99", "purple 3@1", "3@0", "bridge 1", "bridge 1-1", "x3@5",
         "roof 99", "R7:res", "A", "A@1,x", "draft 99", "give Z1", "9" * 12, "red 3@1")


def _french_reads(game: str, exc: Exception, typed: str) -> None:
    from engine.core import IllegalAction, ParseError

    assert isinstance(exc, ParseError | IllegalAction)
    kind = "parse" if isinstance(exc, ParseError) else "illegal"
    refused = Refused(kind, exc.message, typed=typed, reason=exc.code,
                      reason_params=dict(exc.params), options=[])
    text = RENDERER.refusal(refused, locale="fr", game=game)
    english = refused.message.split(" Possible now:")[0].split(" Legal now:")[0]
    # A template that failed on the engine's real values would fall back to its message.
    assert english not in text, (exc.code, text)
    assert "pas possible maintenant" in text or "pas compris" in text, text
    assert RENDERER.refusal(refused, locale="en", game=game)


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_met_in_a_played_game_reads_in_french(
        game: str, caplog: pytest.LogCaptureFixture) -> None:
    """The engines' real values fill the entries: typos and stale moves at every step of
    a seeded game are refused in French, never by the English fallback, and no template
    of either locale fails on them."""
    from engine.core import IllegalAction, ParseError, Rng, get_game

    engine = get_game(game)
    state = engine.setup(3, {}, 11)
    rng = Rng.from_seed(11)
    seen: set[str] = set()
    stale: list[Any] = []
    for _ in range(60):
        waiting = sorted(engine.pending(state).waiting)
        if not waiting:
            break
        seat = waiting[0]
        copy = engine.state_from_json(engine.state_to_json(state))
        for typed in TYPOS:
            try:
                engine.parse_action(copy, seat, typed)
            except (ParseError, IllegalAction) as exc:
                seen.add(exc.code)
                _french_reads(game, exc, typed)
        legal = engine.legal_actions(state, seat)
        for action in stale[-6:]:
            if action in legal:
                continue
            try:
                engine.apply(engine.state_from_json(engine.state_to_json(state)), seat, action)
            except IllegalAction as exc:
                seen.add(exc.code)
                _french_reads(game, exc, action.text())
        stale += legal[:3]
        engine.apply(state, seat, legal[rng.randbelow(len(legal))])
    assert len(seen) >= 4, seen  # the walk met several kinds of refusal
    assert [r.getMessage() for r in caplog.records if r.name == "bot.text"] == []
