"""The service's cache of live tables is a least-recently-used one: a table read or
written lately stays, the one untouched longest leaves first."""

from __future__ import annotations

from typing import Any, cast

from bot.service.live import LiveTable, TableCache


class _Record:
    def __init__(self, table_id: int) -> None:
        self.id = table_id


def live(table_id: int) -> LiveTable:
    return LiveTable(record=cast(Any, _Record(table_id)), seats=[], timers=[],
                     game=cast(Any, None))


def test_the_table_untouched_longest_leaves_first() -> None:
    cache = TableCache(2)
    one, two, three = live(1), live(2), live(3)
    cache.put(one)
    cache.put(two)
    assert cache.get(1) is one  # now two is the one untouched longest
    cache.put(three)
    assert cache.get(2) is None
    assert cache.get(1) is one and cache.get(3) is three


def test_a_cache_of_size_zero_holds_nothing() -> None:
    cache = TableCache(0)
    cache.put(live(1))
    assert cache.get(1) is None
