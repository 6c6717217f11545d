"""The bot's garbage collector after its start (issue 25): what the start built is frozen
out of later walks, and young objects are collected less often."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot.gc_tuning import THRESHOLDS, settle_after_start


@pytest.fixture
def restored_gc() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


def test_after_the_start_the_long_lived_objects_are_frozen_and_collections_rarer(
        restored_gc: None) -> None:
    kept = [[i] for i in range(1000)]  # what a start builds and keeps
    settle_after_start()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold() == THRESHOLDS
    assert THRESHOLDS[0] > 700  # CPython's default young threshold
