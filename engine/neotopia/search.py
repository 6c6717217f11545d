"""The search AI's Neotopia pieces (kept out of the rules modules).

A determinization re-deals what the seat cannot see, as ``scramble_hidden`` does (other
hands with the deck, the stack with the boxed tiles, the tokens below the piles' tops),
but from sorted pools and with the generator drawn anew, so that it depends only on the
seat's view and the seed. A simulation is cut after a few actions and valued by the
lead in points counted now.
"""

from __future__ import annotations

from engine.core.protocol import Action, Game
from engine.core.rng import Rng
from engine.core.search import SearchConfig, SearchPlayer, lead_value, one_ply_prior
from engine.neotopia.actions import Back
from engine.neotopia.data import largest_group
from engine.neotopia.scoring import TOKEN_POINTS, outcome
from engine.neotopia.state import NeotopiaState


def determinize(state: NeotopiaState, seat: int, seed: int) -> NeotopiaState:
    st = state.copy()
    rng = Rng.from_seed(seed)
    others = [s for s in range(st.seats) if s != seat]
    pool = sorted([c for s in others for c in st.hands[s]] + st.deck)
    rng.shuffle(pool)
    for s in others:
        n = len(st.hands[s])
        st.hands[s], pool = pool[:n], pool[n:]
    st.deck = pool
    flag_id = next(x.id for x in st.data.tiles if x.flag)
    flag = [t for t in st.stack if t == flag_id]
    tiles = sorted([t for t in st.stack if t != flag_id] + st.removed)
    rng.shuffle(tiles)
    n = len(st.stack) - len(flag)
    st.stack, st.removed = tiles[:n] + flag, sorted(tiles[n:])
    below = sorted(t for pile in st.piles.values() for t in pile[1:])
    rng.shuffle(below)
    for region, pile in st.piles.items():
        k = len(pile) - 1
        if k > 0:
            st.piles[region] = [pile[0], *below[:k]]
            below = below[k:]
    st.rng = rng.next_u64()
    return st


def worth(state: NeotopiaState, seat: int) -> float:
    """The seat's total if the game ended now: the tracks plus the group points that the
    end would add (best + second + 3 x worst), and 3 per token held."""
    data = state.data
    colour = state.colour_of(seat)
    totals = sorted((state.scores[seat][r.id] + largest_group(data, state.board, r.id, colour)
                     for r in data.regions), reverse=True)
    return float(totals[0] + totals[1] + 3 * totals[2] + TOKEN_POINTS * len(state.tokens[seat]))


def evaluate(state: NeotopiaState, seat: int) -> float:
    if state.over:
        totals = [float(s.total)
                  for s in sorted(outcome(state).standings, key=lambda s: s.seat or 0)]
    else:
        totals = [worth(state, s) for s in range(state.seats)]
    return lead_value(totals, seat, 6.0)


def forward(state: NeotopiaState, seat: int, actions: list[Action]) -> list[Action]:
    """Every action but "back": undoing a take only undoes a choice the search made a
    moment ago, and searching it would let noise send the seat round in circles."""
    return [a for a in actions if not isinstance(a, Back)]


def search_player(game: Game[NeotopiaState]) -> SearchPlayer:
    """The ``search`` AI: the few actions that score best once the turn is played on
    greedily, then greedy rollouts of a few actions, valued by the points now."""
    prior = one_ply_prior(game, determinize, evaluate)
    config = SearchConfig(iterations=12, width=4, horizon=8)
    return SearchPlayer(game, determinize, config, prior=prior, evaluate=evaluate,
                        candidates=forward)
