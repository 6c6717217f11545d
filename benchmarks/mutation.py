"""Mutation score: how many one-token mistakes in central code make a test fail.

Run (from the repository root, in the project's venv; slow, never part of CI)::

    python benchmarks/mutation.py                       # every target, every mutant
    python benchmarks/mutation.py --sample 40           # at most 40 mutants per file
    python benchmarks/mutation.py --only bot/store/sqlite.py --list

Each mutant is made in a private copy of the working tree (never in the tree itself):
one operator or constant of a function body is changed, the file is written back with
``ast.unparse``, and the tests that cover that file run with ``-x``. A mutant is
*killed* when they fail (or time out), *survives* when they pass. Only the tests that
ran a line of the mutated function (``mutation_map``: each group runs once, unmutated,
under coverage.py with one context per test) run for a mutant, so that every mutant of
every target fits in a few hours of one core; ``--whole`` runs the whole group instead.
The last lines are ``mutation.killed K/T (P%)`` and one ``SURVIVED file:line  before ->
after  (why)`` per survivor.

Operators: comparisons (``<``/``<=``, ``>``/``>=``, ``==``/``!=``, ``in``/``not in``,
``is``/``is not``), ``+``/``-``, ``and``/``or``, ``not x`` -> ``x``, small integer
constants ``n`` -> ``n + 1``, and ``True``/``False`` swapped. Annotations, docstrings and
module-level constants are left alone. ``--sample`` picks mutants with a fixed seed, so
two runs with the same arguments try the same ones.
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import mutation_map

ROOT = Path(__file__).resolve().parent.parent

ENGINE_CORE_TESTS = ["tests/engine/core", "tests/engine/test_conformance.py",
                     "tests/engine/skybridge/test_skybridge_conformance.py",
                     "tests/engine/ginkgopolis/test_actions.py"]
# The bot tests less those that start processes or play whole games (minutes per run).
BOT_TESTS = ["tests/bot", *(f"--ignore=tests/bot/{name}" for name in (
    "discord", "test_crash.py", "test_kill.py", "test_single_process.py", "test_console.py",
    "test_console_games.py", "test_real_games.py", "test_cli_choices.py"))]

# Code that runs only against a PostgreSQL server, which this machine does not have.
EXCLUDED = {"bot/store/postgres.py", "bot/store/pg_schema.py"}

# Of the rules, only the cost code: the rest is covered by the games' own test suites.
FUNCTIONS: dict[str, set[str]] = {
    "engine/ginkgopolis/rules.py": {"construct_price", "construct_cost", "affordable",
                                    "construct", "add_floor", "return_resources",
                                    "rebuild_deck"},
}

# file (or folder of files) -> the tests that cover it, fastest and most specific first.
TARGETS: dict[str, list[str]] = {
    "engine/core/rng.py": ENGINE_CORE_TESTS,
    "engine/core/errors.py": ENGINE_CORE_TESTS,
    "engine/core/play.py": ENGINE_CORE_TESTS,
    "engine/core/registry.py": ENGINE_CORE_TESTS,
    "engine/core/textinput.py": [*ENGINE_CORE_TESTS, "tests/engine/test_parser_fuzz.py"],
    "engine/core/search.py": [*ENGINE_CORE_TESTS, "tests/engine/test_search_hooks.py",
                              "tests/engine/ginkgopolis/test_ai.py"],
    "engine/ginkgopolis/scoring.py": ["tests/engine/ginkgopolis"],
    "engine/ginkgopolis/rules.py": ["tests/engine/ginkgopolis"],
    "engine/skybridge/scoring.py": ["tests/engine/skybridge"],
    "engine/quadropolis/scoring.py": ["tests/engine/quadropolis"],
    "engine/neotopia/scoring.py": ["tests/engine/neotopia"],
    "engine/neotopia/rules.py": ["tests/engine/neotopia"],
    "engine/neotopia/patterns.py": ["tests/engine/neotopia"],
    "engine/quadropolis/search.py": ["tests/engine/quadropolis"],
    "engine/quadropolis/allocation.py": ["tests/engine/quadropolis"],
    "bot/history/export.py": ["tests/bot/history"],
    "bot/discord/menus.py": ["tests/bot/discord/test_discord_parts.py",
                             "tests/bot/discord/test_menu_chunks.py"],
    "bot/service": BOT_TESTS,
    "bot/store": BOT_TESTS,
}

SWAP_CMP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
CMP_TEXT = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
            ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is",
            ast.IsNot: "is not"}


@dataclass(frozen=True)
class Mutant:
    path: str
    index: int  # the n-th mutable site of the file, in ast.walk order
    line: int
    before: str
    after: str


def _annotation_ids(tree: ast.AST) -> set[int]:
    """Nodes inside annotations: mutating a type is no mistake a test could see."""
    ids: set[int] = set()
    for node in ast.walk(tree):
        annotations: list[ast.AST | None] = []
        if isinstance(node, ast.AnnAssign | ast.arg):
            annotations.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            annotations.append(node.returns)
        for a in annotations:
            if a is not None:
                ids.update(id(n) for n in ast.walk(a))
    return ids


def _function_nodes(tree: ast.Module, only: set[str] | None) -> Iterator[ast.AST]:
    """Nodes inside function bodies (where behaviour lives), docstrings excluded."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and (
                only is None or node.name in only):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                body = body[1:]
            for stmt in body:
                yield from ast.walk(stmt)


def _sites(tree: ast.Module, only: set[str] | None = None
           ) -> Iterator[tuple[ast.AST, str, str, int]]:
    """(node, before, after, variant) for each mutation of the tree."""
    skip = _annotation_ids(tree)
    seen: set[int] = set()
    for node in _function_nodes(tree, only):
        if id(node) in skip or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in SWAP_CMP:
                    yield node, CMP_TEXT[type(op)], CMP_TEXT[SWAP_CMP[type(op)]], i
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            before, after = ("+", "-") if isinstance(node.op, ast.Add) else ("-", "+")
            if not (isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)):
                yield node, before, after, 0
        elif isinstance(node, ast.BoolOp):
            before, after = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
            yield node, before, after, 0
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "not x", "x", 0
        elif isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool):
                yield node, repr(value), repr(not value), 0
            elif isinstance(value, int) and 0 <= value <= 100:
                yield node, repr(value), repr(value + 1), 0


def _apply(node: ast.AST, variant: int) -> None:
    if isinstance(node, ast.Compare):
        node.ops[variant] = SWAP_CMP[type(node.ops[variant])]()
    elif isinstance(node, ast.BinOp):
        node.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
    elif isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            node.value = not value
        elif isinstance(value, int):
            node.value = value + 1


def _negation_removed(tree: ast.Module, index: int, only: set[str] | None) -> ast.Module:
    """``not x`` -> ``x``: replace the UnaryOp in its parent."""
    target = [n for n, _, _, _ in _sites(tree, only)][index]
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is target:
                assert isinstance(target, ast.UnaryOp)
                setattr(parent, field, target.operand)
                return tree
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is target:
                        assert isinstance(target, ast.UnaryOp)
                        value[i] = target.operand
                        return tree
    raise AssertionError("parent not found")


def mutants(path: str, root: Path = ROOT) -> list[Mutant]:
    tree = ast.parse((root / path).read_text())
    return [Mutant(path, i, getattr(node, "lineno", 0), before, after)
            for i, (node, before, after, _) in enumerate(_sites(tree, FUNCTIONS.get(path)))]


def mutated_source(m: Mutant, root: Path = ROOT) -> str:
    tree = ast.parse((root / m.path).read_text())
    only = FUNCTIONS.get(m.path)
    if m.before == "not x":
        tree = _negation_removed(tree, m.index, only)
    else:
        node, _, _, variant = list(_sites(tree, only))[m.index]
        _apply(node, variant)
    return ast.unparse(ast.fix_missing_locations(copy.deepcopy(tree)))


def files(only: list[str], root: Path = ROOT) -> dict[str, list[str]]:
    """Each target file with its tests."""
    chosen: dict[str, list[str]] = {}
    for target, tests in TARGETS.items():
        paths = ([target] if target.endswith(".py") else
                 sorted(str(p.relative_to(root)) for p in (root / target).glob("*.py")))
        for p in paths:
            if p in EXCLUDED:
                continue
            if not only or any(p.startswith(o) for o in only):
                chosen[p] = tests
    return chosen


# Run pytest in the copy with the editable install's import hook removed, so that
# ``engine`` and ``bot`` are imported from the copy, not from the working tree.
RUNNER = """
import sys
sys.meta_path[:] = [f for f in sys.meta_path
                    if not getattr(f, "__module__", "").startswith("__editable__")
                    and not getattr(f, "__name__", "").startswith("__editable__")]
sys.path.insert(0, {root!r})
import pytest
import engine, bot
assert engine.__file__.startswith({root!r}), engine.__file__
sys.exit(pytest.main(sys.argv[1:]))
"""


LAST_OUTPUT = [""]


def run_tests(workdir: Path, tests: list[str], timeout: float) -> tuple[bool, float]:
    """(passed, seconds) of the tests in ``workdir``; a timeout counts as a failure."""
    env = {**os.environ, "CI": "true", "PYTHONDONTWRITEBYTECODE": "1"}
    cmd = [sys.executable, "-c", RUNNER.format(root=str(workdir)), "-x", "-q",
           "-p", "no:cacheprovider", "-o", "addopts=", "--timeout", str(int(timeout)), *tests]
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True,
                              timeout=timeout * 2)
    except subprocess.TimeoutExpired:
        LAST_OUTPUT[0] = "timed out"
        return False, time.perf_counter() - start
    LAST_OUTPUT[0] = done.stdout.decode(errors="replace")
    return done.returncode == 0, time.perf_counter() - start


PARTS = ("engine", "bot", "tests", "templates", "pyproject.toml")


def copy_tree(into: Path, worktree: bool) -> None:
    """The committed tree (HEAD) by default: others' edits in progress cannot break a run."""
    if not worktree:
        archive = subprocess.run(["git", "archive", "HEAD", *PARTS], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
        return
    for name in PARTS:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, into / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, into / name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=[], help="target path prefixes")
    parser.add_argument("--sample", type=int, default=0,
                        help="at most this many mutants per file (fixed seed); 0: all")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per test run")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--whole", action="store_true",
                        help="run a mutant's whole test group, not only the tests that run "
                             "its function (slow; the map's check)")
    parser.add_argument("--worktree", action="store_true",
                        help="mutate the working tree's files, not the last commit's")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="urbanist-mutation-") as tmp:
        work = Path(tmp)
        copy_tree(work, args.worktree)
        plan: list[tuple[Mutant, list[str]]] = []
        for path, tests in files(args.only, work).items():
            found = mutants(path, work)
            if args.sample and len(found) > args.sample:
                found = sorted(random.Random(f"{args.seed}:{path}").sample(found, args.sample),
                               key=lambda m: m.index)
            plan.extend((m, tests) for m in found)
        if args.list:
            for m, _ in plan:
                print(f"{m.path}:{m.line}  {m.before} -> {m.after}")
            print(f"mutation.planned {len(plan)}")
            return
        run(work, plan, args.timeout, args.whole)


def run(work: Path, plan: list[tuple[Mutant, list[str]]], timeout: float,
        whole: bool = False) -> None:
    # Each group of tests runs once unmutated, under coverage, which maps every line to
    # the tests that ran it (mutation_map). A group failing unmutated proves nothing: it
    # is reported and its mutants left out of the score.
    failing: set[tuple[str, ...]] = set()
    maps: dict[tuple[str, ...], mutation_map.TestMap] = {}
    for key in sorted({tuple(ts) for _, ts in plan}):
        paths = sorted({m.path for m, ts in plan if tuple(ts) == key})
        start = time.perf_counter()
        ok, found, output = mutation_map.build(work, list(key), paths, timeout)
        if not ok:
            failing.add(key)
            print(output[-3000:], flush=True)
            print(f"mutation.group_fails_unmutated {' '.join(key)}", flush=True)
        else:
            maps[key] = found
            print(f"mutation.baseline_seconds {time.perf_counter() - start:.1f} s (with "
                  f"coverage)  {' '.join(key)}", flush=True)
    plan = [(m, ts) for m, ts in plan if tuple(ts) not in failing]
    killed = 0
    survivors: list[tuple[Mutant, str]] = []
    orders = {g: mutation_map.run_order(found) for g, found in maps.items()}
    for n, (m, tests) in enumerate(plan, 1):
        original = (work / m.path).read_text()
        group = tuple(tests)
        chosen = tests if whole else mutation_map.tests_for(
            original, m.line, maps[group].get(m.path, {}), orders[group])
        if not chosen:
            survivors.append((m, "no test runs this function"))
            print(f"[{n}/{len(plan)}] SURVIVED {m.path}:{m.line}  {m.before} -> {m.after}"
                  f"  (not covered)", flush=True)
            continue
        (work / m.path).write_text(mutated_source(m, work))
        try:
            passed, seconds = run_tests(work, chosen, timeout)
        finally:
            (work / m.path).write_text(original)
        verdict = "SURVIVED" if passed else "killed"
        if passed:
            survivors.append((m, f"{len(chosen)} tests pass"))
        else:
            killed += 1
        print(f"[{n}/{len(plan)}] {verdict} {m.path}:{m.line}  {m.before} -> {m.after}"
              f"  ({len(chosen)} tests, {seconds:.0f} s)", flush=True)
    total = len(plan)
    print(f"mutation.killed {killed}/{total} ({100 * killed / max(total, 1):.1f}%)")
    for m, why in survivors:
        print(f"SURVIVED {m.path}:{m.line}  {m.before} -> {m.after}  ({why})")


if __name__ == "__main__":
    main()
