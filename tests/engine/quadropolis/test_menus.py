"""Menus from the legal moves stay within Discord's 25 options, in two steps at most."""

from __future__ import annotations

import pytest

from bot.discord.menus import groups_of, plan
from engine.core.rng import Rng
from engine.quadropolis import GAME


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_every_decision_fits_a_menu(mode: str) -> None:
    state = GAME.setup(4, {"mode": mode}, 41)
    rng = Rng.from_seed(41)
    ai = GAME.ai("random")
    widest = 0
    while GAME.outcome(state) is None:
        seat = state.to_play
        assert seat is not None
        texts = [a.text() for a in GAME.legal_actions(state, seat)]
        menu = plan(texts, table=123456, version=9999)
        assert not menu.typed_only and not menu.empty
        if state.phase == "take":
            groups = groups_of(texts)
            assert {g.key for g in groups} <= {"A1", "A2", "A3", "A4", "A5"}
            assert all(len(g.texts) <= 20 for g in groups)
        else:
            assert len(texts) <= 25 and texts[-1] == "discard"
        widest = max(widest, len(texts))
        GAME.apply(state, seat, ai.choose(state, seat, rng))
    assert widest == (80 if mode == "classic" else 100)
