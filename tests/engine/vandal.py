"""What the engines' copy tests do to a view or a state's JSON handed out: change it all
the way down, as a careless caller might, so a later view, JSON or state that shared
any of it would show it (issue 25: the views and JSON are made without deepcopy)."""

from __future__ import annotations

import json
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
