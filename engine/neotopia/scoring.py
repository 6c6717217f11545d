"""Final scoring (L567-624): group points, then best + second + 3 x worst + 3 per token.

Ties go to the higher region before the multiplier, then the second region, then the
best one (L619-622); a tie on all of them is a shared rank.
"""

from __future__ import annotations

from typing import Any

from engine.core.protocol import Outcome, ScoreLine, Standing, seat_name
from engine.neotopia.state import NeotopiaState

TOKEN_POINTS = 3


def region_totals(st: NeotopiaState, seat: int) -> dict[str, int]:
    """The tracks; at the end they include the group points (added by ``finish``)."""
    return dict(st.scores[seat])


def pad(st: NeotopiaState, seat: int) -> dict[str, Any]:
    """One seat's score pad: every line of it, and the tie-break key."""
    groups = st.group_points[seat] if st.group_points is not None else {}
    totals = region_totals(st, seat)
    order = [r.id for r in st.data.regions]
    # Stable choice among equal regions: the data set's order (any choice scores the same).
    ranked = sorted(order, key=lambda r: (-totals[r], order.index(r)))
    best, second, worst = ranked[0], ranked[1], ranked[2]
    tokens = len(st.tokens[seat])
    return {
        "seat": seat,
        "colour": st.colour_of(seat),
        "regions": {r: {"track": totals[r] - groups.get(r, 0), "group": groups.get(r, 0),
                        "total": totals[r]} for r in order},
        "best": {"region": best, "points": totals[best]},
        "second": {"region": second, "points": totals[second]},
        "worst": {"region": worst, "points": totals[worst], "x3": 3 * totals[worst]},
        "tokens": {"count": tokens, "points": TOKEN_POINTS * tokens},
        "total": totals[best] + totals[second] + 3 * totals[worst] + TOKEN_POINTS * tokens,
        "tie_break": [totals[worst], totals[second], totals[best]],
    }


def lines(st: NeotopiaState, seat: int) -> tuple[ScoreLine, ...]:
    p = pad(st, seat)
    regions = p["regions"]
    return (
        ScoreLine("best", p["best"]["points"], {**regions[p["best"]["region"]],
                                                 "region": p["best"]["region"]}),
        ScoreLine("second", p["second"]["points"], {**regions[p["second"]["region"]],
                                                     "region": p["second"]["region"]}),
        ScoreLine("worst_x3", p["worst"]["x3"], {**regions[p["worst"]["region"]],
                                                  "region": p["worst"]["region"]}),
        ScoreLine("tokens", p["tokens"]["points"], {"count": p["tokens"]["count"]}),
    )


def outcome(st: NeotopiaState) -> Outcome:
    pads = [pad(st, s) for s in range(st.seats)]
    keys = [(p["total"], *p["tie_break"]) for p in pads]
    standings = tuple(
        Standing(seat=s, name=seat_name(s), total=pads[s]["total"], lines=lines(st, s),
                 rank=1 + sum(1 for k in keys if k > keys[s]))
        for s in range(st.seats)
    )
    return Outcome(standings)
