"""No import cycle among the modules of bot/ and engine/.

Every import counts: at module level, inside a function, under ``TYPE_CHECKING``. A lazy
or type-only import still means two modules that cannot be read apart, which is what
this guards against (STYLE.md, moves 2, 3 and 7); Python merely tolerates it at run time.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "engine")

# Cycles known and not yet broken (none): a cycle listed here must exist, or the test
# asks for its entry to go.
ALLOWED: frozenset[frozenset[str]] = frozenset()


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def find_modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES
            for p in sorted((ROOT / package).rglob("*.py"))}


def imported(name: str, path: Path, modules: Mapping[str, Path]) -> set[str]:
    """The modules of ``modules`` that ``name`` (at ``path``) imports, however it does."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                # ``from bot.discord import components`` imports a module, not a name.
                submodule = f"{source}.{alias.name}"
                target = submodule if submodule in modules else source
                if target in modules:
                    found.add(target)
    found.discard(name)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = find_modules()
    return {name: imported(name, path, modules) for name, path in modules.items()}


def cycles(graph: Mapping[str, Iterable[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative: the graph's depth is no business of the recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in graph:
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(graph.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_the_analysis_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set[str]()}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]


def test_every_kind_of_import_is_an_edge(tmp_path: Path) -> None:
    source = tmp_path / "pkg" / "a.py"
    source.parent.mkdir()
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "import pkg.b\n"
        "from . import c\n"
        "from .d import thing\n"
        "from pkg import e\n"
        "if TYPE_CHECKING:\n"
        "    from pkg.f import F\n"
        "def later() -> None:\n"
        "    from pkg.g import run\n", encoding="utf-8")
    modules = {f"pkg.{m}": tmp_path / "pkg" / f"{m}.py" for m in "abcdefg"} | {
        "pkg": tmp_path / "pkg" / "__init__.py"}
    assert imported("pkg.a", source, modules) == {f"pkg.{m}" for m in "bcdefg"}


def test_no_import_cycle_among_bot_and_engine() -> None:
    found = set(cycles(import_graph()))
    new = sorted(sorted(c) for c in found - ALLOWED)
    assert not new, f"import cycles (move what both need into the lower module): {new}"
    gone = sorted(sorted(c) for c in ALLOWED - found)
    assert not gone, f"these cycles are gone: drop them from ALLOWED: {gone}"
