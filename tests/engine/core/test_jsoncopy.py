"""``json_copy``, the engines' deep copy of a state's JSON-like values (issue 25)."""

from __future__ import annotations

from typing import Any

from engine.core.jsoncopy import json_copy
from tests.engine.vandal import dumped, vandalise


def test_json_copy_is_a_deep_copy_that_keeps_order_and_types() -> None:
    value: Any = {"b": [1, 2.5, None, True, {"c": ["x", [3]]}], "a": {"z": 1, "y": (1, [2])}}
    copied = json_copy(value)
    assert copied == value
    assert dumped(copied) == dumped(value)
    assert list(copied["a"]) == ["z", "y"]
    assert copied["a"]["y"] == (1, [2]) and copied["a"]["y"][1] is not value["a"]["y"][1]
    vandalise(copied)
    assert value == {"b": [1, 2.5, None, True, {"c": ["x", [3]]}], "a": {"z": 1, "y": (1, [2])}}
