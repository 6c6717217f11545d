"""What the engines' copy tests do to a view or a state's JSON handed out: change it all
the way down, as a careless caller might, so a later view, JSON or state that shared
any of it would show it (issue 25: the views and JSON are made without deepcopy)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


def vandalise(value: Any) -> None:
    """Change every list and dict inside ``value``, at every depth."""
    if isinstance(value, dict):
        for key, inner in value.items():
            vandalise(inner)
            if not isinstance(inner, (dict, list)):
                value[key] = "vandal"
        value["vandal"] = ["vandal"]
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            vandalise(inner)
            if not isinstance(inner, (dict, list)):
                value[i] = "vandal"
        value.append(["vandal"])


def dumped(value: Any) -> str:
    return json.dumps(value)  # key order kept: it is part of what is compared


def handed_out(game: Any, st: Any) -> tuple[dict[Any, str], str]:
    """``st``'s views (the table's, seats 0 and 1) and JSON as they are now; then each is
    handed out again and vandalised, for the checks after to see whether it was shared."""
    state_json = dumped(game.state_to_json(st))
    views = {seat: dumped(game.view(st, seat)) for seat in (None, 0, 1)}
    for seat in views:
        vandalise(game.view(st, seat))
    vandalise(game.state_to_json(st))
    return views, state_json


def assert_handed_out_stays_out(game: Any, st: Any, views: dict[Any, str], state_json: str,
                                vandalise_state: Callable[[Any], None]) -> None:
    """A state's JSON handed out, and a state read back from it, share nothing with
    ``st``: vandalised, neither changes ``st``'s JSON or views (``state_json``, ``views``:
    as they were before), nor does the state read back lose them."""
    handed = game.state_to_json(st)
    back = game.state_from_json(handed)
    vandalise(handed)
    vandalise_state(game.state_from_json(game.state_to_json(st)))

    assert dumped(game.state_to_json(st)) == state_json
    assert dumped(game.state_to_json(back)) == state_json
    assert {seat: dumped(game.view(st, seat)) for seat in views} == views
    assert {seat: dumped(game.view(back, seat)) for seat in views} == views
