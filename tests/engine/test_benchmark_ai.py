"""benchmarks/ai.py's records and its paired comparison: the lead each game records is the
search seat's total less the best other total, and ``--compare`` pairs two records seed
by seed."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine.core import Rng, get_game

ROOT = Path(__file__).resolve().parents[2]


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_ai", ROOT / "benchmarks" / "ai.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_ai"] = module
    spec.loader.exec_module(module)
    return module


def rows(path: Path, leads: dict[int, float], wins: set[int]) -> None:
    path.write_text("".join(json.dumps({"game": "toy", "seats": 4, "seed": s,
                                        "share": 1.0 if s in wins else 0.0, "lead": lead,
                                        "cpu": [], "wall": []}) + "\n"
                            for s, lead in leads.items()))


def test_compare_pairs_the_seeds_both_records_played(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    before, after = tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    rows(before, {1: 1.0, 2: 3.0, 3: 5.0, 9: -40.0}, {3})
    rows(after, {1: 2.0, 2: 6.0, 3: 5.0, 7: 40.0}, {2, 3})
    bench().compare(before, after)
    out = capsys.readouterr().out.splitlines()
    # Seeds 1-3 only: differences 1, 3, 0; mean 4/3, sd sqrt(7/3), error sd/sqrt(3).
    assert out == ["before: 1 wins of 3, mean lead +3.00",
                   "after: 2 wins of 3, mean lead +4.33",
                   "lead, after - before: +1.33 +- 0.88 points a game (standard error, 3 seeds)"]


def test_a_recorded_game_holds_the_search_seats_lead(tmp_path: Path) -> None:
    record = tmp_path / "line.jsonl"
    bench().play_line("skybridge", 2, 1, 5, record)
    row = json.loads(record.read_text())
    game = get_game("skybridge")
    # The same game again, to read its totals: the line is deterministic for its seed.
    state = game.setup(2, {}, 5)
    rng = Rng.from_seed(5)
    players = [game.ai("greedy"), game.ai("greedy")]
    players[5 % 2] = game.ai("search")
    while (outcome := game.outcome(state)) is None:
        seat = min(game.pending(state).waiting)
        game.apply(state, seat, players[seat].choose(state, seat, rng))
    totals = {s.seat: s.total for s in outcome.standings}
    assert row["seed"] == 5 and row["lead"] == totals[1] - totals[0]
    if totals[1] != totals[0]:  # equal totals go to the tie-breaks
        assert row["share"] == float(totals[1] > totals[0])
