"""The private image shows the seat's projects (each pattern drawn) and bonus tokens,
and only that seat's secrets."""

from __future__ import annotations

import pytest

from engine.neotopia.render import hand_layout, render_private
from engine.neotopia.render.cards import points_label
from engine.neotopia.render.model import read_card
from engine.neotopia.render.palette import ELEMENT_FILL, TOKEN_FILL, element_fill
from tests.engine.neotopia.render.documented import card_json, e2_view
from tests.engine.neotopia.render.states import GAME, NAMES, final4, mid4, png, share


def test_deterministic() -> None:
    st = mid4()
    assert render_private(GAME.view(st, 2), names=NAMES) == render_private(
        GAME.view(st.copy(), 2), names=NAMES)


def test_each_card_draws_its_pattern_in_its_colours() -> None:
    st = final4()
    for seat in range(st.seats):
        view = GAME.view(st, seat)
        im = png(render_private(view, names=NAMES))
        lay = hand_layout(view, NAMES)
        hand = view["players"][seat]["hand"]
        assert len(lay.cards) == len(hand)
        for box, card in zip(lay.cards, hand, strict=True):
            x0, y0, x1, y1 = box
            body = (x0, y0 + (y1 - y0) // 3, x1, y1)
            used = {col for _, _, col in card["pattern"]}
            for colour in used:
                # One cell of a colour on a card tall enough for 11 px letters: about 1.9%.
                assert share(im, body, [element_fill(colour)], tol=10) > 0.01, card["id"]
            for colour in set(ELEMENT_FILL) - used:
                assert share(im, body, [element_fill(colour)], tol=10) < 0.002, card["id"]


def test_bonus_tokens_held_are_drawn() -> None:
    view = e2_view(2)  # Chloé holds two tokens
    im = png(render_private(view, names=NAMES))
    lay = hand_layout(view, NAMES)
    assert len(lay.token_spots) == len(view["players"][2]["tokens"]) == 2
    for x0, y0, _x1, y1 in lay.token_spots:
        assert share(im, (x0 + 4, y0 + 6, x0 + 24, y1 - 6), [TOKEN_FILL], tol=6) > 0.3
    none = e2_view(3)
    assert hand_layout(none, NAMES).token_spots == ()


def test_other_seats_secrets_do_not_change_my_image() -> None:
    st = mid4()
    other = GAME.scramble_hidden(st, 1, 7)
    assert [h for i, h in enumerate(st.hands) if i != 1] != [
        h for i, h in enumerate(other.hands) if i != 1]
    assert render_private(GAME.view(st, 1), names=NAMES) == render_private(
        GAME.view(other, 1), names=NAMES)


def test_my_own_hand_changes_my_image() -> None:
    a = e2_view(3, hands=[["C01"], ["C02"], ["C03"], ["C44", "C49"]])
    b = e2_view(3, hands=[["C01"], ["C02"], ["C03"], ["C44", "C50"]])
    assert render_private(a) != render_private(b)


def test_building_points_depend_on_the_reader() -> None:
    green_building = read_card(card_json("C06"))
    assert points_label(green_building, "G") == "2"
    assert points_label(green_building, "R") == "4"
    assert points_label(green_building) == "2/4"
    assert points_label(read_card(card_json("C44"))) == "4"


def test_a_long_hand_stays_a_sane_image() -> None:
    cards = [f"C{n:02d}" for n in range(1, 31)]
    view = e2_view(0, hands=[cards, ["C31"], ["C32"], ["C33"]])
    data = render_private(view, names=NAMES)
    im = png(data)
    lay = hand_layout(view, NAMES)
    assert im.size == lay.size and len(lay.cards) == 30
    # Six rows of five cards, each still readable at 550 px: tall, but a sane file.
    assert im.height < 2400 and len(data) < 1024 * 1024
    assert all(0 <= b[0] < b[2] <= im.width and b[3] <= im.height for b in lay.cards)


def test_the_name_is_drawn() -> None:
    view = e2_view(1)
    assert render_private(view, names=NAMES) != render_private(view, names=["A", "Zed", "C", "D"])


def test_public_view_is_refused() -> None:
    with pytest.raises(ValueError, match="seat's view"):
        render_private(GAME.view(mid4(), None))


def test_an_empty_hand_says_so() -> None:
    view = e2_view(0, hands=[[], ["C31"], ["C32"], ["C33"]])
    lay = hand_layout(view, NAMES)
    assert lay.cards == ()
    im = png(render_private(view, names=NAMES))
    assert im.size == lay.size
    assert render_private(view, names=NAMES) != render_private(
        e2_view(0, hands=[["C01"], ["C31"], ["C32"], ["C33"]]), names=NAMES)


def test_the_public_offer_is_drawn_below_the_hand() -> None:
    st = mid4()
    view = GAME.view(st, 0)
    im = png(render_private(view, names=NAMES))
    lay = hand_layout(view, NAMES)
    assert len(lay.offer) == len(view["offer"]) > 0
    assert all(box[1] > max((b[3] for b in lay.cards), default=0) for box in lay.offer)
    for box, card in zip(lay.offer, view["offer"], strict=True):
        x0, y0, x1, y1 = box
        body = (x0, y0 + (y1 - y0) // 3, x1, y1)
        for colour in {col for _, _, col in card["pattern"]}:
            assert share(im, body, [element_fill(colour)], tol=10) > 0.02, card["id"]
