"""AI players: a random one and a greedy one.

They read the board, which is public, and their own seat's hand, tiles and counts;
never another seat's secrets. The greedy player scores each legal action by what it
brings at once plus a rough value of what it leaves on the board.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.rng import Rng
from engine.ginkgopolis.actions import (
    DraftCharacter,
    GAction,
    GiveTile,
    MoveToken,
    NewHand,
    PlayCard,
    RefillDone,
)
from engine.ginkgopolis.cards import (
    BUILDING_CARDS,
    CHARACTERS,
    COLOR_ITEM,
    Reward,
    is_urbanization,
    tile_color,
    tile_number,
)
from engine.ginkgopolis.legal import legal_actions, menu_size, nth_play, play_menu
from engine.ginkgopolis.outline import neighbours
from engine.ginkgopolis.rules import Table
from engine.ginkgopolis.scoring import endgame_card_points
from engine.ginkgopolis.state import Building, State

ITEM_VALUE = {"res": 1.0, "tile": 0.7, "sp": 1.0}


class RandomPlayer:
    name = "random"

    def choose(self, state: State, seat: int, rng: Rng) -> GAction:
        if state.phase == "pick" and state.decision is None and 0 <= seat < state.seats:
            # legal_actions would be play_actions: one entry of it, without the list.
            parts, new_hand = play_menu(state, seat)
            return nth_play(parts, new_hand, rng.randbelow(menu_size(parts, new_hand)))
        actions = legal_actions(state, seat)
        return actions[rng.randbelow(len(actions))]


class GreedyPlayer:
    name = "greedy"

    def choose(self, state: State, seat: int, rng: Rng) -> GAction:
        actions = legal_actions(state, seat)
        values = self.values(state, seat, actions)
        best = max(values)
        # Break ties at random so that greedy seats do not all play alike.
        ties = [i for i, v in enumerate(values) if v == best]
        return actions[ties[rng.randbelow(len(ties))]]

    def values(self, st: State, seat: int, actions: Sequence[GAction]) -> list[float]:
        """``value`` of each action, sharing the work that does not depend on the action
        (the search calls this in every simulation)."""
        ctx = _Context(st, seat)
        return [self.value(st, seat, a, ctx) for a in actions]

    def value(self, st: State, seat: int, action: GAction, ctx: _Context | None = None) -> float:
        ctx = ctx or _Context(st, seat)
        player = st.players[seat]
        if isinstance(action, DraftCharacter):
            c = CHARACTERS[action.character]
            return _reward_value(c.start) + 0.5 * _reward_value(c.reward)
        if isinstance(action, NewHand):
            return -5.0
        if isinstance(action, MoveToken):
            # Leave the token where the next urbanization will touch the most floors.
            return float(
                sum(st.board[c].height for c in neighbours((action.x, action.y)) if c in st.board)
            )
        if isinstance(action, GiveTile):
            return 1.0 if len(player.tiles) - len(player.refill) > 3 else -1.0
        if isinstance(action, RefillDone):
            return 0.0
        if isinstance(action, PlayCard):
            return self.play_value(st, seat, action, ctx)
        return -1.0

    def play_value(self, st: State, seat: int, a: PlayCard, ctx: _Context | None = None) -> float:
        ctx = ctx or _Context(st, seat)
        player = st.players[seat]
        late = st.exhaustions > 0 or st.end_triggered
        if a.tile is None:
            if is_urbanization(a.card):
                gain = ITEM_VALUE[a.gain or "res"]
                if a.gain == "res" and player.supply_res == 0:
                    gain = 0.0
                return gain + ctx.bonus("exploit")
            b = ctx.table.building_for(a.card)[1]
            item = COLOR_ITEM[tile_color(b.top)]
            return b.height * ITEM_VALUE[item] + ctx.bonus("exploit")
        tile_cost = 0.3 if late else 0.7
        if is_urbanization(a.card):
            gain, colors = ctx.around(a.card)
            same = sum(1 for c in colors if c == tile_color(a.tile))
            return gain + 1.0 + 0.8 * same + ctx.bonus("urbanize") - tile_cost
        cost = ctx.table.construct_cost(seat, a.card, a.tile)
        assert cost is not None
        change, sp_cost = cost
        b, kept_value, gift = ctx.building(a.card)
        return (
            1.5 * (b.height + 1)
            + kept_value
            + ctx.bonus("construct")
            - sp_cost
            - change
            - gift
            - tile_cost
            + 0.1 * tile_number(a.tile)
        )

    @staticmethod
    def bonus(characters: list[int], kept: list[str], trigger: str) -> float:
        total = sum(
            _reward_value(CHARACTERS[c].reward)
            for c in characters
            if CHARACTERS[c].trigger == trigger
        )
        total += sum(
            _reward_value(BUILDING_CARDS[k].reward)
            for k in kept
            if BUILDING_CARDS[k].trigger == trigger
        )
        return total


class _Context:
    """What every action's value reads for one seat at one moment, computed once."""

    def __init__(self, st: State, seat: int) -> None:
        self.st = st
        self.seat = seat
        self.table = Table(st)
        self.player = st.players[seat]
        self._bonus: dict[str, float] = {}
        self._around: dict[str, tuple[float, list[str]]] = {}
        self._building: dict[str, tuple[Building, float, int]] = {}

    def around(self, letter: str) -> tuple[float, list[str]]:
        """What urbanizing at ``letter`` yields, and the colours of the buildings around."""
        if letter not in self._around:
            board = self.st.board
            near = [board[c] for c in neighbours(self.st.tokens[letter]) if c in board]
            gain = sum(b.height * ITEM_VALUE[COLOR_ITEM[tile_color(b.top)]] for b in near)
            self._around[letter] = (gain, [tile_color(b.top) for b in near])
        return self._around[letter]

    def building(self, card: str) -> tuple[Building, float, int]:
        """The building ``card`` designates, the value of keeping the card, the gift."""
        if card not in self._building:
            b = self.table.building_for(card)[1]
            spec = BUILDING_CARDS[card]
            if spec.endgame is not None:
                kept_value = 0.8 * endgame_card_points(self.st, self.seat, card) + 2.0
            else:
                kept_value = 2.0 * _reward_value(spec.reward)
            gift = b.resources if b.owner not in (None, self.seat) else 0
            self._building[card] = (b, kept_value, gift)
        return self._building[card]

    def bonus(self, trigger: str) -> float:
        if trigger not in self._bonus:
            self._bonus[trigger] = GreedyPlayer.bonus(
                self.player.characters, self.player.kept, trigger
            )
        return self._bonus[trigger]


def _reward_value(r: Reward) -> float:
    return r.res * ITEM_VALUE["res"] + r.tile * ITEM_VALUE["tile"] + r.sp * ITEM_VALUE["sp"]
