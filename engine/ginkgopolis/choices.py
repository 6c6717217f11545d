"""What a seat decides, checked then recorded: a character of the draft, the secret pick
of a card (with a tile or an item), a New Hand, where an urbanization token goes, the
group of tiles returned at the refill.

Each check raises a typed refusal with its code and values before anything changes
(game.py takes no copy of the state on the strength of it); a decision that completes
the others starts what follows through the ``Table`` (rules.py), which applies it.
Who must decide, and the options of each decision, are in legal.py.
"""

from __future__ import annotations

from engine.core.errors import IllegalAction, NotYourTurn
from engine.ginkgopolis.actions import (
    DraftCharacter,
    GAction,
    GiveTile,
    MoveToken,
    NewHand,
    PlayCard,
    RefillDone,
    TakeTile,
)
from engine.ginkgopolis.cards import is_urbanization
from engine.ginkgopolis.rules import Table
from engine.ginkgopolis.state import Pick
from engine.ginkgopolis.tokens import move_token


def apply(t: Table, seat: int, action: GAction) -> None:
    """Record ``seat``'s decision on ``t``'s state; raises IllegalAction (NotYourTurn when
    the seat has no such decision to make) with the state untouched."""
    if t.st.phase == "over":
        raise NotYourTurn("The game is over.", code="game_over")
    if isinstance(action, DraftCharacter):
        _draft(t, seat, action)
    elif isinstance(action, PlayCard):
        _play(t, seat, action)
    elif isinstance(action, NewHand):
        _new_hand(t, seat)
    elif isinstance(action, MoveToken):
        _token(t, seat, action)
    elif isinstance(action, (GiveTile, TakeTile, RefillDone)):
        _refill(t, seat, action)
    else:
        raise IllegalAction("Unknown action.", code="not_ginkgopolis")


def _draft(t: Table, seat: int, action: DraftCharacter) -> None:
    st = t.st
    if st.phase != "draft":
        raise IllegalAction("The character draft is over.", code="wrong_phase")
    player = st.players[seat]
    if action.character not in player.packet:
        raise IllegalAction(
            f"Character {action.character} is not among the cards you hold: "
            f"{', '.join(map(str, player.packet))}.",
            code="not_in_packet",
            character=action.character,
            packet=list(player.packet),
        )
    # The service announces each submission itself; only the seat learns what it kept.
    player.draft_pick = action.character
    t.emit("your_draft", to=seat, character=action.character)
    if any(p.draft_pick is None for p in st.players):
        return
    packets = []
    for player in st.players:
        assert player.draft_pick is not None
        player.characters.append(player.draft_pick)
        packets.append([c for c in player.packet if c != player.draft_pick])
        player.draft_pick = None
    st.draft_round += 1
    n = st.count
    if st.draft_round == 3:
        st.character_box = sorted(st.character_box + [c for pk in packets for c in pk])
        for player in st.players:
            player.packet = []
            player.characters.sort()
        t.finish_characters()
        return
    for i, player in enumerate(st.players):
        player.packet = packets[(i - 1) % n]
        t.emit("draft_packet", to=i, packet=list(player.packet))


def _play(t: Table, seat: int, action: PlayCard) -> None:
    st = t.st
    if st.phase != "pick":
        raise IllegalAction(
            "Cards are chosen at the start of a round, not now.", code="wrong_phase"
        )
    player = st.players[seat]
    if action.card not in player.hand:
        raise IllegalAction(
            f"{action.card} is not in your hand ({', '.join(player.hand)}).",
            code="not_in_hand",
            card=action.card,
            hand=list(player.hand),
        )
    if action.tile is not None and action.tile not in player.tiles:
        raise IllegalAction(
            f"You do not have tile {action.tile}.", code="no_tile", tile=action.tile
        )
    if is_urbanization(action.card):
        if action.tile is None and action.gain not in ("res", "tile"):
            raise IllegalAction(
                "Played alone, an Urbanization card gives a resource or a tile.",
                code="needs_gain",
                card=action.card,
            )
        if action.tile is not None and player.screen_res < 1:
            raise IllegalAction(
                "Urbanizing puts one of your resources on the new building, and you have none.",
                code="no_resource",
            )
    else:
        if action.gain is not None:
            raise IllegalAction(
                "A Building card played alone gives the building's items.", code="no_gain"
            )
        if action.tile is not None and t.construct_cost(seat, action.card, action.tile) is None:
            res, _, sp = t.construct_price(action.card, action.tile)
            raise IllegalAction(
                f"You cannot pay for {action.tile} on {action.card}: it needs "
                f"{res} resources and {sp} success points.",
                code="cannot_pay",
                tile=action.tile,
                card=action.card,
                res=res,
                sp=sp,
            )
    player.pick = Pick(action.card, action.tile, action.gain)
    t.emit("your_pick", to=seat, action=action.text())
    if all(p.pick is not None for p in st.players if not p.hal):
        t.begin_resolution()


def _new_hand(t: Table, seat: int) -> None:
    st = t.st
    player = st.players[seat]
    if st.phase != "pick":
        raise IllegalAction("A New Hand is taken while choosing a card.", code="wrong_phase")
    if player.new_hand <= 0:
        raise IllegalAction("You have no New Hand token left.", code="no_new_hand")
    player.new_hand -= 1
    withdrawn = player.pick is not None
    player.pick = None
    st.discard += player.hand
    t.emit("new_hand", seat=seat, discarded=list(player.hand), withdrawn=withdrawn)
    player.hand = []
    for _ in range(4):
        t.draw(seat)


def _token(t: Table, seat: int, action: MoveToken) -> None:
    st = t.st
    d = st.decision
    if d is None or d["kind"] != "token" or d["seat"] != seat:
        raise NotYourTurn("No urbanization token is waiting for you.", code="no_token_to_move")
    if action.letter != d["letter"]:
        raise IllegalAction(
            f"The token to move is {d['letter']}.", code="wrong_token", letter=d["letter"]
        )
    if [action.x, action.y] not in d["options"]:
        opts = ", ".join(f"{x},{y}" for x, y in d["options"])
        raise IllegalAction(
            f"Token {d['letter']} cannot go to {action.x},{action.y}; choose one of: {opts}.",
            code="bad_cell",
            letter=d["letter"],
            options=opts,
        )
    st.decision = None
    others = move_token(st, action.letter, (action.x, action.y))
    t.emit(
        "token_moved",
        letter=action.letter,
        cell=[action.x, action.y],
        others={k: [c[0], c[1]] for k, c in others.items()},
    )
    t.advance()


def _refill(t: Table, seat: int, action: GiveTile | TakeTile | RefillDone) -> None:
    st = t.st
    d = st.decision
    player = st.players[seat]
    if d is None or d["kind"] != "refill" or player.refill_done:
        raise NotYourTurn("No tile refill is waiting for you.", code="no_refill_now")
    if isinstance(action, GiveTile):
        if action.tile not in t.refillable(player):
            raise IllegalAction(f"You cannot return {action.tile}.", code="no_tile")
        player.refill.append(action.tile)
        player.refill.sort()
    elif isinstance(action, TakeTile):
        if action.tile not in player.refill:
            raise IllegalAction(f"{action.tile} is not in your group.", code="no_tile")
        player.refill.remove(action.tile)
    else:
        player.refill_done = True
        t.emit("refill_ready", seat=seat)
    t.maybe_finish_refill()
    if st.decision is None:
        t.advance()
