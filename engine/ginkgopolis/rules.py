"""The rules of Ginkgopolis: choosing, resolving, preparing, ending.

``Table`` wraps one state and the events produced by one ``apply``. Resolution is a
queue of small effects (JSON dicts) so that it can stop for a decision (moving an
urbanization token, the secret tile refill) and resume after it, and so that a saved
game in the middle of a round loads and continues exactly.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.protocol import Event
from engine.core.rng import Rng
from engine.ginkgopolis import hal as hal_rules
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
from engine.ginkgopolis.cards import (
    BUILDING_CARDS,
    CHARACTERS,
    COLOR_ITEM,
    LETTERS,
    Reward,
    is_urbanization,
    tile_color,
    tile_number,
)
from engine.ginkgopolis.outline import Cell, neighbours, order_ok, outline, restore
from engine.ginkgopolis.state import Building, Pick, Player, State

ITEMS = ("res", "tile", "sp")


class Table:
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
        if self._tops is None:
            self._tops = {b.tiles[-1]: cell for cell, b in self.st.board.items()}
        cell = self._tops.get(card)
        if cell is None:
            raise AssertionError(f"card {card} designates no building")
        return cell, self.st.board[cell]

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
            self.emit("gain", seat=self.seat_of(p), item="sp", n=n, why=why)
        elif item == "res":
            got = min(n, player.supply_res)
            player.supply_res -= got
            player.screen_res += got
            self.emit("gain", seat=self.seat_of(p), item="res", n=got, asked=n, why=why)
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
                self.open_token_decision(op)
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
        rewards = [
            CHARACTERS[c].reward for c in player.characters if CHARACTERS[c].trigger == trigger
        ]
        rewards += [
            BUILDING_CARDS[k].reward for k in player.kept if BUILDING_CARDS[k].trigger == trigger
        ]
        ops = []
        for reward in rewards:
            for item in ITEMS:
                n = getattr(reward, item)
                if n:
                    ops.append(
                        {"op": "gain", "p": p, "item": item, "n": n, "why": f"bonus_{trigger}"}
                    )
        return ops

    # -------------------------------------------------------------- tokens
    def open_token_decision(self, op: dict[str, Any]) -> None:
        letter = op["letter"]
        cell = (op["cell"][0], op["cell"][1])
        options = self.token_options(letter, cell)
        if not options:
            raise AssertionError("no legal place for an urbanization token")
        self.st.decision = {
            "kind": "token",
            "seat": op["seat"],
            "letter": letter,
            "cell": [cell[0], cell[1]],
            "options": [[x, y] for x, y in options],
        }

    def token_options(self, letter: str, tile_cell: Cell) -> list[Cell]:
        st = self.st
        city = set(st.board)
        walk = outline(city)
        taken = {c for k, c in st.tokens.items() if k != letter}

        def feasible(cell: Cell) -> bool:
            return restore(walk, {**st.tokens, letter: cell}, letter, city) is not None

        adjacent = [c for c in neighbours(tile_cell) if c not in city and c not in taken]
        options = [c for c in adjacent if feasible(c)]
        if options:
            return sorted(options)
        # Ruling G2: no empty adjacent cell, so any outline cell between the neighbours.
        i = LETTERS.index(letter)
        prev_cell, next_cell = st.tokens[LETTERS[i - 1]], st.tokens[LETTERS[(i + 1) % 12]]
        between: list[Cell] = []
        if prev_cell in walk and next_cell in walk:
            k = walk.index(prev_cell) + 1
            while walk[k % len(walk)] != next_cell and len(between) < len(walk):
                between.append(walk[k % len(walk)])
                k += 1
        options = sorted({c for c in between if c not in taken and feasible(c)})
        if options:
            return options
        return sorted(c for c in dict.fromkeys(walk) if c not in taken and feasible(c))

    def move_token(self, letter: str, cell: Cell) -> None:
        st = self.st
        city = set(st.board)
        walk = outline(city)
        wanted = {**st.tokens, letter: cell}
        placed = restore(walk, wanted, letter, city)
        assert placed is not None
        moved = sorted(k for k in placed if k != letter and placed[k] != st.tokens[k])
        st.tokens = {k: placed[k] for k in LETTERS}
        self.emit(
            "token_moved",
            letter=letter,
            cell=[cell[0], cell[1]],
            others={k: [placed[k][0], placed[k][1]] for k in moved},
        )
        assert order_ok(walk, st.tokens)

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
        while st.phase == "resolve":
            self.run_queue()
            if st.decision is not None:
                return
            self.check_all_placed()
            order = self.order()
            if st.turn >= len(order):
                self.end_round()
                return
            p = order[st.turn]
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
        st.revealed.append({"seat": p, **pick.to_json()})
        self.emit("reveal", seat=p, card=pick.card, tile=pick.tile, gain=pick.gain)
        card, tile = pick.card, pick.tile
        if tile and is_urbanization(card):
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
        if st.solo:
            st.queue.append({"op": "discard_hand", "p": p})

    def exploit(self, p: int, card: str, gain: str | None) -> None:
        q = self.st.queue
        if is_urbanization(card):
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
        _, b = self.building_for(card)
        change = 1 if tile_color(tile) != tile_color(b.top) else 0
        sp_cost = max(0, tile_number(b.top) - tile_number(tile))
        return b.height + 1 + change, change, sp_cost

    def construct_cost(self, p: int, card: str, tile: str) -> tuple[int, int] | None:
        """(resources, SP) to pay beyond the new floor, or None if the player cannot pay."""
        player = self.st.players[p]
        _, b = self.building_for(card)
        res, change, sp_cost = self.construct_price(card, tile)
        returned = b.resources if b.owner == p else 0
        if player.screen_res + returned < res or player.sp < sp_cost:
            return None
        return change, sp_cost

    def affordable(self, p: int, card: str, tiles: list[str]) -> list[str]:
        """The ``tiles`` that ``p`` can pay to put on ``card``'s building: ``construct_cost``
        for many tiles, reading the building and the player once (the menus' hot path)."""
        player = self.st.players[p]
        _, b = self.building_for(card)
        top = b.top
        color, number = tile_color(top), tile_number(top)
        res = player.screen_res + (b.resources if b.owner == p else 0) - b.height - 1
        if res < 0:
            return []
        sp = player.sp
        return [
            t for t in tiles
            if (res >= 1 or t[0] == color) and sp >= max(0, number - int(t[1:]))
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

    # ---------------------------------------------------------- decisions
    def apply(self, seat: int, action: GAction) -> None:
        st = self.st
        if st.phase == "over":
            raise NotYourTurn("The game is over.")
        if isinstance(action, DraftCharacter):
            self.do_draft(seat, action)
        elif isinstance(action, PlayCard):
            self.do_play(seat, action)
        elif isinstance(action, NewHand):
            self.do_new_hand(seat)
        elif isinstance(action, MoveToken):
            self.do_token(seat, action)
        elif isinstance(action, (GiveTile, TakeTile, RefillDone)):
            self.do_refill(seat, action)
        else:
            raise IllegalAction("Unknown action.")

    def do_draft(self, seat: int, action: DraftCharacter) -> None:
        st = self.st
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
        self.emit("your_draft", to=seat, character=action.character)
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
            self.finish_characters()
            return
        for i, player in enumerate(st.players):
            player.packet = packets[(i - 1) % n]
            self.emit("draft_packet", to=i, packet=list(player.packet))

    def do_play(self, seat: int, action: PlayCard) -> None:
        st = self.st
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
            if (
                action.tile is not None
                and self.construct_cost(seat, action.card, action.tile) is None
            ):
                res, _, sp = self.construct_price(action.card, action.tile)
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
        self.emit("your_pick", to=seat, action=action.text())
        if all(p.pick is not None for p in st.players if not p.hal):
            self.begin_resolution()

    def do_new_hand(self, seat: int) -> None:
        st = self.st
        player = st.players[seat]
        if st.phase != "pick":
            raise IllegalAction("A New Hand is taken while choosing a card.", code="wrong_phase")
        if player.new_hand <= 0:
            raise IllegalAction("You have no New Hand token left.", code="no_new_hand")
        player.new_hand -= 1
        withdrawn = player.pick is not None
        player.pick = None
        st.discard += player.hand
        self.emit("new_hand", seat=seat, discarded=list(player.hand), withdrawn=withdrawn)
        player.hand = []
        for _ in range(4):
            self.draw(seat)

    def do_token(self, seat: int, action: MoveToken) -> None:
        st = self.st
        d = st.decision
        if d is None or d["kind"] != "token" or d["seat"] != seat:
            raise NotYourTurn("No urbanization token is waiting for you.")
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
        self.move_token(action.letter, (action.x, action.y))
        self.advance()

    def do_refill(self, seat: int, action: GAction) -> None:
        st = self.st
        d = st.decision
        player = st.players[seat]
        if d is None or d["kind"] != "refill" or player.refill_done:
            raise NotYourTurn("No tile refill is waiting for you.")
        if isinstance(action, GiveTile):
            if action.tile not in self.refillable(player):
                raise IllegalAction(f"You cannot return {action.tile}.", code="no_tile")
            player.refill.append(action.tile)
            player.refill.sort()
        elif isinstance(action, TakeTile):
            if action.tile not in player.refill:
                raise IllegalAction(f"{action.tile} is not in your group.", code="no_tile")
            player.refill.remove(action.tile)
        else:
            player.refill_done = True
            self.emit("refill_ready", seat=seat)
        self.maybe_finish_refill()
        if st.decision is None:
            self.advance()
