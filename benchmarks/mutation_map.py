"""Which tests run which function: the map that lets a mutant run only the tests that
can see it.

A test group runs once, unmutated, under coverage.py with one *context* per test (its
pytest node id). A mutant changes one function body, so only the tests that executed a
line of that function can fail because of it: running just those (in the group's order)
gives the same verdict as the whole group, in seconds instead of minutes. A mutant in a
function no test runs is reported as *not covered* (it survives, and says why).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

# Run pytest under coverage in the copy (the editable install's hook removed, like
# mutation.RUNNER), switching coverage's context to each test's node id.
MAP_RUNNER = """
import sys
sys.meta_path[:] = [f for f in sys.meta_path
                    if not getattr(f, "__module__", "").startswith("__editable__")
                    and not getattr(f, "__name__", "").startswith("__editable__")]
sys.path.insert(0, {root!r})
import coverage, pytest
cov = coverage.Coverage(data_file={data!r}, include=[{root!r} + "/engine/*",
                                                     {root!r} + "/bot/*"])
cov.start()
import engine, bot
assert engine.__file__.startswith({root!r}), engine.__file__

class Contexts:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        cov.switch_context(item.nodeid)
        yield
        cov.switch_context("")

code = pytest.main(sys.argv[1:], plugins=[Contexts()])
cov.stop()
cov.save()
sys.exit(code)
"""

TestMap = dict[str, dict[int, list[str]]]  # path -> line -> node ids that ran it


def build(workdir: Path, tests: list[str], paths: Iterable[str], timeout: float
          ) -> tuple[bool, TestMap, str]:
    """Run ``tests`` once under coverage: (passed, map of ``paths``, pytest's output)."""
    import coverage  # only this benchmark needs it (the project's test extra has it)

    data = workdir / f".coverage-map-{abs(hash(tuple(tests)))}"
    env = {**os.environ, "CI": "true", "PYTHONDONTWRITEBYTECODE": "1"}
    cmd = [sys.executable, "-c", MAP_RUNNER.format(root=str(workdir), data=str(data)), "-q",
           "-p", "no:cacheprovider", "-o", "addopts=", "--timeout", str(int(timeout)), *tests]
    # ``timeout`` bounds one test; the whole group gets far longer (a short per-test bound
    # for quick hang detection must not cut the unmutated group's run).
    done = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True,
                          timeout=max(timeout * 4, 3600))
    output = done.stdout.decode(errors="replace")
    found: TestMap = {}
    if data.exists():
        cov = coverage.CoverageData(basename=str(data))
        cov.read()
        for path in paths:
            by_line = cov.contexts_by_lineno(str(workdir / path))
            found[path] = {line: sorted(c for c in ctxs if c) for line, ctxs in by_line.items()}
        data.unlink()
    return done.returncode == 0, found, output


def function_span(source: str, line: int) -> tuple[int, int] | None:
    """The lines of the innermost function that holds ``line`` (None: outside any)."""
    best: tuple[int, int] | None = None
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            end = node.end_lineno or node.lineno
            if node.lineno <= line <= end and (best is None or node.lineno >= best[0]):
                best = (node.lineno, end)
    return best


def tests_for(source: str, line: int, by_line: dict[int, list[str]],
              order: dict[str, int]) -> list[str]:
    """The node ids that ran any line of the function holding ``line``, in run order."""
    span = function_span(source, line)
    if span is None:
        return []
    ids = {t for n in range(span[0], span[1] + 1) for t in by_line.get(n, ())}
    return sorted(ids, key=lambda t: order.get(t, len(order)))


def run_order(test_map: TestMap) -> dict[str, int]:
    """A stable order for node ids: by file, then name (the order pytest collects in)."""
    ids = sorted({t for lines in test_map.values() for ts in lines.values() for t in ts})
    return {t: i for i, t in enumerate(ids)}
