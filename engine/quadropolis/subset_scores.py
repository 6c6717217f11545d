"""The buildings' points of every subset of a few buildings at once (issue 25).

The allocation search scores every subset of a small part, or of a piece of a part under
a fixed cut, that the resources allow: hundreds of ``Scorer.score`` calls per part, the
most of a view's cost when a city changes. ``subset_scores`` gives the same numbers
(``Scorer.score`` of the base plus each subset) term by term over all subsets at once:
a term no building of the subset is in is a constant; a linear one (towers, harbors
without runs, public services' own points, monuments, a factory that is on already)
adds one weight per building; the others (a park's neighbours, a factory of the subset,
the districts held, the office groups) are one list each, the office groups looked up
by the offices of the subset alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add, mul

from engine.quadropolis.scoring import Scorer


def doubled(start: int, steps: Sequence[int], join: str = "+") -> list[int]:
    """``start`` combined with the steps of every subset (index bit j = ``steps[j]``),
    added (``+``) or or-ed (``|``)."""
    out = [start]
    for step in steps:
        if join == "+":
            out += [x + step for x in out]
        else:
            out += [x | step for x in out]
    return out


def subset_scores(scorer: Scorer, items: Sequence[int], base: int) -> list[int]:
    """``[scorer.score(base | the buildings of m) for m in range(2 ** len(items))]``, bit j
    of m standing for building ``items[j]`` (the buildings of ``items`` in ``base`` are
    left out of it)."""
    k = len(items)
    inside = sum(1 << i for i in items)
    base &= ~inside
    expand = doubled(base, [1 << i for i in items], "|")
    if scorer.harbors and scorer.runs:  # runs span the city: no shortcut (not searched)
        return [scorer.score(m) for m in expand]
    position = {i: j for j, i in enumerate(items)}
    t = scorer.t

    def local(mask: int) -> int:
        return sum(1 << j for j, i in enumerate(items) if mask >> i & 1)

    def count(mask: int) -> int:
        return (base & mask).bit_count()

    const = 0
    weights = [0] * k
    terms: list[list[int]] = []
    for i, v in scorer.towers:
        if i in position:
            weights[position[i]] += v
        elif base >> i & 1:
            const += v
    if scorer.services:
        held = 0
        districts = [0] * k
        for i, vp, d in scorer.services:
            if i in position:
                weights[position[i]] += vp
                districts[position[i]] = d
            elif base >> i & 1:
                const += vp
                held |= d
        table = t.public_service
        top = len(table) - 1
        if any(districts):
            terms.append([table[min(x.bit_count(), top)] for x in doubled(held, districts, "|")])
        else:
            const += table[min(held.bit_count(), top)]
    park = t.park
    top = len(park) - 1
    capped = [park[min(c, top)] for c in range(len(scorer.neighbours) + 1)]
    for _, nb in scorer.parks:
        lit = count(nb)
        if inside & nb:
            near = doubled(lit, [nb >> i & 1 for i in items])
            terms.append(list(map(capped.__getitem__, near)))
        else:
            const += capped[lit]
    fs, fh, fo = scorer.factory_value
    for i, shops, harbors, offices in scorer.factories:
        lit = fs * count(shops) + fh * count(harbors) + fo * count(offices)
        gains = [fs * (shops >> x & 1) + fh * (harbors >> x & 1) + fo * (offices >> x & 1)
                 for x in items]
        if i in position:
            itself = [int(x == i) for x in items]
            terms.append(list(map(mul, doubled(lit, gains), doubled(0, itself))))
        elif base >> i & 1:
            const += lit
            weights = list(map(add, weights, gains))
    for i, vp, _, _ in scorer.harbors:
        if i in position:
            weights[position[i]] += vp
        elif base >> i & 1:
            const += vp
    if scorer.offices:
        mine = local(sum(1 << i for i, _ in scorer.offices))
        if mine:
            # The groups depend on the subset's offices alone: each of their subsets once.
            steps = [1 << j if mine >> j & 1 else 0 for j in range(k)]
            known = {key: scorer.office_points(expand[key])
                     for key in doubled(0, [x for x in steps if x])}
            terms.append(list(map(known.__getitem__, doubled(0, steps))))
        else:
            const += scorer.office_points(base)
    ms, mp, mf = scorer.monument_values
    for _, shops, services, industry, parks in scorer.monuments:
        const += parks + ms * count(shops) + mp * count(services) + mf * count(industry)
        weights = [w + ms * (shops >> x & 1) + mp * (services >> x & 1)
                   + mf * (industry >> x & 1) for w, x in zip(weights, items, strict=True)]
    total = doubled(const, weights)
    for term in terms:
        total = list(map(add, total, term))
    return total
