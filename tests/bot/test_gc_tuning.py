"""The bot's garbage collector after its start (issue 25): what the start built is frozen
out of later walks, and young objects are collected less often."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


def test_the_start_makes_every_game_ready_before_freezing(
        restored_gc: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game's module and data are made at the start, so they are frozen with the
    rest (a fresh interpreter: nothing of the games loaded before)."""
    script = ("import sys, gc\n"
              "from bot.gc_tuning import settle_after_start\n"
              "assert not [m for m in sys.modules if m.startswith('engine.neotopia')]\n"
              "settle_after_start()\n"
              "print(' '.join(sorted(m for m in sys.modules if m.count('.') == 1\n"
              "                      and m.startswith('engine.') and m != 'engine.core')))\n"
              "from engine.neotopia.data import DEFAULT, dataset\n"
              "data = dataset(DEFAULT)\n"
              # Frozen objects are out of the collector's lists.
              "print(gc.is_tracked(data) and all(o is not data for o in gc.get_objects()))\n")
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                         text=True, cwd=Path(__file__).resolve().parents[2]).stdout.split("\n")
    assert set(out[0].split()) >= {f"engine.{name}" for name in
                                   ("ginkgopolis", "quadropolis", "neotopia", "skybridge")}
    assert out[1] == "True"


def test_a_game_that_fails_to_warm_up_is_left_for_its_first_use(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from bot import gc_tuning

    real = gc_tuning.get_game

    def broken(name: str) -> Any:
        if name == "skybridge":
            raise RuntimeError("its data file is missing")
        return real(name)

    monkeypatch.setattr(gc_tuning, "get_game", broken)
    ready = gc_tuning.warm_games()
    assert "skybridge" not in ready and "ginkgopolis" in ready
