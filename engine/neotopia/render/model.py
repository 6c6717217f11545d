"""What the images draw, read once from a view (``engine/neotopia/view.py``): the only
module that knows the view's JSON shape. The board's geometry, the cards' patterns and
every count come from the view itself, so the renderer needs no data file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.neotopia.render.geometry import GRIDS, Cell, Geometry, Manufacture
from engine.neotopia.render.palette import ELEMENT_NAME
from engine.neotopia.render.words import tr

View = Mapping[str, Any]


@dataclass(frozen=True)
class Card:
    id: str
    type: str
    type_name: str
    pattern: tuple[tuple[int, int, str], ...]
    points: int | None  # None for a building card (2 to its colour, 4 to the others)
    building: str | None
    type_name_fr: str = ""


@dataclass(frozen=True)
class Player:
    seat: int
    colour: str
    name: str
    scores: Mapping[str, int]
    bonuses: tuple[str, ...]
    hand: int
    built: int = 0  # projects built


@dataclass(frozen=True)
class Board:
    geometry: Geometry
    players: tuple[Player, ...]
    elements: Mapping[str, str]  # cell id -> colour
    bonus_cells: Mapping[str, str]  # cell id -> bonus kind, uncovered tokens only
    manufactures: Mapping[str, tuple[str, ...]]
    stack: int  # production tiles left in the stack
    stack_top: tuple[str, ...]  # elements waiting on the top tile (or at the centre)
    reserve: Mapping[str, int]
    piles: Mapping[str, tuple[str | None, int]]  # region -> (top token, tokens left)
    last_project: Mapping[str, str | None]  # region -> type of the last project built
    offer: tuple[Card, ...]
    deck: int
    round: int
    phase: str
    active: int | None
    actions_left: int | None
    first: int | None
    end_triggered: bool
    last_cell: str | None
    taking: tuple[str, str] | None  # (source, colour) of an element being placed
    thresholds: tuple[int, ...]
    track_length: int
    stage: str | None = None  # what the player to play decides now (view's turn.stage)
    bonus: str | None = None  # the bonus being spent in that stage


@dataclass(frozen=True)
class Hand:
    seat: int
    colour: str
    name: str
    cards: tuple[Card, ...]
    bonuses: tuple[str, ...]
    bonus_used: bool
    my_turn: bool
    scores: Mapping[str, int]
    round: int
    phase: str
    grid: str = "hex"
    offer: tuple[Card, ...] = ()
    deck: int = 0


def require_public(view: View, who: str) -> None:
    """Images posted to the table are drawn from the public view only."""
    if view.get("viewer") is not None or any(
            p.get("hand") is not None for p in view.get("players", [])):
        raise ValueError(f"{who} takes the public view: view(state, None)")


def require_seat(view: View, who: str) -> int:
    seat = view.get("viewer")
    if seat is None:
        raise ValueError(f"{who} needs a seat's view (view(state, seat)), not the public one")
    return int(seat)


def name_of(seat: int, colour: str, names: Sequence[str]) -> str:
    if 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    # A seat without a name is called by its colour, in the table's language.
    return tr(ELEMENT_NAME[colour]) if colour in ELEMENT_NAME else tr("Seat {n}", n=seat + 1)


def read_card(raw: Mapping[str, Any]) -> Card:
    pts = raw.get("points")
    building = raw.get("building")
    return Card(
        str(raw["id"]), str(raw.get("type", "")),
        str(raw.get("type_name_en") or raw.get("type", "")),
        tuple((int(q), int(r), str(col)) for q, r, col in raw.get("pattern", [])),
        int(pts) if isinstance(pts, int) else None,
        None if building is None else str(building),
        str(raw.get("type_name_fr") or ""),
    )


def read_geometry(view: View) -> Geometry:
    board = view["board"]
    cells = tuple(Cell(str(c["id"]), str(c["region"]), int(c["q"]), int(c["r"]),
                       str(c["kind"])) for c in board["cells"])
    by_id = {c.id: c for c in cells}
    regions = tuple(str(r["id"]) for r in board["regions"])
    centres = {str(r["id"]): (by_id[str(r["centre"])].q, by_id[str(r["centre"])].r)
               for r in board["regions"] if str(r.get("centre")) in by_id}
    manufactures = tuple(
        Manufacture(str(m["id"]), tuple(str(x) for x in m.get("regions", [])),
                    tuple((int(q), int(r)) for q, r in m.get("slots", [])))
        for m in board["manufactures"])
    pq, pr = board.get("production_slot", [0, 0])
    grid = str(board.get("grid", "hex"))
    if grid not in GRIDS:
        raise ValueError(f"cannot draw a board on a {grid!r} grid (known: {', '.join(GRIDS)})")
    return Geometry(cells, regions, centres, manufactures, (int(pq), int(pr)), grid)


def read_board(view: View, names: Sequence[str] = ()) -> Board:
    geo = read_geometry(view)
    board = view["board"]
    players = tuple(
        Player(int(p["seat"]), str(p["colour"]), name_of(int(p["seat"]), str(p["colour"]), names),
               {str(k): int(v) for k, v in p.get("scores", {}).items()},
               tuple(str(t) for t in p.get("tokens", [])), int(p.get("hand_size", 0)),
               len(p.get("projects", [])))
        for p in view["players"])
    elements = {str(c["id"]): str(c["element"]) for c in board["cells"] if c.get("element")}
    bonus = {str(c["id"]): str(c["bonus_token"]) for c in board["cells"]
             if c.get("bonus_token") and not c.get("element")}
    production = view.get("production", {})
    stack = int(production.get("stack_size", 0))
    top = production.get("on_top", []) if stack else production.get("centre", [])
    piles = {str(p["region"]): (None if p.get("top") is None else str(p["top"]),
                                int(p.get("size", 0))) for p in view.get("bonus_piles", [])}
    last = {str(r["id"]): (None if r.get("last_project") is None
                           else str(r["last_project"].get("type", "")))
            for r in board["regions"]}
    turn = view.get("turn") or {}
    tracks = view.get("tracks") or [{}]
    taking = turn.get("taking")
    cell_ids = {c.id for c in geo.cells}
    last_text = str((view.get("last") or {}).get("text", "")).upper()
    first = next((int(p["seat"]) for p in view["players"] if p.get("first_player")), None)
    rounds = [int(turn["round"])] if turn.get("round") is not None else []
    end = view.get("end") or {}
    if not rounds and end.get("final_round") is not None:
        rounds = [int(end["final_round"])]
    return Board(
        geometry=geo,
        players=players,
        elements=elements,
        bonus_cells=bonus,
        manufactures={str(m["id"]): tuple(str(e) for e in m.get("elements", []))
                      for m in board["manufactures"]},
        stack=stack,
        stack_top=tuple(str(e) for e in top),
        reserve={str(k): int(v) for k, v in view.get("reserve", {}).items()},
        piles=piles,
        last_project=last,
        offer=tuple(read_card(c) for c in view.get("offer", [])),
        deck=int(view.get("deck_size", 0)),
        round=rounds[0] if rounds else 0,
        phase=str(view.get("phase", "play")),
        active=None if turn.get("seat") is None else int(turn["seat"]),
        actions_left=None if turn.get("actions_left") is None else int(turn["actions_left"]),
        first=first,
        end_triggered=bool(end.get("triggered")),
        last_cell=last_text if last_text in cell_ids else None,
        taking=None if not taking else (str(taking.get("source")), str(taking.get("colour"))),
        thresholds=tuple(int(t) for t in tracks[0].get("thresholds", (7, 13, 18))),
        track_length=int(tracks[0].get("length", 20)),
        stage=None if turn.get("stage") is None else str(turn["stage"]),
        bonus=None if turn.get("bonus") is None else str(turn["bonus"]),
    )


def read_hand(view: View, names: Sequence[str] = ()) -> Hand:
    seat = require_seat(view, "render_private")
    me = next(p for p in view["players"] if int(p["seat"]) == seat)
    turn = view.get("turn") or {}
    return Hand(
        seat=seat,
        colour=str(me["colour"]),
        name=name_of(seat, str(me["colour"]), names),
        cards=tuple(read_card(c) for c in me.get("hand") or []),
        bonuses=tuple(str(t) for t in me.get("tokens", [])),
        bonus_used=bool(turn.get("bonus_used")) and turn.get("seat") == seat,
        my_turn=turn.get("seat") == seat,
        scores={str(k): int(v) for k, v in me.get("scores", {}).items()},
        round=int(turn.get("round", 0) or 0),
        phase=str(view.get("phase", "play")),
        grid=str(view.get("board", {}).get("grid", "hex")),
        offer=tuple(read_card(c) for c in view.get("offer", [])),
        deck=int(view.get("deck_size", 0)),
    )
