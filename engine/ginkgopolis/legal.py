"""Who must decide now, and every action a seat may take: the menus are built from it."""

from __future__ import annotations

from typing import Any, TypeVar

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
from engine.ginkgopolis.cards import URBANIZATION_CARDS
from engine.ginkgopolis.rules import Table
from engine.ginkgopolis.state import State

_A = TypeVar("_A", bound=GAction)


def pending(st: State) -> Pending:
    if st.phase == "over":
        return _OVER
    d = st.decision
    if d is not None and d["kind"] == "token":
        return _pending(("token", d["seat"]))
    if d is not None and d["kind"] == "refill":
        return _pending(("refill", *[i for i, p in enumerate(st.players)
                                     if not p.hal and not p.refill_done]))
    if st.phase == "draft":
        return _pending(("draft", *[p.draft_pick is None for p in st.players]))
    if st.phase == "pick":
        return _pending(("pick", *[None if p.hal else p.pick is None for p in st.players]))
    raise AssertionError(f"no decision pending in phase {st.phase}")


def _make_pending(key: tuple[Any, ...]) -> Pending:
    """The Pending that ``pending`` describes by ``key``: the kind of decision, then the
    seat (a token), the seats asked (the refill), or per player whether it is asked (True),
    has chosen and may change (False), or has no say (None: Hal, at the pick)."""
    kind = key[0]
    if kind == "token":
        return Pending({key[1]: "token"})
    if kind == "refill":
        return Pending({i: "refill" for i in key[1:]}, simultaneous=True)
    flags = key[1:]
    asked = {i: kind for i, flag in enumerate(flags) if flag}
    changed = frozenset(i for i, flag in enumerate(flags) if flag is False)
    if kind == "draft":
        return Pending(asked, simultaneous=True, changeable=changed)
    humans = sum(flag is not None for flag in flags)
    return Pending(asked, simultaneous=humans > 1, changeable=changed)


# Every action asks who must decide, and the answer takes a few shapes per player count:
# each is built once and handed out again (Pending is frozen; nobody writes its mapping).
_OVER = Pending({})
_PENDINGS: dict[tuple[Any, ...], Pending] = {}


def _pending(key: tuple[Any, ...]) -> Pending:
    found = _PENDINGS.get(key)
    if found is None:
        found = _PENDINGS[key] = _make_pending(key)
    return found


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
        letter = d["letter"]
        return [_shared(MoveToken, letter, x, y) for x, y in d["options"]]
    if d is not None and d["kind"] == "refill":
        if player.refill_done:
            return []
        table = Table(st)
        # "done" first: the safe choice, and the first entry of every menu.
        actions: list[GAction] = [_REFILL_DONE]
        actions += [_shared(GiveTile, t) for t in sorted(table.refillable(player))]
        actions += [_shared(TakeTile, t) for t in player.refill]
        return actions
    if st.phase == "draft":
        return [_shared(DraftCharacter, c) for c in player.packet]
    if st.phase == "pick":
        return play_actions(st, seat)
    return []


def play_actions(st: State, seat: int) -> list[GAction]:
    parts, new_hand = play_menu(st, seat)
    actions: list[GAction] = []
    for plays, alone, with_tiles in parts:
        actions += [plays[key] for key in alone]
        actions += [plays[t] for t in with_tiles]
    if new_hand:
        actions.append(_NEW_HAND)
    return actions


# One card's part of the play menu: its plays, the keys of the card played alone (the
# item an Urbanization card gives, or None), then the tiles it may be played with.
MenuPart = tuple["_CardPlays", tuple[str | None, ...], list[str]]
_ALONE_URBANIZATION: tuple[str | None, ...] = ("res", "tile")
_ALONE_BUILDING: tuple[str | None, ...] = (None,)
_NO_TILES: list[str] = []


def play_menu(st: State, seat: int) -> tuple[list[MenuPart], bool]:
    """``play_actions`` in parts, one per card of the hand, without making the list (a
    random seat only needs its length and one entry: ``nth_play``), and whether New Hand
    ends it. The lists in the parts are shared, not to be changed."""
    table = Table(st)
    player = st.players[seat]
    tiles = sorted(set(player.tiles))
    urbanize = player.screen_res >= 1
    parts: list[MenuPart] = []
    for card in player.hand:
        plays = _PLAYS.get(card) or _plays(card)
        if card in URBANIZATION_CARDS:
            parts.append((plays, _ALONE_URBANIZATION, tiles if urbanize else _NO_TILES))
        else:
            parts.append((plays, _ALONE_BUILDING, table.affordable(seat, card, tiles)))
    return parts, player.new_hand > 0 and bool(player.hand)


def menu_size(parts: list[MenuPart], new_hand: bool) -> int:
    """``len(play_actions(...))`` from its parts."""
    return sum([len(alone) + len(tiles) for _, alone, tiles in parts]) + new_hand


def nth_play(parts: list[MenuPart], new_hand: bool, k: int) -> GAction:
    """``play_actions(...)[k]`` from its parts, for 0 <= k < ``menu_size``."""
    for plays, alone, with_tiles in parts:
        if k < len(alone):
            return plays[alone[k]]
        k -= len(alone)
        if k < len(with_tiles):
            return plays[with_tiles[k]]
        k -= len(with_tiles)
    if not new_hand or k != 0:
        raise IndexError("the play menu is shorter")
    return _NEW_HAND


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
# thousands of equal ones (a few hundred cards x tiles, cells, tiles, characters at most).
_NEW_HAND = NewHand()
_REFILL_DONE = RefillDone()
_SHARED: dict[tuple[Any, ...], Any] = {}


def _shared(kind: type[_A], *fields: Any) -> _A:
    """``kind(*fields)``, the same object every time."""
    key = (kind, *fields)
    action: _A | None = _SHARED.get(key)
    if action is None:
        action = _SHARED[key] = kind(*fields)
    return action


_PLAYS: dict[str, _CardPlays] = {}


def _plays(card: str) -> _CardPlays:
    plays = _PLAYS.get(card)
    if plays is None:
        plays = _PLAYS[card] = _CardPlays(card)
    return plays
