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
    asked: dict[int, str] = {}
    changed: list[int] = []
    if st.phase == "draft":
        for i, p in enumerate(st.players):
            if p.draft_pick is None:
                asked[i] = "draft"
            else:
                changed.append(i)
        return Pending(asked, simultaneous=True, changeable=frozenset(changed))
    if st.phase == "pick":
        humans = 0
        for i, p in enumerate(st.players):
            if p.hal:
                continue
            humans += 1
            if p.pick is None:
                asked[i] = "pick"
            else:
                changed.append(i)
        return Pending(asked, simultaneous=humans > 1, changeable=frozenset(changed))
    raise AssertionError(f"no decision pending in phase {st.phase}")


def has_decision(st: State, seat: int) -> bool:
    """``seat in pending(st).waiting or seat in pending(st).changeable``, without building
    the Pending (every action asks)."""
    if st.phase == "over":
        return False
    d = st.decision
    if d is not None and d["kind"] == "token":
        return bool(d["seat"] == seat)
    player = st.players[seat]
    if d is not None and d["kind"] == "refill":
        return not player.hal and not player.refill_done
    if st.phase == "draft":
        return True
    if st.phase == "pick":
        return not player.hal
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
        plays = _plays(card)
        if is_urbanization(card):
            actions += [plays["res"], plays["tile"]]
            if player.screen_res >= 1:
                actions += [plays[t] for t in tiles]
        else:
            actions.append(plays[None])
            actions += [plays[t] for t in table.affordable(seat, card, tiles)]
    if player.new_hand > 0 and player.hand:
        actions.append(NewHand())
    return actions


class _CardPlays(dict[str | None, PlayCard]):
    """One card's plays, by tile (or by the item an Urbanization card alone gives, or
    None for a Building card alone), made on first use."""

    def __init__(self, card: str) -> None:
        super().__init__()
        self.card = card

    def __missing__(self, key: str | None) -> PlayCard:
        if key in ("res", "tile"):
            play = self[key] = PlayCard(self.card, None, key)
        else:
            play = self[key] = PlayCard(self.card, key, None)
        return play


# Actions are immutable values: the menus hand out the same objects instead of building
# thousands of equal ones (a few hundred cards x tiles at most).
_PLAYS: dict[str, _CardPlays] = {}


def _plays(card: str) -> _CardPlays:
    plays = _PLAYS.get(card)
    if plays is None:
        plays = _PLAYS[card] = _CardPlays(card)
    return plays
