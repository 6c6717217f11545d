"""Neotopia says which element a manufacture offers when the one asked for is not there,
and which manufactures can be taken from, in both languages (stable codes and values)."""

from __future__ import annotations

import pytest

from bot.service.errors import Refused
from bot.text import Renderer
from engine.core import IllegalAction
from engine.neotopia.actions import Move, Take
from tests.engine.neotopia.helpers import GAME, position


def _refused(action: Take | Move) -> IllegalAction:
    st = position(3, active=0, board={"D00": "R"},
                  manufactures={"FD": ["G"], "DA": [], "AF": ["R", "B"]})
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, 0, action)
    return info.value


@pytest.mark.parametrize("action", [Take("FD", "R"), Move("FD", "R", "D01")])
def test_a_colour_the_manufacture_lacks_names_what_it_offers(action: Take | Move) -> None:
    error = _refused(action)
    assert error.code == "colour_absent"
    assert (error.params["source"], error.params["colours"]) == ("FD", ["G"])
    refused = Refused("illegal", error.message, typed=action.text(), reason=error.code,
                      reason_params=dict(error.params), options=[])
    en = Renderer().refusal(refused, locale="en", game="neotopia")
    fr = Renderer().refusal(refused, locale="fr", game="neotopia")
    assert "FD offers no red element now (it offers green)" in en
    assert "FD n'offre pas d'élément rouge maintenant (elle offre vert)" in fr


def test_an_empty_manufacture_names_those_that_are_not() -> None:
    error = _refused(Take("DA", "P"))
    assert error.code == "source_closed" and error.params["sources"] == ["AF", "FD"]
    refused = Refused("illegal", error.message, typed="DA:P", reason=error.code,
                      reason_params=dict(error.params), options=[])
    fr = Renderer().refusal(refused, locale="fr", game="neotopia")
    assert "on ne peut rien prendre en DA maintenant (possible : AF, FD)" in fr
