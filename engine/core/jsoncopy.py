"""A deep copy of a state's JSON-like values, for the engines' state copies and views."""

from __future__ import annotations

import copy
from typing import Any, Final

_ATOMS: Final = frozenset({str, int, float, bool, type(None)})


def json_copy(value: Any) -> Any:
    """``copy.deepcopy`` of a JSON-like value, fast for what it holds: dicts (their order
    kept), lists, strings, numbers; anything else (a tuple, say) goes to ``deepcopy``.
    States are copied for every save, every state read back, every copy and every view
    (issue 25). A state shares no list or dict between two places, so nothing is lost by
    not keeping deepcopy's memo of what was already copied."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else json_copy(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else json_copy(v) for v in value]
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)
