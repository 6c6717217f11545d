"""The data set loader: the house set passes every invariant of section C of
neotopia-house-set.md, and a file broken in each invariant is refused, naming it."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.core.errors import BadOptions
from engine.neotopia import GAME
from engine.neotopia.data import DATA_DIR, DataError, load, validate

RAW: dict[str, Any] = json.loads((DATA_DIR / "house.json").read_text(encoding="utf-8"))
SHARED = Path(__file__).resolve().parents[4] / "shared" / "data" / "neotopia.json"


def broken(change: Callable[[dict[str, Any]], None], kind: str = "house") -> dict[str, Any]:
    raw = copy.deepcopy(RAW)
    raw["data_set"]["kind"] = kind
    change(raw)
    return raw


def cell(raw: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in raw["board"]["cells"] if c["id"] == cid)


def card(raw: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in raw["project_cards"]["cards"] if c["id"] == cid)


def _i1(raw: dict[str, Any]) -> None:
    raw["colours"][0]["count"] = 24


def _i2(raw: dict[str, Any]) -> None:
    cell(raw, "D01")["q"], cell(raw, "D01")["r"] = cell(raw, "D00")["q"], cell(raw, "D00")["r"]


def _i3(raw: dict[str, Any]) -> None:
    cell(raw, "D11")["kind"] = "normal"


def _i4(raw: dict[str, Any]) -> None:
    raw["board"]["neighbours"]["D00"].remove("D01")


def _i4_cross(raw: dict[str, Any]) -> None:
    raw["board"]["neighbours"]["D00"].append("A00")
    raw["board"]["neighbours"]["A00"].append("D00")


def _i5(raw: dict[str, Any]) -> None:
    raw["board"]["manufactures"][0]["start_elements"] = ["R", "R", "P", "B"]


def _i5_pair(raw: dict[str, Any]) -> None:
    raw["board"]["manufactures"][1]["touches_regions"] = list(
        raw["board"]["manufactures"][0]["touches_regions"])


def _i6(raw: dict[str, Any]) -> None:
    raw["score_track"]["bonus_thresholds"] = [7, 13, 21]


def _i7(raw: dict[str, Any]) -> None:
    raw["production_tiles"]["tiles"][0]["flag"] = True


def _i7_symbols(raw: dict[str, Any]) -> None:
    for tile in raw["production_tiles"]["tiles"]:
        if tile["id"] == "P11":
            tile["fewer_players_symbol"] = False


def _i8(raw: dict[str, Any]) -> None:
    card(raw, "C21")["pattern"] = [[0, 0, "R"], [0, 1, "R"], [0, 3, "G"]]


def _i8_building(raw: dict[str, Any]) -> None:
    card(raw, "C01")["points"] = {"own_colour": 3, "other_colour": 4}


def _i9(raw: dict[str, Any]) -> None:
    card(raw, "C21")["pattern"] = [[0, i, "R"] for i in range(7)] + [[0, 7, "G"]]


def _i10(raw: dict[str, Any]) -> None:
    cell(raw, "F12")["provenance"] = "guessed"


def _i11(raw: dict[str, Any]) -> None:
    e3 = next(s for s in raw["scenarios"] if s["id"] == "E3")
    del e3["before"]["board"]["aquatic"]["A00"]


def _i11_result(raw: dict[str, Any]) -> None:
    e4 = next(s for s in raw["scenarios"] if s["id"] == "E4")
    e4["before"]["scores"]["B"]["desert"] = 19


def _i12(raw: dict[str, Any]) -> None:
    card(raw, "C21")["points"] = 6


def _i13(raw: dict[str, Any]) -> None:
    card(raw, "C21")["pattern"] = [[0, 0, "R"], [0, 1, "R"], [0, 2, "R"]]


def _i14(raw: dict[str, Any]) -> None:
    # C22 becomes C21 turned: same type, same coloured shape.
    card(raw, "C22")["pattern"] = [[0, 0, "R"], [1, -1, "R"], [2, -2, "G"]]


def _i15(raw: dict[str, Any]) -> None:
    raw["production_tiles"]["tiles"][0]["back"] = ["R", "R", "R", "B"]


CASES: list[tuple[int, Callable[[dict[str, Any]], None]]] = [
    (1, _i1), (2, _i2), (3, _i3), (4, _i4), (4, _i4_cross), (5, _i5), (5, _i5_pair),
    (6, _i6), (7, _i7), (7, _i7_symbols), (8, _i8), (8, _i8_building), (9, _i9),
    (10, _i10), (11, _i11), (11, _i11_result), (12, _i12), (13, _i13), (14, _i14),
    (15, _i15),
]


def test_the_house_set_passes_every_invariant_without_warning() -> None:
    data = load("house")
    assert data.kind == "house" and data.warnings == ()
    assert len(data.cards) == 56 and len(data.tiles) == 12 and len(data.cells) == 129
    assert sum(1 for c in data.cells.values() if c.kind != "outer") == 111


def test_the_shipped_file_is_the_shared_house_set() -> None:
    if not SHARED.is_file():
        pytest.skip("shared/ is not beside the repository")
    assert json.loads(SHARED.read_text(encoding="utf-8")) == RAW


@pytest.mark.parametrize(("invariant", "change"), CASES,
                         ids=[f"{n}-{f.__name__}" for n, f in CASES])
def test_a_broken_file_is_refused_naming_the_invariant(
        invariant: int, change: Callable[[dict[str, Any]], None]) -> None:
    with pytest.raises(DataError) as info:
        validate(broken(change))
    assert info.value.invariant == invariant
    assert str(info.value).startswith(f"invariant {invariant} (")


@pytest.mark.parametrize(("invariant", "change"), [(12, _i12), (13, _i13), (15, _i15)])
def test_design_targets_are_only_warnings_for_a_printed_set(
        invariant: int, change: Callable[[dict[str, Any]], None]) -> None:
    data = validate(broken(change, kind="printed"))
    assert any(w.startswith(f"invariant {invariant} (") for w in data.warnings)


def test_supply_shortfall_is_invariant_16() -> None:
    def change(raw: dict[str, Any]) -> None:
        for tile in raw["production_tiles"]["tiles"][:6]:
            tile["back"] = ["R", "R", "R", "R"]

    data = validate(broken(change, kind="printed"))
    assert any(w.startswith("invariant 16 (") for w in data.warnings)
    with pytest.raises(DataError) as info:
        validate(broken(change))
    assert info.value.invariant in (15, 16)  # the house set checks balance first


def test_a_small_board_is_invariant_17() -> None:
    def shrink(raw: dict[str, Any]) -> None:
        # The rim of each region becomes its outer cells: 21 placeable cells a region.
        board = raw["board"]
        drop = {c["id"] for c in board["cells"] if c["kind"] == "outer"}
        board["cells"] = [c for c in board["cells"] if c["id"] not in drop]
        for c in board["cells"]:
            if c["kind"] == "normal" and c["ring"] == 3:
                c["kind"] = "outer"
        board["neighbours"] = {k: [n for n in v if n not in drop]
                               for k, v in board["neighbours"].items() if k not in drop}
        for region in board["regions"]:
            region["outer_cells"] = [c["id"] for c in board["cells"]
                                     if c["region"] == region["id"] and c["kind"] == "outer"]

    data = validate(broken(shrink, kind="printed"))
    assert any(w.startswith("invariant 17 (") for w in data.warnings)


def test_a_file_off_the_schema_is_refused() -> None:
    raw = copy.deepcopy(RAW)
    del raw["board"]["cells"]
    with pytest.raises(DataError) as info:
        validate(raw)
    assert info.value.invariant == 1 and "schema" in str(info.value)


def test_the_dataset_option_names_another_file(tmp_path: Path) -> None:
    good = tmp_path / "copy.json"
    good.write_text(json.dumps(RAW), encoding="utf-8")
    state = GAME.setup(3, {"dataset": str(good)}, 5)
    assert state.data.id == "neotopia-house-1" and state.data.name == str(good)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken(_i7)), encoding="utf-8")
    with pytest.raises(BadOptions) as info:
        GAME.setup(3, {"dataset": str(bad)}, 5)
    assert "invariant 7" in info.value.message
    with pytest.raises(BadOptions):
        GAME.setup(3, {"dataset": "no-such-set"}, 5)
    with pytest.raises(BadOptions):
        GAME.setup(3, {"mirror": "yes"}, 5)
    with pytest.raises(BadOptions):
        GAME.setup(3, {"colour": 1}, 5)
    with pytest.raises(BadOptions):
        GAME.setup(5, {}, 5)


def test_every_value_keeps_its_origin() -> None:
    legend = set(RAW["provenance_legend"])
    assert legend >= {"rulebook", "review", "house"}
    for group in (RAW["board"]["cells"], RAW["project_cards"]["cards"], RAW["project_types"],
                  RAW["production_tiles"]["tiles"]):
        for item in group:
            assert item["provenance"]
