"""The Neotopia data set: which file a table uses, loaded, validated and cached.

The board, the 56 project cards and the 12 production tiles are data (RULINGS N1): the
engine ships the documented house set (``data/house.json``, from
``shared/data/neotopia.json``) and a table option may name another file with the same
schema. ``validate`` (``datacheck.py``) checks every invariant of section C of
``neotopia-house-set.md``; the values themselves are in ``components.py``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from engine.neotopia.components import (
    BONUS_KINDS,
    CELL_KINDS,
    BonusType,
    Card,
    Cell,
    Colour,
    Coord,
    DataSet,
    Manufacture,
    ProjectType,
    Region,
    Tile,
    adjacent,
    largest_group,
    rotations,
)
from engine.neotopia.datacheck import INVARIANTS, WARNING_INVARIANTS, DataError, validate

__all__ = [
    "BONUS_KINDS", "CELL_KINDS", "DATA_DIR", "DEFAULT", "INVARIANTS", "WARNING_INVARIANTS",
    "BonusType", "Card", "Cell", "Colour", "Coord", "DataError", "DataSet", "Manufacture",
    "ProjectType", "Region", "Tile", "adjacent", "dataset", "derived_from", "largest_group",
    "load", "resolve", "rotations", "validate",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT = "house"


def resolve(name: str) -> Path:
    """The file a ``dataset`` option names: a file under ``data/`` or a path to JSON."""
    if not isinstance(name, str) or not name or len(name) > 300:
        raise DataError(10, "the data set must be named by a short string")
    candidate = DATA_DIR / f"{name}.json"
    if "/" not in name and "\\" not in name and candidate.is_file():
        return candidate
    path = Path(name)
    if path.suffix == ".json" and path.is_file():
        return path
    known = ", ".join(sorted(p.stem for p in DATA_DIR.glob("*.json")))
    raise FileNotFoundError(f"no data set {name!r}: name one of {known} or a .json file")


_LATEST: dict[str, DataSet] = {}
_CHECKED: dict[tuple[str, str], DataSet] = {}


def load(name: str = DEFAULT) -> DataSet:
    """Load and validate a data set by name or path; cached while the file's content is
    the same (a table created after the file is edited gets the edited set)."""
    path = resolve(name)
    try:
        content = path.read_bytes()
    except OSError as exc:
        raise DataError(1, f"the file cannot be read ({type(exc).__name__})") from exc
    key = (name, hashlib.sha256(content).hexdigest())
    data = _CHECKED.get(key)
    if data is None:
        try:
            raw = json.loads(content.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise DataError(1, f"the file cannot be read as JSON ({type(exc).__name__})") \
                from exc
        data = _CHECKED[key] = validate(raw, name=name)
    _LATEST[name] = data
    return data


def dataset(name: str) -> DataSet:
    """The data set a running table uses: as last loaded (games read it constantly)."""
    data = _LATEST.get(name)
    return data if data is not None else load(name)


Derived = TypeVar("Derived")


def derived_from(make: Callable[[DataSet], Derived]) -> Callable[[DataSet], Derived]:
    """``make(data)`` once per data set, kept by the data set's identity (the data set is
    kept alive beside it, so its id is never another's): a data set edited on disk and
    loaded again under the same name is a new object, with its own."""
    made: dict[int, tuple[DataSet, Derived]] = {}

    def get(data: DataSet) -> Derived:
        found = made.get(id(data))
        if found is None or found[0] is not data:
            found = made[id(data)] = (data, make(data))
        return found[1]

    return get
