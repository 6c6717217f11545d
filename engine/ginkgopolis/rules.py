"""The rules of Ginkgopolis that apply what was decided: resolving, preparing, ending.

``Table`` wraps one state and the events produced by one decision (choices.py checks and
records it). Resolution is a queue of small effects (JSON dicts) so that it can stop for a
decision (moving an urbanization token, the secret tile refill) and resume after it, and
so that a saved game in the middle of a round loads and continues exactly.
"""

from __future__ import annotations

from typing import Any

from engine.core.protocol import Event
from engine.core.rng import Rng
from engine.ginkgopolis import hal as hal_rules
from engine.ginkgopolis.cards import (
    BUILDING_CARDS,
    CHARACTERS,
    COLOR_ITEM,
    TILE_NUMBERS,
    URBANIZATION_CARDS,
    Reward,
    tile_color,
)
from engine.ginkgopolis.outline import Cell, neighbours
from engine.ginkgopolis.state import Building, Player, State
from engine.ginkgopolis.tokens import open_token_decision

ITEMS = ("res", "tile", "sp")


def _price(b: Building, tile: str) -> tuple[int, int, int]:
    """``Table.construct_price`` of ``tile`` on building ``b``."""
    top = b.tiles[-1]
    change = 1 if tile[0] != top[0] else 0
    sp_cost = max(0, TILE_NUMBERS[top] - TILE_NUMBERS[tile])
    return len(b.tiles) + 1 + change, change, sp_cost


def _gains(trigger: str | None, reward: Reward) -> tuple[str | None, tuple[tuple[str, int], ...]]:
    return trigger, tuple((item, n) for item in ITEMS if (n := getattr(reward, item)))


# What each character and each kept Building card gives, and when: a bonus asks it of
# every card its player holds.
_CHARACTER_GAINS = {c.id: _gains(c.trigger, c.reward) for c in CHARACTERS.values()}
_CARD_GAINS = {k.code: _gains(k.trigger, k.reward) for k in BUILDING_CARDS.values()}


# The map of tops last built, by any Table: checked before use (see building_for).
_last_tops: list[dict[str, Cell]] = [{}]


class Table:
    """One state, the events of one decision, and the operations that apply it."""

    def __init__(self, st: State) -> None:
        self.st = st
        self.events: list[Event] = []
        # Which building each top tile designates, built on first use and dropped when
        # a floor or a building is added (the only changes to tops): no board scan per card.
        self._tops: dict[str, Cell] | None = None

    # ----------------------------------------------------------------- helpers
    def emit(self, kind: str, to: int | None = None, **data: Any) -> None:
        self.events.append(Event(kind, data, to))

    def rng(self) -> Rng:
        return Rng(self.st.rng)

    def shuffle(self, items: list[Any]) -> None:
        rng = self.rng()
        rng.shuffle(items)
        self.st.rng = rng.state

    def order(self) -> list[int]:
        """Players in resolution order for this round, from the first player."""
        n = self.st.count
        return [(self.st.first + k) % n for k in range(n)]

    def seat_of(self, p: int) -> int | None:
        return None if self.st.players[p].hal else p

    def building_for(self, card: str) -> tuple[Cell, Building]:
        board = self.st.board
        # A map of tops built for another Table (the menus, the previous decision) is
        # still right for every card it finds on top where it says: each tile exists once.
        tops = _last_tops[0] if self._tops is None else self._tops
        cell = tops.get(card)
        b = None if cell is None else board.get(cell)
        if cell is None or b is None or b.tiles[-1] != card:
            tops = self._tops = _last_tops[0] = {b.tiles[-1]: c for c, b in board.items()}
            cell = tops.get(card)
            if cell is None:
                raise AssertionError(f"card {card} designates no building")
            b = board[cell]
        return cell, b

    # ------------------------------------------------------------------ start
    def start(self) -> None:
        st = self.st
        if st.solo:
            st.phase = "pick"
            self.start_solo_round()
        elif st.players[0].packet:
            st.phase = "draft"
        else:
            self.finish_characters()

    def finish_characters(self) -> None:
        st = self.st
        self.emit(
            "characters",
            characters={str(i): list(p.characters) for i, p in enumerate(st.players)},
        )
        for p in self.order():
            player = st.players[p]
            total = Reward()
            for cid in player.characters:
                start = CHARACTERS[cid].start
                total = Reward(total.res + start.res, total.tile + start.tile, total.sp + start.sp)
            self.gain(p, "res", total.res, "character")
            self.gain(p, "tile", total.tile, "character")
            self.gain(p, "sp", total.sp, "character")
        for p in self.order():
            for _ in range(4):
                self.draw(p)
        st.phase = "pick"
        self.emit("round", round=st.round, first=st.first)

    # ------------------------------------------------------------ card deck
    def draw(self, p: int) -> str | None:
        st = self.st
        if not st.deck:
            return None
        card = st.deck.pop()
        st.players[p].hand.append(card)
        if not st.players[p].hal:
            self.emit("drew", to=p, card=card)
        if not st.deck:
            self.rebuild_deck()
        return card

    def rebuild_deck(self) -> None:
        """The deck is rebuilt the moment its last card is drawn (rulebook example)."""
        st = self.st
        sites = sorted(b.top for b in st.board.values() if b.site)
        cards = st.discard + sites
        st.discard = []
        for b in st.board.values():
            b.site = False
        self.shuffle(cards)
        st.deck = cards
        burned: list[str] = []
        if st.count <= 3:
            # Never burn the last card: a deck rebuilt empty would stall the draw.
            k = min(7, max(0, len(st.deck) - 1))
            burned = st.deck[len(st.deck) - k :]
            del st.deck[len(st.deck) - k :]
            st.discard = list(burned)
        self.emit("deck_rebuilt", added=sites, size=len(st.deck), burned=burned)

    # ----------------------------------------------------------------- gains
    def gain(self, p: int, item: str, n: int, why: str) -> None:
        """Gain now, except tiles, which may stop for the refill: those go through the queue."""
        if n <= 0:
            return
        if item == "tile":
            self.st.queue.insert(0, {"op": "gain", "p": p, "item": "tile", "n": n, "why": why})
            self.run_queue()
            return
        self.gain_now(p, item, n, why)

    def gain_now(self, p: int, item: str, n: int, why: str) -> None:
        st = self.st
        player = st.players[p]
        if item == "sp":
            player.sp += n
            self.emit("gain", seat=None if player.hal else p, item="sp", n=n, why=why)
        elif item == "res":
            got = min(n, player.supply_res)
            player.supply_res -= got
            player.screen_res += got
            self.emit("gain", seat=None if player.hal else p, item="res", n=got, asked=n,
                      why=why)
        else:
            raise AssertionError(item)

    def take_tiles(self, op: dict[str, Any]) -> bool:
        """Draw owed tiles one at a time. Returns False when the refill interrupts."""
        st = self.st
        p, n = op["p"], op["n"]
        player = st.players[p]
        got: list[str] = []
        while n > 0:
            if not st.supply:
                break
            tile = st.supply.pop()
            player.tiles.append(tile)
            got.append(tile)
            n -= 1
            if not st.supply:
                self.exhausted()
                if st.decision is not None and n > 0:
                    st.queue.insert(0, {**op, "n": n})
                    n = 0
        if got:
            self.emit("gain", seat=self.seat_of(p), item="tile", n=len(got), why=op["why"])
            self.emit("tiles_drawn", to=p, tiles=got)
        lost = n
        if lost > 0:
            self.emit("gain_lost", seat=self.seat_of(p), item="tile", n=lost)
        return st.decision is None

    def exhausted(self) -> None:
        st = self.st
        st.exhaustions += 1
        self.emit("supply_exhausted", count=st.exhaustions)
        if st.solo or st.exhaustions >= 2:
            self.trigger_end("supply")
            return
        st.decision = {"kind": "refill"}
        for player in st.players:
            player.refill = []
            # A player with nothing to give has nothing to decide.
            player.refill_done = not self.refillable(player)
        self.emit("refill_started")
        self.maybe_finish_refill()

    def refillable(self, player: Player) -> list[str]:
        """Tiles a player may return: those behind the screen, not one committed to a pick."""
        committed = player.pick.tile if player.pick else None
        return [t for t in player.tiles if t != committed and t not in player.refill]

    def maybe_finish_refill(self) -> None:
        st = self.st
        if not all(p.refill_done for p in st.players):
            return
        returned: list[str] = []
        shown: dict[str, list[str]] = {}
        for p in self.order():
            player = st.players[p]
            for tile in player.refill:
                player.tiles.remove(tile)
            if player.refill:
                player.sp += len(player.refill)
            shown[str(p)] = sorted(player.refill)
            returned += player.refill
            player.refill = []
            player.refill_done = False
        self.shuffle(returned)
        st.supply = returned
        st.decision = None
        self.emit("refill", tiles=shown, size=len(returned))
        if not returned:
            # Ruling G1: a refill of no tile is the second exhaustion.
            st.exhaustions += 1
            self.emit("supply_exhausted", count=st.exhaustions)
            self.trigger_end("supply")

    def trigger_end(self, why: str, seat: int | None = None) -> None:
        if not self.st.end_triggered:
            self.st.end_triggered = True
            self.emit("end_triggered", why=why, seat=seat)

    def check_all_placed(self) -> None:
        """Ruling G9: checked after every player's action; it stays triggered."""
        if self.st.end_triggered:
            return  # nothing more to tell: trigger_end would do nothing
        for p, player in enumerate(self.st.players):
            if player.hal:
                if player.supply_res == 0:
                    self.trigger_end("hal_exhausted")
            elif player.supply_res == 0 and player.screen_res == 0:
                self.trigger_end("all_placed", p)

    # ------------------------------------------------------------ the queue
    def run_queue(self) -> None:
        st = self.st
        while st.decision is None and st.queue:
            op = st.queue.pop(0)
            kind = op["op"]
            if kind == "gain":
                if op["item"] == "tile":
                    if not self.take_tiles(op):
                        return
                else:
                    self.gain_now(op["p"], op["item"], op["n"], op["why"])
            elif kind == "exploit":
                _, b = self.building_for(op["card"])
                item = COLOR_ITEM[tile_color(b.top)]
                st.queue.insert(
                    0, {"op": "gain", "p": op["p"], "item": item, "n": b.height, "why": "exploit"}
                )
            elif kind == "utilize":
                x, y = op["cell"]
                gains = []
                for cell in neighbours((x, y)):
                    nb = st.board.get(cell)
                    if nb is not None:
                        item = COLOR_ITEM[tile_color(nb.top)]
                        gains.append(
                            {
                                "op": "gain",
                                "p": op["p"],
                                "item": item,
                                "n": nb.height,
                                "why": "utilize",
                            }
                        )
                st.queue[0:0] = gains
            elif kind == "bonus":
                st.queue[0:0] = self.bonus_ops(op["p"], op["trigger"])
            elif kind == "token":
                open_token_decision(self.st, op)
            elif kind == "discard":
                st.discard.append(op["card"])
            elif kind == "keep":
                st.players[op["p"]].kept.append(op["card"])
                self.emit("kept", seat=self.seat_of(op["p"]), card=op["card"])
            elif kind == "discard_hand":
                player = st.players[op["p"]]
                st.discard += player.hand
                self.emit("discarded", seat=op["p"], cards=list(player.hand))
                player.hand = []
            elif kind == "hal":
                hal_rules.hal_turn(self, op)
            else:
                raise AssertionError(kind)

    def bonus_ops(self, p: int, trigger: str) -> list[dict[str, Any]]:
        player = self.st.players[p]
        if player.hal:
            return []
        why = f"bonus_{trigger}"
        ops = []
        for gains in [_CHARACTER_GAINS[c] for c in player.characters]:
            if gains[0] == trigger:
                for item, n in gains[1]:
                    ops.append({"op": "gain", "p": p, "item": item, "n": n, "why": why})
        for gains in [_CARD_GAINS[k] for k in player.kept]:
            if gains[0] == trigger:
                for item, n in gains[1]:
                    ops.append({"op": "gain", "p": p, "item": item, "n": n, "why": why})
        return ops

    # --------------------------------------------------------- resolution
    def begin_resolution(self) -> None:
        st = self.st
        st.phase = "resolve"
        st.turn = 0
        st.revealed = []
        self.advance()

    def advance(self) -> None:
        """Run the round on until a decision is needed or the round is over."""
        st = self.st
        count = len(st.players)  # st.count
        while st.phase == "resolve":
            self.run_queue()
            if st.decision is not None:
                return
            self.check_all_placed()
            if st.turn >= count:
                self.end_round()
                return
            p = (st.first + st.turn) % count  # self.order()[st.turn], without the list
            st.turn += 1
            if st.players[p].hal:
                st.queue.append({"op": "hal"})
            else:
                self.reveal(p)

    def reveal(self, p: int) -> None:
        st = self.st
        player = st.players[p]
        pick = player.pick
        assert pick is not None
        player.pick = None
        player.hand.remove(pick.card)
        if pick.tile:
            player.tiles.remove(pick.tile)
        st.revealed.append({"seat": p, "card": pick.card, "tile": pick.tile, "gain": pick.gain})
        self.emit("reveal", seat=p, card=pick.card, tile=pick.tile, gain=pick.gain)
        card, tile = pick.card, pick.tile
        if tile and card in URBANIZATION_CARDS:
            if player.screen_res >= 1:
                self.urbanize(p, card, tile)
            else:
                player.tiles.append(tile)
                self.emit("fallback", seat=p, card=card, tile=tile)
                self.exploit(p, card, "res")
        elif tile:
            if self.construct_cost(p, card, tile) is not None:
                self.construct(p, card, tile)
            else:
                player.tiles.append(tile)
                self.emit("fallback", seat=p, card=card, tile=tile)
                self.exploit(p, card, None)
        else:
            self.exploit(p, card, pick.gain)
        if st.seats == 1:  # st.solo
            st.queue.append({"op": "discard_hand", "p": p})

    def exploit(self, p: int, card: str, gain: str | None) -> None:
        q = self.st.queue
        if card in URBANIZATION_CARDS:
            q.append({"op": "gain", "p": p, "item": gain or "res", "n": 1, "why": "exploit"})
        else:
            q.append({"op": "exploit", "p": p, "card": card})
        q.append({"op": "bonus", "p": p, "trigger": "exploit"})
        q.append({"op": "discard", "card": card})

    def place_new(self, p: int, letter: str, tile: str) -> Cell:
        st = self.st
        cell = st.tokens[letter]
        st.board[cell] = Building([tile], owner=p, resources=1, site=True)
        self._tops = None
        self.emit(
            "urbanize", seat=self.seat_of(p), letter=letter, tile=tile, cell=[cell[0], cell[1]]
        )
        return cell

    def urbanize(self, p: int, letter: str, tile: str) -> None:
        player = self.st.players[p]
        player.screen_res -= 1
        cell = self.place_new(p, letter, tile)
        q = self.st.queue
        q.append({"op": "token", "seat": p, "letter": letter, "cell": [cell[0], cell[1]]})
        q.append({"op": "utilize", "p": p, "cell": [cell[0], cell[1]]})
        q.append({"op": "bonus", "p": p, "trigger": "urbanize"})
        q.append({"op": "discard", "card": letter})

    def construct_price(self, card: str, tile: str) -> tuple[int, int, int]:
        """(resources for the new floors and the colour change, of which the colour change,
        SP for a lower number) to put ``tile`` on the building ``card`` designates."""
        return _price(self.building_for(card)[1], tile)

    def construct_cost(self, p: int, card: str, tile: str) -> tuple[int, int] | None:
        """(resources, SP) to pay beyond the new floor, or None if the player cannot pay."""
        player = self.st.players[p]
        b = self.building_for(card)[1]
        res, change, sp_cost = _price(b, tile)
        returned = b.resources if b.owner == p else 0
        if player.screen_res + returned < res or player.sp < sp_cost:
            return None
        return change, sp_cost

    def affordable(self, p: int, card: str, tiles: list[str]) -> list[str]:
        """The ``tiles`` that ``p`` can pay to put on ``card``'s building: ``construct_cost``
        for many tiles, reading the building and the player once (the menus' hot path)."""
        player = self.st.players[p]
        b = self.building_for(card)[1]
        floors = b.tiles
        top = floors[-1]
        number = TILE_NUMBERS[top]
        res = player.screen_res - len(floors) - 1
        if b.owner == p:
            res += b.resources
        if res < 0:
            return []
        sp = player.sp
        if sp >= number - 1 and res >= 1:
            # No tile is numbered below 1: every tile is within reach, whatever its colour.
            return list(tiles)
        color = top[0]
        return [
            t for t in tiles
            if (res >= 1 or t[0] == color) and sp >= max(0, number - TILE_NUMBERS[t])
        ]

    def construct(self, p: int, card: str, tile: str) -> None:
        st = self.st
        player = st.players[p]
        cost = self.construct_cost(p, card, tile)
        assert cost is not None
        change, sp_cost = cost
        player.sp -= sp_cost
        player.screen_res -= change
        player.supply_res += change
        height = self.add_floor(p, card, tile, sp_paid=sp_cost, res_paid=change)
        player.screen_res -= height
        st.queue.append({"op": "bonus", "p": p, "trigger": "construct"})
        st.queue.append({"op": "keep", "p": p, "card": card})

    def add_floor(self, p: int, card: str, tile: str, *, sp_paid: int, res_paid: int) -> int:
        """Return the covered building's resources, stack the tile, mark the site.

        The caller takes the new floors' resources from wherever its builder keeps them.
        """
        cell, b = self.building_for(card)
        self.return_resources(b, p)
        b.tiles.append(tile)
        self._tops = None
        b.owner = p
        b.resources = b.height
        b.site = True
        self.emit(
            "construct",
            seat=self.seat_of(p),
            card=card,
            tile=tile,
            cell=[cell[0], cell[1]],
            height=b.height,
            sp_paid=sp_paid,
            res_paid=res_paid,
        )
        return b.height

    def return_resources(self, b: Building, builder: int) -> None:
        if b.owner is None or b.resources == 0:
            b.resources = 0
            return
        owner = self.st.players[b.owner]
        n = b.resources
        if owner.hal:
            owner.supply_res += n
        else:
            owner.screen_res += n
        b.resources = 0
        if b.owner != builder:
            owner.sp += n
        self.emit("returned", seat=self.seat_of(b.owner), n=n, sp=n if b.owner != builder else 0)

    def end_round(self) -> None:
        st = self.st
        self.check_all_placed()
        if st.end_triggered:
            st.phase = "over"
            self.emit("game_over")
            return
        st.round += 1
        st.revealed = []
        if st.solo:
            st.phase = "pick"
            self.start_solo_round()
            return
        n = st.count
        hands = [p.hand for p in st.players]
        for i, player in enumerate(st.players):
            # Unused cards go to the left: each player takes their right neighbour's.
            player.hand = hands[(i - 1) % n]
        st.first = (st.first + 1) % n
        for p in self.order():
            while len(st.players[p].hand) < 4 and st.deck:
                self.draw(p)
        st.phase = "pick"
        self.emit("round", round=st.round, first=st.first)

    def start_solo_round(self) -> None:
        st = self.st
        for _ in range(3):
            self.draw(0)
        st.hal_card = st.deck.pop() if st.deck else None
        if not st.deck:
            self.rebuild_deck()
        self.emit("round", round=st.round, first=0)
