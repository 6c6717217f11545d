"""The one place that knows the view's JSON shape: view dict -> ``model.Board``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.quadropolis.render.geometry import (
    CLASSIC_DISTRICTS,
    EXPERT_DISTRICTS,
    EXPERT_NUMBERS,
)
from engine.quadropolis.render.model import (
    Architect,
    Board,
    Player,
    SiteSpace,
    Stack,
    Tile,
)
from engine.quadropolis.render.palette import SEAT_COLORS

View = Mapping[str, Any]


def require_public(view: View, who: str) -> None:
    """Images posted to the table are drawn from the public view only."""
    if view.get("seat") is not None or view.get("me") is not None:
        raise ValueError(f"{who} takes the public view: view(state, None)")


def read_tile(data: Mapping[str, Any]) -> Tile:
    produces = data.get("produces") or {}
    return Tile(
        id=str(data.get("id", "")),
        kind=str(data["type"]),
        inhabitants=int(produces.get("inhabitants", 0)),
        energy=int(produces.get("energy", 0)),
        vp=int(data.get("printed_vp", 0)),
        mayor=bool(data.get("mayor_symbol", False)),
        square=bool(data.get("square", False)),
    )


def _space(data: Any) -> SiteSpace:
    if data is None:
        return SiteSpace()
    if data.get("face_down"):
        return SiteSpace(face_down=True)
    return SiteSpace(tile=read_tile(data["tile"] if "tile" in data else data))


def _stack(data: Any) -> Stack | None:
    if data is None:
        return None
    tiles = [read_tile(t) for t in data["tiles"]]
    return Stack(kind=tiles[-1].kind, floors=len(tiles), top=tiles[-1])


def seat_name(seat: int, names: Sequence[str] | None, fallback: str) -> str:
    if names is not None and seat < len(names) and names[seat]:
        return str(names[seat])
    return fallback


def read_board(view: View, names: Sequence[str] | None = None) -> Board:
    expert = view.get("mode") == "expert"
    players = []
    for i, p in enumerate(view["players"]):
        color = str(p.get("color") or SEAT_COLORS[i % len(SEAT_COLORS)])
        players.append(
            Player(
                seat=i,
                color=color,
                name=seat_name(i, names, str(p.get("name") or color.capitalize())),
                inhabitants=int(p.get("inhabitants", 0)),
                energy=int(p.get("energy", 0)),
                city=tuple(tuple(_stack(s) for s in row) for row in p["city"]),
                architects=tuple(int(n) for n in p.get("architects", ())),
                mayor=view.get("first") == i,
            )
        )
    urb = view.get("urbanist")
    return Board(
        mode="expert" if expert else "classic",
        round=int(view.get("round", 1)),
        rounds=int(view.get("rounds", 5 if expert else 4)),
        turn=int(view.get("turn", 1)),
        over=view.get("phase") == "over",
        site=tuple(tuple(_space(s) for s in row) for row in view["site"]),
        architects=tuple(
            Architect(str(a["side"]), int(a["index"]), int(a["number"]),
                      None if a.get("owner") is None else int(a["owner"]))
            for a in view.get("architects", ())
        ),
        urbanist=None if urb is None else (int(urb[0]), int(urb[1])),
        players=tuple(players),
        first=None if view.get("first") is None else int(view["first"]),
        current=None if view.get("current") is None else int(view["current"]),
        pool=tuple(int(n) for n in view.get("pool", ())),
        squares=bool(view.get("squares", False)),
        districts=EXPERT_DISTRICTS if expert else CLASSIC_DISTRICTS,
        numbers=EXPERT_NUMBERS if expert else (),
    )
