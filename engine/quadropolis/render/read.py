"""The one place that knows the view's JSON shape (``engine/quadropolis/view.py``):
view dict -> ``model.Board``, outcome/final entries -> ``model.Allocation``.

The view's coordinates are 1-based (``r2c3``, slot ``L4``); the model's are 0-based.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.quadropolis.render.geometry import (
    CLASSIC_DISTRICTS,
    EXPERT_DISTRICTS,
    EXPERT_NUMBERS,
)
from engine.quadropolis.render.model import (
    Allocation,
    Architect,
    Board,
    Placed,
    Player,
    SiteSpace,
    Stack,
    Taken,
    Tile,
)
from engine.quadropolis.render.palette import SEAT_COLORS
from engine.quadropolis.render.words import tr

View = Mapping[str, Any]


def require_public(view: View, who: str) -> None:
    """Images posted to the table are drawn from the public view only."""
    if view.get("seat") is not None or view.get("me") is not None:
        raise ValueError(f"{who} takes the public view: view(state, None)")


def seat_color(seat: int) -> str:
    """The view names no colours: seats take the box's four colours in order."""
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


def read_tile(data: Mapping[str, Any]) -> Tile:
    return Tile(
        id=str(data.get("id", "")),
        kind=str(data["type"]),
        inhabitants=int(data.get("inhabitants", 0)),
        energy=int(data.get("energy", 0)),
        vp=int(data.get("vp", 0)),
        mayor=bool(data.get("mayor", False)),
        square=bool(data.get("square", False)),
    )


def _space(data: Any) -> SiteSpace:
    if data is None:
        return SiteSpace()
    if data.get("face_down"):
        return SiteSpace(face_down=True)
    return SiteSpace(tile=read_tile(data["tile"]))


def _stack(data: Any) -> Stack | None:
    if data is None:
        return None
    top = read_tile(data["top"])
    return Stack(kind=top.kind, floors=max(1, int(data.get("floors") or 1)), top=top)


def seat_name(seat: int, names: Sequence[str] | None) -> str:
    if names is not None and seat < len(names) and names[seat]:
        return str(names[seat])
    return tr("Seat {n}", n=seat + 1)


def _grid(data: Any, default: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    if not data:
        return default
    return tuple(tuple(int(v) for v in row) for row in data)


def read_board(view: View, names: Sequence[str] | None = None) -> Board:
    expert = view.get("mode") == "expert"
    per_seat: list[Any] = []
    pool: list[int] = []
    arch = view.get("architects") or {}
    if expert:
        for n, count in sorted((arch.get("pool") or {}).items(), key=lambda kv: int(kv[0])):
            pool += [int(n)] * int(count)
    else:
        per_seat = list(arch.get("per_seat") or [])
    players = []
    for i, p in enumerate(view["players"]):
        seat = int(p.get("seat", i))
        held = p.get("architects")
        if held is None and seat < len(per_seat):
            held = per_seat[seat]
        players.append(
            Player(
                seat=seat,
                color=seat_color(seat),
                name=seat_name(seat, names),
                inhabitants=int(p.get("inhabitants", 0)),
                energy=int(p.get("energy", 0)),
                city=tuple(tuple(_stack(s) for s in row) for row in p["city"]),
                architects=tuple(int(n) for n in held or ()),
                mayor=bool(p.get("mayor")) or view.get("mayor") == seat,
                empty_spaces=int(p.get("empty_spaces", 0)),
            )
        )
    board_data = view.get("city_board") or {}
    urb = view.get("urbanist")
    taken = view.get("taken")
    last = view.get("last")
    last_text = ""
    if last:
        last_text = f"{seat_name(int(last['seat']), names)}: {last.get('text', '')}"
    return Board(
        mode="expert" if expert else "classic",
        round=int(view.get("round") or 1),
        rounds=int(view.get("rounds") or (5 if expert else 4)),
        turn=int(view.get("turn") or 1),
        over=view.get("phase") == "over",
        site=tuple(tuple(_space(s) for s in row) for row in view["site"]),
        architects=tuple(
            Architect(str(a["side"]), int(a["line"]) - 1, int(a["architect"]),
                      None if a.get("seat") is None else int(a["seat"]))
            for a in view.get("slots") or ()
        ),
        urbanist=None if urb is None else (int(urb[0]) - 1, int(urb[1]) - 1),
        players=tuple(players),
        first=None if view.get("first") is None else int(view["first"]),
        current=None if view.get("to_play") is None else int(view["to_play"]),
        mayor=None if view.get("mayor") is None else int(view["mayor"]),
        pool=tuple(pool),
        squares=bool((view.get("options") or {}).get("squares", False)),
        districts=_grid(board_data.get("districts"),
                        EXPERT_DISTRICTS if expert else CLASSIC_DISTRICTS),
        numbers=_grid(board_data.get("space_numbers"), EXPERT_NUMBERS if expert else ()),
        taken=None if not taken else Taken(int(taken["seat"]), int(taken["architect"]),
                                           str(taken.get("slot", "")), read_tile(taken["tile"])),
        last=last_text,
    )


def read_allocation(entry: Mapping[str, Any]) -> Allocation:
    """One seat's final allocation (an entry of the view's ``final``)."""
    spaces = {}
    for b in entry.get("buildings") or ():
        spaces[(int(b["row"]) - 1, int(b["col"]) - 1)] = Placed(
            active=bool(b.get("active")),
            # "inhabitants" counts a shop's customers, "energy" a park's absorbed barrel.
            inhabitants=int(b.get("inhabitants", 0)),
            energy=int(b.get("energy", 0)),
            absorbs=int(b.get("absorbs", 0)),
        )
    return Allocation(
        spaces=spaces,
        unplaced_inhabitants=int(entry.get("unplaced_inhabitants", 0)),
        unplaced_energy=int(entry.get("unplaced_energy", 0)),
    )
