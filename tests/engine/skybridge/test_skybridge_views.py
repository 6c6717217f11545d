"""What the views hold: board stacks, supplies, turn, labelled score estimate, legal moves."""

from __future__ import annotations

from skyhelp import GAME, play, scenario

from engine.core.rng import Rng

RED, YELLOW = 0, 1


def test_view_of_a_position() -> None:
    state = scenario(4, {1: "Y3 R= G2 R^", 2: "B3 R= Y2"}, turn_seat=YELLOW)
    view = GAME.view(state, YELLOW)
    one = view["board"][0]
    assert one["foundation"] == 1 and (one["row"], one["col"]) == (0, 0)
    assert one["height"] == 6 and one["roof"] == "red" and one["roof_owner"] == RED
    assert [(p["kind"], p["colour"], p["level"]) for p in one["pieces"]] == [
        ("block3", "yellow", 0),
        ("bridge", "red", 3),
        ("block2", "green", 4),
        ("roof", "red", 6),
    ]
    assert one["pieces"][1]["to"] == 2 and view["board"][1]["pieces"][1]["to"] == 1
    assert view["board"][1]["roof"] is None and view["board"][1]["roof_owner"] is None
    assert view["supply"]["red"] == {"block3": 4, "block2": 4, "bridge": 0, "roof": 1}
    assert view["turn"] == {"seat": YELLOW, "index": 1, "colours": ["yellow"]}
    assert view["score_estimate"]["totals"] == [12, 0, 0, 0]
    assert "estimate" in view["score_estimate"]["note"]
    assert view["legal"] == [a.text() for a in GAME.legal_actions(state, YELLOW)]
    assert GAME.view(state, RED)["legal"] == []
    assert "legal" not in GAME.view(state, None)
    assert view["over"] is False and view["outcome"] is None
    assert view["colours"]["blue"] == {"letter": "B", "owner": 3}


def test_moves_count_and_last_move() -> None:
    state = GAME.setup(2, {}, 9)
    rng = Rng.from_seed(9)
    for count in range(1, 30):
        seat = min(GAME.pending(state).waiting)
        action = rng.choice(GAME.legal_actions(state, seat))
        GAME.apply(state, seat, action)
        view = GAME.view(state, None)
        assert view["moves"] == count
        assert view["last"]["seat"] == seat and view["last"]["kind"] == action.kind  # type: ignore[attr-defined]


def test_three_player_view_shows_each_seats_fourth_colour_blocks() -> None:
    state = scenario(3, {}, turn_seat=RED)
    play(state, RED, "x2@5")
    view = GAME.view(state, None)
    assert view["fourth_colour"] == "blue"
    assert [p["extra"] for p in view["players"]] == [
        {"block3": 1, "block2": 0},
        {"block3": 1, "block2": 1},
        {"block3": 1, "block2": 1},
    ]
    assert "blue" not in view["supply"]
    assert view["board"][4]["pieces"] == [
        {"kind": "block2", "colour": "blue", "letter": "B", "storeys": 2, "level": 0}
    ]
