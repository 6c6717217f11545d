"""The search's determinization: a full state consistent with what one seat sees.

Unlike ``view.scramble_hidden`` (which only has to keep views equal), this must depend
on nothing but the seat's view and the seed, so every pool is sorted before it is
shuffled, and the generator's state, which nobody sees, is drawn anew. The seat's own
hand, tiles, pick, packet and refill group are kept; every count that the view shows
is kept (hand sizes, tiles behind each screen, deck and supply sizes).

Other seats' unrevealed decisions (card picks, draft picks, refill groups and their
"done") are cleared rather than guessed: in a simulation those seats decide again, so
the searching seat never conditions on a pick it has not seen (simultaneous play).
A pick still face down while the round resolves (the seat waits for a token move
before it) can no longer change: it is dealt from that seat's re-dealt hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.protocol import Action, Game
from engine.core.rng import Rng
from engine.core.search import SearchConfig, SearchPlayer, lead_value
from engine.ginkgopolis.actions import GAction, PlayCard
from engine.ginkgopolis.ai import GreedyPlayer
from engine.ginkgopolis.legal import play_actions
from engine.ginkgopolis.rules import Table
from engine.ginkgopolis.scoring import score
from engine.ginkgopolis.state import Pick, State


def determinize(st: State, seat: int, seed: int) -> State:
    out = st.copy()
    rng = Rng.from_seed(seed)
    others = [i for i in range(out.count) if i != seat]

    cards = sorted([*out.deck, *([out.hal_card] if out.hal_card else [])]
                   + [c for i in others for c in out.players[i].hand])
    rng.shuffle(cards)
    if out.hal_card:
        out.hal_card = cards.pop()
    for i in others:
        p = out.players[i]
        k = len(p.hand)
        p.hand, cards = cards[:k], cards[k:]
    out.deck = cards

    tiles = sorted([*out.supply, *out.box] + [t for i in others for t in out.players[i].tiles])
    rng.shuffle(tiles)
    for i in others:
        p = out.players[i]
        k = len(p.tiles)
        p.tiles, tiles = tiles[:k], tiles[k:]
    out.box, out.supply = sorted(tiles[: len(out.box)]), tiles[len(out.box) :]

    refill = out.decision is not None and out.decision["kind"] == "refill"
    table = Table(out)
    for i in others:
        p = out.players[i]
        p.draft_pick = None
        if p.pick is not None:
            p.pick = None if out.phase == "pick" else _committed(out, i, rng)
        p.refill = []
        if refill and not p.hal:
            # Whether another seat has closed its group is public, but not what is in it:
            # it decides again (a seat with nothing to give is done at once, as the rules do).
            p.refill_done = not table.refillable(p)

    if out.phase == "draft":
        hidden = [c for i in others for c in out.players[i].packet + out.players[i].characters]
        pool = sorted([*out.character_box, *hidden])
        rng.shuffle(pool)
        for i in others:
            p = out.players[i]
            k, m = len(p.packet), len(p.characters)
            p.packet, p.characters, pool = pool[:k], sorted(pool[k : k + m]), pool[k + m :]
        out.character_box = sorted(pool)
    out.rng = rng.next_u64()
    return out


def _committed(st: State, p: int, rng: Rng) -> Pick:
    """A pick made face down before this round's resolution reached the seat that made it:
    it can no longer be changed, so it is dealt as the greedy player would have made it."""
    greedy = GreedyPlayer()
    plays = [a for a in play_actions(st, p) if isinstance(a, PlayCard)]
    values = greedy.values(st, p, plays)
    best = max(values)
    ties = [a for a, v in zip(plays, values, strict=True) if v == best]
    a = ties[rng.randbelow(len(ties))]
    return Pick(a.card, a.tile, a.gain)


def _prior(st: State, seat: int, actions: Sequence[Action]) -> list[float]:
    mine = [a for a in actions if isinstance(a, GAction)]
    assert len(mine) == len(actions)
    return GreedyPlayer().values(st, seat, mine)


def evaluate(st: State, seat: int) -> float:
    """The lead in points if the game ended now (SP, districts, kept cards)."""
    totals = [0.0] * st.count
    for s in score(st).standings:
        totals[s.seat if s.seat is not None else st.count - 1] = float(s.total)
    return lead_value(totals, seat, 6.0)


def search_player(game: Game[State]) -> SearchPlayer:
    """The ``search`` AI: the greedy values as the prior, greedy rollouts to the end.

    Tuned at 4 players, one search seat against greedy ones: full rollouts at 96
    simulations won 9 of 12 games (seeds 100-111); the setting before (40 simulations,
    rollouts cut after 48 actions and valued by the points then) won 33.8% of 40 (seeds
    0-39). A move costs about 0.3 s of one core (0.65 s at most) on the engine of issue
    12. ``evaluate`` stays for a cut-off in play.
    """
    config = SearchConfig(iterations=96, width=6)
    return SearchPlayer(game, determinize, config, prior=_prior, evaluate=evaluate)
