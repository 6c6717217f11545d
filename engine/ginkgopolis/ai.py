"""AI players: a random one and a greedy one.

They read the board, which is public, and their own seat's hand, tiles and counts;
never another seat's secrets. The greedy player scores each legal action by what it
brings at once plus a rough value of what it leaves on the board.
"""

from __future__ import annotations

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
from engine.ginkgopolis.legal import legal_actions
from engine.ginkgopolis.outline import neighbours
from engine.ginkgopolis.rules import Table
from engine.ginkgopolis.scoring import endgame_card_points
from engine.ginkgopolis.state import State

ITEM_VALUE = {"res": 1.0, "tile": 0.7, "sp": 1.0}


class RandomPlayer:
    name = "random"

    def choose(self, state: State, seat: int, rng: Rng) -> GAction:
        actions = legal_actions(state, seat)
        return actions[rng.randbelow(len(actions))]


class GreedyPlayer:
    name = "greedy"

    def choose(self, state: State, seat: int, rng: Rng) -> GAction:
        actions = legal_actions(state, seat)
        scored = [(self.value(state, seat, a), i) for i, a in enumerate(actions)]
        best = max(v for v, _ in scored)
        # Break ties at random so that greedy seats do not all play alike.
        ties = [i for v, i in scored if v == best]
        return actions[ties[rng.randbelow(len(ties))]]

    def value(self, st: State, seat: int, action: GAction) -> float:
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
            return self.play_value(st, seat, action)
        return -1.0

    def play_value(self, st: State, seat: int, a: PlayCard) -> float:
        player = st.players[seat]
        late = st.exhaustions > 0 or st.end_triggered
        if a.tile is None:
            if is_urbanization(a.card):
                gain = ITEM_VALUE[a.gain or "res"]
                if a.gain == "res" and player.supply_res == 0:
                    gain = 0.0
                return gain + self.bonus(player.characters, player.kept, "exploit")
            b = Table(st).building_for(a.card)[1]
            item = COLOR_ITEM[tile_color(b.top)]
            return b.height * ITEM_VALUE[item] + self.bonus(
                player.characters, player.kept, "exploit"
            )
        tile_cost = 0.3 if late else 0.7
        if is_urbanization(a.card):
            cell = st.tokens[a.card]
            gain = sum(
                st.board[c].height * ITEM_VALUE[COLOR_ITEM[tile_color(st.board[c].top)]]
                for c in neighbours(cell)
                if c in st.board
            )
            same = sum(
                1
                for c in neighbours(cell)
                if c in st.board and tile_color(st.board[c].top) == tile_color(a.tile)
            )
            return (
                gain
                + 1.0
                + 0.8 * same
                + self.bonus(player.characters, player.kept, "urbanize")
                - tile_cost
            )
        table = Table(st)
        cost = table.construct_cost(seat, a.card, a.tile)
        assert cost is not None
        change, sp_cost = cost
        b = table.building_for(a.card)[1]
        card = BUILDING_CARDS[a.card]
        if card.endgame is not None:
            kept_value = 0.8 * endgame_card_points(st, seat, a.card) + 2.0
        else:
            kept_value = 2.0 * _reward_value(card.reward)
        gift = b.resources if b.owner not in (None, seat) else 0
        return (
            1.5 * (b.height + 1)
            + kept_value
            + self.bonus(player.characters, player.kept, "construct")
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


def _reward_value(r: Reward) -> float:
    return r.res * ITEM_VALUE["res"] + r.tile * ITEM_VALUE["tile"] + r.sp * ITEM_VALUE["sp"]
