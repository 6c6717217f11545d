"""Rulings on the solitaire game against Hal (G10)."""

from __future__ import annotations

from engine.core.conformance import canonical
from engine.core.rng import Rng
from engine.ginkgopolis import GAME
from tests.engine.ginkgopolis.helpers import check_invariants, give_card, play_round, put
from tests.engine.ginkgopolis.rulings_helpers import no_rebuild


def test_g10_solo_setup() -> None:
    st = GAME.setup(1, {}, 31)
    human, hal = st.players
    assert (human.screen_res, len(human.tiles), human.sp) == (6, 6, 6)
    assert human.characters == [] and human.new_hand == 0
    assert hal.hal and hal.supply_res == 25 and hal.sp == 0 and not hal.tiles
    assert len(st.box) == 6 and st.first == 0
    assert len(human.hand) == 3 and st.hal_card is not None
    assert (
        "hal_card" not in canonical(GAME.view(st, 0))
        or st.hal_card not in GAME.view(st, 0)["discard"]
    )


def test_g10_hal_urbanizes_scores_items_and_the_human_moves_his_token() -> None:
    st = GAME.setup(1, {}, 32)
    no_rebuild(st)
    st.players[0].hand = []
    give_card(st, 0, "A")
    st.deck.remove("D") if "D" in st.deck else None
    st.hal_card = "D"
    d_cell = st.tokens["D"]
    events = play_round(st, {0: "A:res"}, token_choice=0)
    assert st.board[d_cell].owner == 1 and st.board[d_cell].resources == 1
    hal_gain = [e for e in events if e.kind == "gain" and e.data["why"] == "hal_urbanize"]
    assert hal_gain[0].data["n"] == 1  # one 1-floor neighbour
    assert st.players[1].sp == 1
    assert len([e for e in events if e.kind == "token_moved" and e.data["letter"] == "D"]) == 1
    assert len(st.players[0].hand) == 3  # the 2 unused cards were discarded, 3 new drawn


def test_g10_hal_builds_without_costs_keeps_the_card_and_pays_the_human() -> None:
    st = GAME.setup(1, {}, 33)
    no_rebuild(st)
    put(st, (3, 3), ["B18", "B19"], owner=0)
    st.players[0].hand = []
    give_card(st, 0, "A")
    st.hal_card = "B19"
    sp = st.players[0].sp
    screen = st.players[0].screen_res
    play_round(st, {0: "A:res"})
    b = st.board[(3, 3)]
    assert b.owner == 1 and b.height == 3 and b.resources == 3
    assert st.players[1].kept == ["B19"]
    assert st.players[0].sp == sp + 2 and st.players[0].screen_res == screen + 2 + 1


def test_g10_expert_hal_prefers_a_building_card_to_an_urbanization_card() -> None:
    st = GAME.setup(1, {"expert_hal": True}, 34)
    no_rebuild(st)
    put(st, (3, 3), ["R18"], owner=0)
    st.players[0].hand = []
    give_card(st, 0, "A")
    st.hal_card = "D"
    st.deck.remove("R18") if "R18" in st.deck else None
    st.deck.append("R18")
    play_round(st, {0: "A:res"})
    assert st.players[1].kept == ["R18"] and "D" in st.discard


def test_g10_hal_without_resources_for_his_floor_ends_the_game() -> None:
    st = GAME.setup(1, {}, 35)
    no_rebuild(st)
    put(st, (3, 3), ["R15", "R16", "R17"], owner=0)
    st.players[1].supply_res = 2
    st.players[1].total_res = 2
    st.players[0].hand = []
    give_card(st, 0, "A")
    st.hal_card = "R17"
    events = play_round(st, {0: "A:res"})
    assert st.phase == "over"
    assert any(e.kind == "hal_idle" and e.data["why"] == "no_resource" for e in events)
    assert st.board[(3, 3)].height == 3


def test_g10_outcome_lists_hal_without_a_seat() -> None:
    st = GAME.setup(1, {}, 36)
    rng = Rng.from_seed(1)
    ai = GAME.ai("greedy")
    while GAME.outcome(st) is None:
        GAME.apply(st, 0, ai.choose(st, 0, rng))
        check_invariants(st)
    outcome = GAME.outcome(st)
    assert outcome is not None
    assert [s.seat for s in outcome.standings] == [0, None]
    assert outcome.standings[1].name == "Hal"
