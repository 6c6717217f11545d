"""The refusal codes an engine can raise, read from its source with ``ast``.

A code is the ``code=`` keyword of a ``ParseError``, ``IllegalAction`` or ``NotYourTurn``
call (or the class's own code when the call names none), or the first argument of a
Skybridge ``Refusal`` or a Neotopia ``Why``. A code passed on from another error
(``code=exc.code``) is not a new one: the call that made it is counted where it stands.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
GAMES = ("ginkgopolis", "quadropolis", "neotopia", "skybridge")
CLASS_CODES = {"ParseError": "parse", "IllegalAction": "illegal",
               "NotYourTurn": "not_your_turn"}
CORE = ENGINE / "core" / "textinput.py"  # every game's parser reads through it


@dataclass(frozen=True)
class Raised:
    path: str
    line: int
    kind: str  # ParseError, IllegalAction, NotYourTurn, Refusal
    code: str | None  # None: passed on from another error
    explicit: bool  # the call names its code


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def raised_in(path: Path) -> list[Raised]:
    found: list[Raised] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        kind = _name(node.func)
        where = str(path.relative_to(ENGINE.parent))
        if kind in ("Refusal", "Why") and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append(Raised(where, node.lineno, kind, first.value, True))
            continue
        if kind not in CLASS_CODES:
            continue
        code_kw = next((k for k in node.keywords if k.arg == "code"), None)
        if code_kw is None:
            found.append(Raised(where, node.lineno, kind, CLASS_CODES[kind], False))
        elif isinstance(code_kw.value, ast.Constant) and isinstance(code_kw.value.value, str):
            found.append(Raised(where, node.lineno, kind, code_kw.value.value, True))
        else:
            found.append(Raised(where, node.lineno, kind, None, True))
    return found


def raised_by(game: str) -> list[Raised]:
    """Every error made in ``engine/<game>`` and in the shared text input checks."""
    found = [r for path in sorted((ENGINE / game).rglob("*.py")) for r in raised_in(path)]
    return found + raised_in(CORE)


def codes_of(game: str) -> set[str]:
    return {r.code for r in raised_by(game) if r.code is not None}
