"""Who must decide now, and every action a seat may take: the menus are built from it."""

from __future__ import annotations

from engine.core.protocol import Pending
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
from engine.ginkgopolis.state import State


def pending(st: State) -> Pending:
    if st.phase == "over":
        return Pending({})
    d = st.decision
    if d is not None and d["kind"] == "token":
        return Pending({d["seat"]: "token"})
    if d is not None and d["kind"] == "refill":
        waiting = {i: "refill" for i, p in enumerate(st.players) if not p.hal and not p.refill_done}
        return Pending(waiting, simultaneous=True)
    if st.phase == "draft":
        waiting = {i: "draft" for i, p in enumerate(st.players) if p.draft_pick is None}
        changeable = frozenset(i for i, p in enumerate(st.players) if p.draft_pick is not None)
        return Pending(waiting, simultaneous=True, changeable=changeable)
    if st.phase == "pick":
        humans = [i for i, p in enumerate(st.players) if not p.hal]
        waiting = {i: "pick" for i in humans if st.players[i].pick is None}
        changeable = frozenset(i for i in humans if st.players[i].pick is not None)
        return Pending(waiting, simultaneous=len(humans) > 1, changeable=changeable)
    raise AssertionError(f"no decision pending in phase {st.phase}")


def legal_actions(st: State, seat: int) -> list[GAction]:
    if not 0 <= seat < st.seats or st.phase == "over":
        return []
    player = st.players[seat]
    d = st.decision
    if d is not None and d["kind"] == "token":
        if d["seat"] != seat:
            return []
        return [MoveToken(d["letter"], x, y) for x, y in d["options"]]
    if d is not None and d["kind"] == "refill":
        if player.refill_done:
            return []
        table = Table(st)
        # "done" first: the safe choice, and the first entry of every menu.
        actions: list[GAction] = [RefillDone()]
        actions += [GiveTile(t) for t in sorted(table.refillable(player))]
        actions += [TakeTile(t) for t in player.refill]
        return actions
    if st.phase == "draft":
        return [DraftCharacter(c) for c in player.packet]
    if st.phase == "pick":
        return play_actions(st, seat)
    return []


def play_actions(st: State, seat: int) -> list[GAction]:
    table = Table(st)
    player = st.players[seat]
    actions: list[GAction] = []
    tiles = sorted(set(player.tiles))
    for card in player.hand:
        if is_urbanization(card):
            actions += [_play(card, None, "res"), _play(card, None, "tile")]
            if player.screen_res >= 1:
                actions += [_play(card, t, None) for t in tiles]
        else:
            actions.append(_play(card, None, None))
            actions += [_play(card, t, None) for t in table.affordable(seat, card, tiles)]
    if player.new_hand > 0 and player.hand:
        actions.append(NewHand())
    return actions


# Actions are immutable values: the menus hand out the same objects instead of building
# thousands of equal ones (a few hundred cards x tiles at most).
_PLAYS: dict[tuple[str, str | None, str | None], PlayCard] = {}


def _play(card: str, tile: str | None, gain: str | None) -> PlayCard:
    key = (card, tile, gain)
    play = _PLAYS.get(key)
    if play is None:
        play = _PLAYS[key] = PlayCard(card, tile, gain)
    return play
