"""Applying an action: placements, bonus cells, refills, projects, tracks, turns, the end.

``play`` checks the action against ``legal_actions`` before changing anything, so a
refused action leaves the state untouched.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.protocol import Action, Event
from engine.neotopia import patterns
from engine.neotopia.actions import Back, Build, Draw, EndTurn, Move, Place, Take, UseBonus
from engine.neotopia.data import largest_group
from engine.neotopia.legal import (
    Reach,
    any_normal_action,
    is_legal,
    legal_actions,
    place_cells,
    usable_bonuses,
)
from engine.neotopia.scoring import outcome
from engine.neotopia.setup import ACTIONS_PER_TURN
from engine.neotopia.state import NeotopiaState

BONUS_STAGE = {"subsidy": "subsidy", "automation": "automation",
               "private_initiative": "initiative", "building_permits": "permits"}


def play(st: NeotopiaState, seat: int, action: Action) -> list[Event]:
    if st.phase == "over":
        raise IllegalAction("The game is over.", code="game_over")
    if seat != st.current:
        raise NotYourTurn("It is not your turn.", code="not_your_turn", seat=seat,
                          current=st.current)
    if isinstance(action, Move):
        return _move(st, seat, action)
    if not is_legal(st, seat, action):
        raise _refusal(st, action, legal_actions(st, seat))
    events: list[Event] = []
    if isinstance(action, Place) and st.stage == "start":
        _start_place(st, seat, action.cell, events)
    elif isinstance(action, Draw):
        _draw(st, seat, action.card, events)
    elif isinstance(action, Take):
        st.taking = {"source": action.source, "colour": action.colour}
        st.return_stage = st.stage
        st.stage = "place"
    elif isinstance(action, Back):
        st.taking = None
        st.stage = st.return_stage
    elif isinstance(action, Place):
        _place(st, seat, action.cell, events)
    elif isinstance(action, Build):
        _build(st, seat, action.card, events)
    elif isinstance(action, UseBonus):
        st.tokens[seat].remove(action.bonus)
        st.used_tokens[seat].append(action.bonus)
        st.bonus_used = True
        st.bonus = action.bonus
        st.acted = True
        st.stage = BONUS_STAGE[action.bonus]
        st.draws_left = 2 if action.bonus == "subsidy" else 0
        events.append(Event("bonus_used", {"seat": seat, "bonus": action.bonus}))
    elif isinstance(action, EndTurn):
        _end_turn(st, events)
    st.last = {"seat": seat, "text": action.text()}
    settle(st, events)
    return events


def _move(st: NeotopiaState, seat: int, move: Move) -> list[Event]:
    """The typed shortcut: the take and the placement, checked before either is made."""
    take = Take(move.source, move.colour)
    legal = legal_actions(st, seat)
    if take not in legal:
        raise _refusal(st, move, legal)
    saved = (st.taking, st.stage)
    st.taking = {"source": move.source, "colour": move.colour}
    cells = place_cells(st)
    st.taking, st.stage = saved
    if move.cell not in cells:
        raise IllegalAction(f"The {move.colour} element of {move.source} cannot go on "
                            f"{move.cell}; it may go on {', '.join(cells)}.",
                            code="cell_closed", typed=move.text(), stage=st.stage,
                            legal=[f"{take.text()}>{c}" for c in cells], cell=move.cell,
                            cells=cells, source=move.source, colour=move.colour)
    events = play(st, seat, take)
    events += play(st, seat, Place(move.cell))
    st.last = {"seat": seat, "text": move.text()}
    return events


def _refusal(st: NeotopiaState, action: Action, legal: list[Action]) -> IllegalAction:
    """Why a well-formed action is refused, as precisely as the stage allows: a stable
    code and its values (so a template can say it in any language), the English message,
    and the moves possible now."""
    why = _why(st, action)
    return IllegalAction(why.message, code=why.code, typed=action.text(), stage=st.stage,
                         legal=[a.text() for a in legal], **why.params)


class Why(NamedTuple):
    """A refusal's stable code, its English message and the values a template needs."""

    code: str
    message: str
    params: dict[str, Any]


STAGE_SAYS = {
    "start": "Place your starting element: the centre of an empty region or a cell "
             "next to another player's element",
    "turn": "Draw a project, take an element from a manufacture, use a bonus or end",
    "place": "Put the element you took on a free cell it may reach (or go back)",
    "build": "Build one of the projects you just completed, or none",
    "subsidy": "Draw a project (Government Subsidy)",
    "automation": "Take one usual action (Automation)",
    "initiative": "Choose an element of the reserve (Private Initiative)",
    "permits": "Choose an element of a manufacture for an outer cell "
               "(New Building Permits)",
}


def _why(st: NeotopiaState, action: Action) -> Why:
    specific = _specific_why(st, st.current, action)
    if specific:
        return specific
    says = STAGE_SAYS.get(st.stage, st.stage)
    return Why("wrong_stage", f"At this step, {says[:1].lower()}{says[1:]}.", {})


def _specific_why(st: NeotopiaState, seat: int, action: Action) -> Why | None:
    legal = legal_actions(st, seat)
    cells = [a.cell for a in legal if isinstance(a, Place)]
    if isinstance(action, Place) and cells:
        shown = ", ".join(cells[:12]) + (", ..." if len(cells) > 12 else "")
        return Why("cell_closed",
                   f"{action.cell} is not open to this element; it may go on {shown}.",
                   {"cell": action.cell, "cells": cells})
    if isinstance(action, Draw) and st.stage in ("turn", "automation", "subsidy"):
        if st.stage == "turn" and st.actions_left == 0:
            return Why("no_actions_left", "Your three actions are done.", {})
        if action.card is None:
            return Why("deck_empty", "The deck is empty (it is not reshuffled).", {})
        return Why("not_in_offer",
                   f"{action.card} is not in the offer ({', '.join(st.offer) or 'empty'}).",
                   {"card": action.card, "offer": list(st.offer)})
    if isinstance(action, Take | Move) and st.stage == "turn" and st.actions_left == 0:
        return Why("no_actions_left", "Your three actions are done.", {})
    if isinstance(action, Take | Move) and any(isinstance(a, Take) for a in legal):
        offered = [a.colour for a in legal if isinstance(a, Take) and a.source == action.source]
        if not offered:
            return Why("source_closed", f"Nothing can be taken from {action.source} now.",
                       {"source": action.source,
                        "sources": sorted({a.source for a in legal if isinstance(a, Take)})})
        return Why("colour_absent",
                   f"{action.source} offers no {action.colour} element now "
                   f"({', '.join(offered)}).",
                   {"source": action.source, "colour": action.colour, "colours": offered})
    if isinstance(action, UseBonus) and st.stage == "turn":
        bonus = {"bonus": action.bonus}
        if action.bonus not in st.tokens[seat]:
            return Why("no_token", f"You hold no {action.bonus.replace('_', ' ')} token.", bonus)
        if st.bonus_used:
            return Why("bonus_used", "You have already used a bonus this turn (one per turn).",
                       {})
        return Why("bonus_useless",
                   f"A {action.bonus.replace('_', ' ')} token would have no effect now.", bonus)
    if isinstance(action, EndTurn) and st.stage == "turn" and st.actions_left > 0:
        return Why("actions_left", f"You still have {st.actions_left} action(s) to take.",
                   {"count": st.actions_left})
    if isinstance(action, Build) and st.stage == "build":
        return Why("not_buildable",
                   f"{action.card} is not a project you just completed here; "
                   f"build {' or '.join(st.build_options)}, or none.",
                   {"card": action.card, "options": list(st.build_options)})
    return None


# --- starting elements --------------------------------------------------------------


def _start_place(st: NeotopiaState, seat: int, cell: str, events: list[Event]) -> None:
    colour = st.colour_of(seat)
    st.reserve[colour] -= 1
    st.board[cell] = colour
    events.append(Event("start_placed", {"seat": seat, "colour": colour, "cell": cell,
                                         "region": st.data.cells[cell].region}))
    _cover(st, seat, cell, events)
    nxt = (st.current + 1) % st.seats
    if nxt == st.first:
        st.phase = "play"
        st.round = 1
        _begin_turn(st, st.first, events)
    else:
        st.current = nxt


# --- the usual actions ---------------------------------------------------------------


def _draw(st: NeotopiaState, seat: int, card: str | None, events: list[Event]) -> None:
    if card is None:
        drawn = st.deck.pop(0)
        events.append(Event("drew", {"seat": seat, "source": "deck", "card": None}))
        events.append(Event("drew_card", {"seat": seat, "card": drawn}, to=seat))
    else:
        st.offer.remove(card)
        drawn = card
        events.append(Event("drew", {"seat": seat, "source": "offer", "card": card}))
    st.hands[seat].append(drawn)
    st.acted = True
    if st.stage == "turn":
        st.actions_left -= 1
    elif st.stage == "automation":
        st.stage, st.bonus = "turn", None
    elif st.stage == "subsidy":
        st.draws_left -= 1
        if st.draws_left <= 0 or not (st.offer or st.deck):
            st.stage, st.bonus, st.draws_left = "turn", None, 0


def _place(st: NeotopiaState, seat: int, cell: str, events: list[Event]) -> None:
    assert st.taking is not None
    source, colour = st.taking["source"], st.taking["colour"]
    data = st.data
    if source == "reserve":
        st.reserve[colour] -= 1
    else:
        st.manufactures[source].remove(colour)
    st.board[cell] = colour
    region = data.cells[cell].region
    events.append(Event("placed", {
        "seat": seat, "colour": colour, "source": source, "cell": cell, "region": region,
        "bonus": st.bonus,
    }))
    if st.return_stage == "turn":
        st.actions_left -= 1
    st.taking, st.bonus, st.acted = None, None, True
    _cover(st, seat, cell, events)
    if source != "reserve" and not st.manufactures[source]:
        refill(st, source, events)
    options = [c for c in patterns.completed(data, st.board, cell, st.hands[seat],
                                             bool(st.options["mirror"]))
               if not _same_type(st, c, region)]
    if options:
        st.stage = "build"
        st.build_options = sorted(dict.fromkeys(options))
        st.build_at = cell
    else:
        st.stage = "turn"


def _same_type(st: NeotopiaState, card: str, region: str) -> bool:
    """The diversity rule (L417-424): not the type of the region's last project."""
    last = st.last_project(region)
    return last is not None and st.data.cards[last].type == st.data.cards[card].type


def _cover(st: NeotopiaState, seat: int, cell: str, events: list[Event]) -> None:
    token = st.cell_tokens.pop(cell, None)
    if token is not None:
        st.tokens[seat].append(token)
        events.append(Event("token_taken", {"seat": seat, "bonus": token, "cell": cell,
                                            "region": st.data.cells[cell].region,
                                            "how": "cell"}))


def _build(st: NeotopiaState, seat: int, card: str | None, events: list[Event]) -> None:
    cell = st.build_at
    st.stage, st.build_options, st.build_at = "turn", [], None
    if card is None or cell is None:
        return
    data = st.data
    region = data.cells[cell].region
    st.hands[seat].remove(card)
    st.built.append({"seat": seat, "card": card, "region": region})
    points = data.card_points(card, st.colour_of(seat))
    before = st.scores[seat][region]
    events.append(Event("built", {
        "seat": seat, "card": card, "type": data.cards[card].type, "region": region,
        "cell": cell, "points": points, "score": before + points,
    }))
    gain(st, seat, region, points, events)


def gain(st: NeotopiaState, seat: int, region: str, points: int, events: list[Event]) -> None:
    """Move a marker; each threshold reached or passed takes the pile's top token (N5)."""
    old = st.scores[seat][region]
    new = old + points
    st.scores[seat][region] = new
    length = st.data.track_length
    laps = range(0, new // length + 1) if st.options["second_lap_bonus"] else range(1)
    crossed = sorted(t + length * k for k in laps for t in st.data.thresholds
                     if old < t + length * k <= new)
    for mark in crossed:
        pile = st.piles[region]
        if pile:
            token = pile.pop(0)
            st.tokens[seat].append(token)
            events.append(Event("token_taken", {"seat": seat, "bonus": token, "region": region,
                                                "threshold": mark, "how": "track"}))


# --- production ---------------------------------------------------------------------


def refill(st: NeotopiaState, manufacture: str, events: list[Event]) -> None:
    """Refill an emptied manufacture at once (L316-329, L555-565), chained (RULINGS)."""
    data = st.data
    order = data.colour_ids
    while not st.manufactures[manufacture]:
        if st.stack:
            got = st.on_top
            st.on_top = []
            tile = st.stack.pop(0)
            st.discarded.append(tile)
            back = list(data.tiles[[t.id for t in data.tiles].index(tile)].back)
            taken = _from_reserve(st, back)
            st.manufactures[manufacture] = sorted(got, key=order.index)
            events.append(Event("refilled", {"manufacture": manufacture, "elements": got,
                                             "source": "tile"}))
            if st.stack:
                st.on_top = sorted(taken, key=order.index)
                events.append(Event("tile_turned", {"tile": tile, "back": back,
                                                    "elements": st.on_top, "to": "stack"}))
            else:
                st.centre = sorted(taken, key=order.index)
                st.flag_turned = True
                st.final_round = st.round + 1
                events.append(Event("tile_turned", {"tile": tile, "back": back,
                                                    "elements": st.centre, "to": "centre"}))
                events.append(Event("end_triggered", {"seat": st.current,
                                                      "final_round": st.final_round}))
        elif st.centre:
            got, st.centre, st.centre_used = st.centre, [], True
            st.manufactures[manufacture] = got
            events.append(Event("refilled", {"manufacture": manufacture, "elements": got,
                                             "source": "centre"}))
        else:
            got = _from_reserve(st, list(order))
            if not got:
                events.append(Event("refill_failed", {"manufacture": manufacture}))
                return
            st.manufactures[manufacture] = got
            events.append(Event("refilled", {"manufacture": manufacture, "elements": got,
                                             "source": "reserve"}))


def _from_reserve(st: NeotopiaState, colours: list[str]) -> list[str]:
    """Take what the reserve still has; a missing colour is not replaced (L563-565)."""
    out = []
    for c in colours:
        if st.reserve[c] > 0:
            st.reserve[c] -= 1
            out.append(c)
    return out


# --- turns and the end --------------------------------------------------------------


def settle(st: NeotopiaState, events: list[Event]) -> None:
    """Move on while the seat to play has nothing to decide in the turn stage."""
    # Ending a turn changes no cell, so one reach serves every turn this settles.
    reach = Reach.of(st)
    while st.phase == "play" and st.stage == "turn":
        if st.actions_left > 0 and not any_normal_action(st, reach):
            # No legal action: the remaining actions are lost (RULINGS N8).
            events.append(Event("actions_lost", {"seat": st.current,
                                                 "count": st.actions_left}))
            st.actions_left = 0
        if st.actions_left == 0 and not usable_bonuses(st, st.current, reach):
            _end_turn(st, events)
            continue
        break


def _begin_turn(st: NeotopiaState, seat: int, events: list[Event]) -> None:
    st.current = seat
    st.actions_left = ACTIONS_PER_TURN
    st.bonus_used = False
    st.bonus = None
    st.acted = False
    st.stage = "turn"
    events.append(Event("turn", {"seat": seat, "round": st.round,
                                 "final": st.final_round == st.round}))


def _end_turn(st: NeotopiaState, events: list[Event]) -> None:
    seat = st.current
    refilled = []
    while len(st.offer) < st.data.offer_size and st.deck:
        card = st.deck.pop(0)
        st.offer.append(card)
        refilled.append(card)
    events.append(Event("turn_ended", {"seat": seat, "offer_refilled": refilled}))
    st.idle_turns = 0 if st.acted else st.idle_turns + 1
    if st.idle_turns >= st.seats:
        # A whole round in which nobody could act (RULINGS).
        finish(st, "stall", events)
        return
    nxt = (seat + 1) % st.seats
    if nxt == st.first:
        st.round += 1
        if st.final_round is not None and st.round > st.final_round:
            finish(st, "flag", events)
            return
    _begin_turn(st, nxt, events)


def finish(st: NeotopiaState, reason: str, events: list[Event]) -> None:
    """Group points (L569-576, never tokens), then the game is over."""
    data = st.data
    st.group_points = [
        {r.id: largest_group(data, st.board, r.id, st.colour_of(s)) for r in data.regions}
        for s in range(st.seats)
    ]
    # Group points go on the tracks (L574) but never take tokens (L575-576).
    for s, groups in enumerate(st.group_points):
        for region, points in groups.items():
            st.scores[s][region] += points
    st.phase, st.stage, st.end_reason = "over", "over", reason
    st.actions_left, st.taking, st.bonus = 0, None, None
    result = outcome(st)
    events.append(Event("game_over", {
        "reason": reason,
        "totals": [_total(result.standings, s) for s in range(st.seats)],
        "winners": [w.seat for w in result.winners],
        "group_points": st.group_points,
    }))


def _total(standings: Any, seat: int) -> int:
    return next(int(s.total) for s in standings if s.seat == seat)
