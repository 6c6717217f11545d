"""How the allocation search (``search``) splits a city: the guesses of the harbor runs,
which costly buildings interact, the parts they form, and the cut that splits a large
part (see ``search``'s docstring)."""

from __future__ import annotations

from engine.quadropolis.scoring import City, Scorer


def interactions(city: City, scorer: Scorer) -> dict[int, set[int]]:
    """Which costly buildings' points depend on each other (harbor runs set aside)."""
    b = city.buildings
    graph: dict[int, set[int]] = {i: set() for i, x in enumerate(b) if x.needs_activation}

    def clique(members: list[int]) -> None:
        for i in members:
            graph[i].update(j for j in members if j != i)

    clique([i for i in graph if b[i].type == "public_service"])
    stack_kinds = {"tower_block", "office"} if city.mode == "expert" else {"tower_block"}
    for i, x in enumerate(b):
        near = scorer.neighbours[i]
        if x.type == "park":
            clique([j for j in near if b[j].type in stack_kinds])
        elif x.type == "factory":
            for j in (j for j in near if b[j].type in ("shop", "harbor", "office")):
                graph[i].add(j)
                graph[j].add(i)
        elif x.type == "office":
            for j in near:
                if b[j].type == "office":
                    graph[i].add(j)
    return graph


def components(graph: dict[int, set[int]], members: list[int],
               extra: dict[int, set[int]] | None = None) -> list[list[int]]:
    """Connected components of ``members`` in ``graph`` (plus the ``extra`` links)."""
    more = extra or {}
    inside = set(members)
    seen: set[int] = set()
    out = []
    for start in sorted(members):
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            i = todo.pop()
            group.append(i)
            for j in (*graph[i], *more.get(i, ())):
                if j in inside and j not in seen:
                    seen.add(j)
                    todo.append(j)
        out.append(sorted(group))
    return out


def split(graph: dict[int, set[int]], part: list[int], offices: set[int], small: int,
          max_cut: int) -> tuple[list[int], list[list[int]]]:
    """A cut of ``part`` and the pieces left when the cut is off: remove the most
    connected building until no piece is over ``small`` buildings (or the cut holds
    ``max_cut``). Offices go last: an office of the cut that is on still joins the office groups
    around it (see ``Search.pieces``), so cutting one splits less."""
    cut: list[int] = []
    rest = list(part)
    pieces = [rest]
    while max(len(p) for p in pieces) > small and len(cut) < max_cut:
        big = max(pieces, key=len)
        inside = set(big)
        pick = max(big, key=lambda i: (i not in offices, len(graph[i] & inside), -i))
        cut.append(pick)
        rest = [i for i in rest if i != pick]
        pieces = components(graph, rest)
    return sorted(cut), pieces


def segments(cells: dict[int, int]) -> list[tuple[int, ...]]:
    """Runs of two or more consecutive positions: ``cells`` maps position -> building."""
    out: list[tuple[int, ...]] = []
    positions = sorted(cells)
    run: list[int] = []
    for p in [*positions, -99]:
        if run and p == run[-1] + 1:
            run.append(p)
            continue
        for a in range(len(run)):
            for z in range(a + 2, len(run) + 1):
                out.append(tuple(cells[q] for q in run[a:z]))
        run = [p]
    return out


def run_guesses(city: City) -> list[tuple[int, int]]:
    """(buildings forced active, run points) for every guess of the longest row run and
    the longest column run of harbors (see the module docstring)."""
    b = city.buildings
    table = city.tables.harbor
    top = len(table) - 1
    rows: dict[int, dict[int, int]] = {}
    cols: dict[int, dict[int, int]] = {}
    for i, x in enumerate(b):
        if x.type == "harbor":
            rows.setdefault(x.row, {})[x.col] = i
            cols.setdefault(x.col, {})[x.row] = i
    row_segments = [seg for line in rows.values() for seg in segments(line)]
    col_segments = [seg for line in cols.values() for seg in segments(line)]
    guesses = []
    for rs in [(), *row_segments]:
        for cs in [(), *col_segments]:
            forced = 0
            for i in (*rs, *cs):
                forced |= 1 << i
            guesses.append((forced, table[min(len(rs), top)] + table[min(len(cs), top)]))
    return guesses
