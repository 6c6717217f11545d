"""The private image shows the seat's hand, tiles and screen, and only that seat's secrets."""

from __future__ import annotations

import copy

import pytest

from engine.ginkgopolis.cards import is_urbanization
from engine.ginkgopolis.render import hand_layout, render_private
from engine.ginkgopolis.render.palette import BUILDING_FILL, BUILDING_PATTERN, TOKEN_FILL
from tests.engine.ginkgopolis.render.states import GAME, early, late5, png, share


def test_deterministic() -> None:
    st = early()
    assert render_private(GAME.view(st, 2)) == render_private(GAME.view(copy.deepcopy(st), 2))


def test_hand_cards_are_drawn_with_their_colour_or_letter_card() -> None:
    st = early()
    view = GAME.view(st, 1)
    im = png(render_private(view))
    lay = hand_layout(view)
    hand = view["me"]["hand"]
    assert len(lay.cards) == len(hand) == 4
    for box, card in zip(lay.cards, hand, strict=True):
        if is_urbanization(card):
            assert share(im, box, [TOKEN_FILL], tol=4) > 0.4, card
        else:
            colours = [BUILDING_FILL[card[0]], BUILDING_PATTERN[card[0]]]
            assert share(im, box, colours) > 0.25, card


def test_tiles_behind_the_screen_are_drawn() -> None:
    st = late5()
    st.players[0].tiles = ["B12", "R7", "Y3", "Y19", "B2", "R20", "R1", "B9"]
    view = GAME.view(st, 0)
    im = png(render_private(view))
    lay = hand_layout(view)
    assert len(lay.tiles) == 8
    for box, tile in zip(lay.tiles, view["me"]["tiles"], strict=True):
        assert share(im, box, [BUILDING_FILL[tile[0]], BUILDING_PATTERN[tile[0]]]) > 0.35, tile
        assert im.size == lay.size


def test_other_seats_secrets_do_not_change_my_image() -> None:
    st = early()
    other = GAME.scramble_hidden(st, 1, 7)
    assert [p.hand for i, p in enumerate(st.players) if i != 1] != [
        p.hand for i, p in enumerate(other.players) if i != 1
    ]
    assert render_private(GAME.view(st, 1)) == render_private(GAME.view(other, 1))


def test_my_own_hand_changes_my_image() -> None:
    st = early()
    changed = copy.deepcopy(st)
    changed.players[1].hand[0], changed.players[2].hand[0] = (
        changed.players[2].hand[0],
        changed.players[1].hand[0],
    )
    assert st.players[1].hand != changed.players[1].hand
    assert render_private(GAME.view(st, 1)) != render_private(GAME.view(changed, 1))


def test_draft_packet_takes_the_place_of_the_hand() -> None:
    st = GAME.setup(3, {}, 9)
    view = GAME.view(st, 0)
    assert view["me"]["packet"] and not view["me"]["hand"]
    lay = hand_layout(view)
    assert len(lay.cards) == len(view["me"]["packet"])
    im = png(render_private(view))
    from engine.ginkgopolis.cards import CHARACTERS

    for box, cid in zip(lay.cards, view["me"]["packet"], strict=True):
        color = CHARACTERS[cid].color
        assert share(im, box, [BUILDING_FILL[color], BUILDING_PATTERN[color]]) > 0.2, cid


def test_public_view_is_refused() -> None:
    with pytest.raises(ValueError, match="seat's view"):
        render_private(GAME.view(early(), None))
