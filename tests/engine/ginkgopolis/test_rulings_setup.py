"""Rulings on setting up (resources, tiles and cards out, first player, square, G11
starting buildings, characters dealt or drafted) and hidden information (G6).

One test per ruling of RULINGS.md (Ginkgopolis) and of engine/ginkgopolis/RULINGS.md;
the other topics are in the test_rulings_*.py beside this one."""

from __future__ import annotations

import pytest

from engine.core.conformance import canonical
from engine.ginkgopolis import GAME
from engine.ginkgopolis.actions import DraftCharacter
from engine.ginkgopolis.cards import CHARACTERS, STARTING_TILES, STARTING_TOKENS
from engine.ginkgopolis.scoring import district_points
from engine.ginkgopolis.state import Building
from tests.engine.ginkgopolis.helpers import fresh


@pytest.mark.parametrize(("seats", "each"), [(2, 25), (3, 20), (4, 18), (5, 16)])
def test_setup_resources_by_player_count(seats: int, each: int) -> None:
    st = fresh(seats)
    for p in st.players:
        assert p.total_res == each
        assert p.supply_res + p.screen_res == each


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_setup_six_tiles_and_seven_cards_out_at_two_or_three(seats: int) -> None:
    st = GAME.setup(seats, {"characters": "draft"}, 11)
    small = seats <= 3
    assert len(st.box) == (6 if small else 0)
    assert len(st.supply) == 51 - len(st.box)
    assert len(st.discard) == (7 if small else 0)
    assert len(st.deck) + len(st.discard) == 21


def test_setup_random_first_player_and_random_square() -> None:
    firsts = {GAME.setup(4, {}, seed).first for seed in range(30)}
    assert firsts == {0, 1, 2, 3}
    squares = {
        tuple(b.top for _, b in sorted(GAME.setup(4, {}, s).board.items())) for s in range(10)
    }
    assert len(squares) > 1
    st = GAME.setup(4, {}, 1)
    assert sorted(b.top for b in st.board.values()) == sorted(STARTING_TILES)
    assert set(st.board) == {(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)}
    assert st.tokens == STARTING_TOKENS


def test_g11_starting_buildings_have_height_1_no_owner_no_resources() -> None:
    st = GAME.setup(3, {}, 2)
    for b in st.board.values():
        assert (b.height, b.owner, b.resources, b.site) == (1, None, 0, False)
    # They count for districts' adjacency but add nothing and belong to nobody.
    st.board = {(0, 0): Building(["B1"]), (1, 0): Building(["B4"], owner=0, resources=1)}
    assert district_points(st.board, [(0, 0), (1, 0)]) == {0: (2, 1)}


def test_characters_intro_deals_one_whole_set_each() -> None:
    st = GAME.setup(5, {"characters": "intro"}, 4)
    sets = [{CHARACTERS[c].set for c in p.characters} for p in st.players]
    assert all(len(s) == 1 for s in sets) and len({s.pop() for s in sets}) == 5
    assert st.phase == "pick" and all(len(p.hand) == 4 for p in st.players)


def test_characters_draft_keeps_one_passes_left_three_times() -> None:
    st = GAME.setup(3, {"characters": "draft"}, 9)
    assert st.phase == "draft" and all(len(p.packet) == 4 for p in st.players)
    packets = [list(p.packet) for p in st.players]
    for seat in range(3):
        GAME.apply(st, seat, DraftCharacter(packets[seat][0]))
    # Seat 1 now holds what seat 0 passed left.
    assert st.players[1].packet == packets[0][1:]
    for _ in range(2):
        for seat in range(3):
            GAME.apply(st, seat, DraftCharacter(st.players[seat].packet[0]))
    assert st.phase == "pick"
    assert all(len(p.characters) == 3 for p in st.players)
    assert len(st.character_box) == 27 - 9


def test_draft_pick_may_change_until_all_are_in_and_stays_secret() -> None:
    st = GAME.setup(2, {"characters": "draft"}, 5)
    first, second = st.players[0].packet[:2]
    GAME.apply(st, 0, DraftCharacter(first))
    GAME.apply(st, 0, DraftCharacter(second))
    assert st.players[0].draft_pick == second
    public = canonical(GAME.view(st, None))
    other = canonical(GAME.view(st, 1))
    assert str(second) not in [str(c) for c in GAME.view(st, None)["players"][0]["characters"]]
    assert "draft_pick" not in public or '"draft_pick":' + str(second) not in public
    assert '"draft_pick":' + str(second) not in other


# --------------------------------------------------------------------- hidden information


def test_g6_secrets_never_in_public_or_other_views() -> None:
    st = fresh(4, seed=3)
    hand0 = st.players[0].hand
    tiles0 = st.players[0].tiles
    GAME.apply(st, 0, GAME.legal_actions(st, 0)[0])
    for seat in (None, 1, 2, 3):
        view = GAME.view(st, seat)
        assert "me" not in view or view["me"]["hand"] != hand0
        text = canonical({k: v for k, v in view.items() if k != "me"})
        for tile in tiles0:
            assert f'"{tile}"' not in text.replace('"tiles":', "")
    assert GAME.view(st, None)["players"][0]["picked"] is True
    assert GAME.view(st, 0)["me"]["pick"] is not None


def test_g6_counts_public_by_default_hidden_with_strict_screens() -> None:
    st = fresh(3, seed=3)
    shown = GAME.view(st, 1)["players"][0]
    assert shown["sp"] == st.players[0].sp and shown["tiles"] == len(st.players[0].tiles)
    strict = fresh(3, seed=3, strict_screens=True)
    hidden = GAME.view(strict, 1)["players"][0]
    assert (hidden["sp"], hidden["screen_res"], hidden["tiles"]) == (None, None, None)
    assert GAME.view(strict, 0)["players"][0]["sp"] == strict.players[0].sp
