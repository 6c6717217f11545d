"""Automated seats: random, and a greedy one that completes projects where they pay most.

The greedy player reads only its own hand and the public board. It values points by
what they add to the final formula (best + second + 3 x worst), with a lean towards its
lower regions; it takes the tokens that covering a bonus cell or a threshold gives and
keeps tokens (3 points each at the end) unless spending one completes a project. With
nothing to complete, it brings hand patterns that are two elements short one element
closer, else opens up its weakest region, else grows its own colour's groups.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.protocol import Action
from engine.core.rng import Rng
from engine.neotopia import patterns
from engine.neotopia.actions import Back, Build, Draw, EndTurn, Place, Take, UseBonus
from engine.neotopia.legal import legal_actions, normal_cells, permit_cells
from engine.neotopia.state import NeotopiaState


class RandomAI:
    name = "random"

    def choose(self, state: NeotopiaState, seat: int, rng: Rng) -> Action:
        options = legal_actions(state, seat)
        # Going back is for people who change their mind; a random seat moves on.
        forward = [a for a in options if not isinstance(a, Back)] or options
        return forward[rng.randbelow(len(forward))]


QUARTERS = 4


def formula(scores: dict[str, int]) -> int:
    ranked = sorted(scores.values(), reverse=True)
    return ranked[0] + ranked[1] + 3 * ranked[2]


class GreedyAI:
    name = "greedy"

    def choose(self, state: NeotopiaState, seat: int, rng: Rng) -> Action:
        options = legal_actions(state, seat)
        stage = state.stage
        if stage == "build":
            builds = [a for a in options if isinstance(a, Build) and a.card]
            return max(builds, key=lambda a: (self._build_value(state, seat, a.card), a.text()),
                       default=Build(None))
        if stage in ("start", "place"):
            return self._best_cell(state, seat, options, rng)
        if stage == "subsidy":
            return self._best_draw(state, seat, options)
        gains = self._take_values(state, seat, options)
        best = max(gains, key=lambda kv: kv[1], default=None)
        if best is not None and best[1] > 0:
            return best[0]
        if stage == "turn":
            use = self._useful_bonus(state, seat, options)
            if use is not None:
                return use
            if state.actions_left == 0:
                return EndTurn()
        draws = [a for a in options if isinstance(a, Draw)]
        if draws and len(state.hands[seat]) < 5:
            return self._best_draw(state, seat, draws)
        own = state.colour_of(seat)
        takes = [a for a in options if isinstance(a, Take)]
        if takes and (not draws or len(state.hands[seat]) >= 3):
            near = patterns.progress(state.data, state.board, state.hands[seat],
                                     bool(state.options["mirror"]))
            scored = [(self._progress_value(state, seat, t, near), t) for t in takes]
            value, take = max(scored, key=lambda vt: (vt[0], vt[1].text()))
            if value > 0:
                return take
            # Nothing to complete soon: open up the region that will count three times.
            weakest = self._weakest(state, seat)
            reach = [t for t in takes if any(state.data.cells[c].region == weakest
                                             for c in self._cells_for(state, t))]
            if reach:
                return max(reach, key=lambda t: (t.colour == own, rng.randbelow(1000)))
        mine = [a for a in takes if a.colour == own]
        if mine:
            return mine[rng.randbelow(len(mine))]
        if draws:
            return self._best_draw(state, seat, draws)
        if takes:
            return takes[rng.randbelow(len(takes))]
        rest = [a for a in options if not isinstance(a, Back)] or options
        return rest[rng.randbelow(len(rest))]

    # --- values ------------------------------------------------------------------

    def _build_value(self, st: NeotopiaState, seat: int, card: str | None) -> int:
        if card is None or st.build_at is None:
            return 0
        region = st.data.cells[st.build_at].region
        return self._gain_value(st, seat, region, st.data.card_points(card, st.colour_of(seat)))

    def _gain_value(self, st: NeotopiaState, seat: int, region: str, points: int) -> int:
        """Value in quarter points: the gain in the final formula, the tokens a threshold
        gives, and a lean towards the lower regions (the formula alone cannot see that
        the weakest region will count three times while another region is still at 0)."""
        before = dict(st.scores[seat])
        after = {**before, region: before[region] + points}
        tokens = sum(1 for t in st.data.thresholds if before[region] < t <= after[region])
        tokens = min(tokens, len(st.piles[region]))
        lower = sum(1 for r, v in before.items() if r != region and v > before[region])
        return QUARTERS * (formula(after) - formula(before) + 3 * tokens) + 2 * points * lower

    def _cell_gain(self, st: NeotopiaState, seat: int, cell: str, colour: str,
                   opp: dict[tuple[str, str], list[str]]) -> int:
        region = st.data.cells[cell].region
        last = st.last_project(region)
        last_type = st.data.cards[last].type if last else None
        value = 0
        for card in opp.get((cell, colour), []):
            if st.data.cards[card].type == last_type:
                continue
            value = max(value, self._gain_value(
                st, seat, region, st.data.card_points(card, st.colour_of(seat))))
        if cell in st.cell_tokens:
            value += 3 * QUARTERS
        return value

    def _take_values(self, st: NeotopiaState, seat: int, options: list[Action]
                     ) -> list[tuple[Action, int]]:
        takes = [a for a in options if isinstance(a, Take)]
        if not takes:
            return []
        opp = patterns.opportunities(st.data, st.board, st.hands[seat],
                                     bool(st.options["mirror"]))
        out: list[tuple[Action, int]] = []
        for take in takes:
            cells = self._cells_for(st, take)
            value = max((self._cell_gain(st, seat, c, take.colour, opp) for c in cells),
                        default=0)
            out.append((take, value))
        return out

    def _weight(self, st: NeotopiaState, seat: int, region: str) -> int:
        """3 for the seat's weakest region (it counts three times at the end), else 1."""
        scores = st.scores[seat]
        return 3 if scores[region] == min(scores.values()) else 1

    def _weakest(self, st: NeotopiaState, seat: int) -> str:
        scores = st.scores[seat]
        count = {r.id: sum(1 for c in r.cells if c in st.board) for r in st.data.regions}
        return min(scores, key=lambda r: (scores[r], count[r], r))

    def _progress_value(self, st: NeotopiaState, seat: int, take: Take,
                        near: dict[tuple[str, str], int]) -> int:
        best = 0
        for cell in self._cells_for(st, take):
            count = near.get((cell, take.colour), 0)
            if count:
                region = st.data.cells[cell].region
                best = max(best, count * self._weight(st, seat, region))
        return best

    def _cells_for(self, st: NeotopiaState, take: Take) -> list[str]:
        data = st.data
        if take.source == "reserve":
            return [c for r in data.regions for c in normal_cells(st, r.id)]
        regions = data.manufacture(take.source).regions
        if st.stage == "permits":
            return [c for r in regions for c in permit_cells(st, r)]
        return [c for r in regions for c in normal_cells(st, r)]

    def _best_cell(self, st: NeotopiaState, seat: int, options: list[Action], rng: Rng
                   ) -> Action:
        cells = [a for a in options if isinstance(a, Place)]
        colour = st.taking["colour"] if st.taking else st.colour_of(seat)
        opp = patterns.opportunities(st.data, st.board, st.hands[seat],
                                     bool(st.options["mirror"]))
        own = st.colour_of(seat)

        near = patterns.progress(st.data, st.board, st.hands[seat], bool(st.options["mirror"]))

        def value(a: Place) -> tuple[int, int, int, int, int]:
            gain = self._cell_gain(st, seat, a.cell, colour, opp)
            region = st.data.cells[a.cell].region
            ahead = near.get((a.cell, colour), 0) * self._weight(st, seat, region)
            friends = sum(1 for n in st.data.neighbours[a.cell] if st.board.get(n) == own)
            weight = self._weight(st, seat, region)
            return (gain, ahead, weight, friends if colour == own else 0, rng.randbelow(1000))

        return max(cells, key=value)

    def _best_draw(self, st: NeotopiaState, seat: int, options: Sequence[Action]) -> Action:
        draws = [a for a in options if isinstance(a, Draw)]
        own = st.colour_of(seat)

        def value(a: Draw) -> tuple[int, str]:
            if a.card is None:
                return (3, "")
            return (st.data.card_points(a.card, own), a.card)

        return max(draws, key=value)

    def _useful_bonus(self, st: NeotopiaState, seat: int, options: list[Action]
                      ) -> Action | None:
        uses = {a.bonus: a for a in options if isinstance(a, UseBonus)}
        if not uses:
            return None
        opp = patterns.opportunities(st.data, st.board, st.hands[seat],
                                     bool(st.options["mirror"]))
        for bonus, cells_of in (("building_permits", permit_cells),
                                ("automation", normal_cells)):
            if bonus not in uses:
                continue
            for m in st.data.manufactures:
                for colour in set(st.manufactures[m.id]):
                    for region in m.regions:
                        for cell in cells_of(st, region):
                            if self._cell_gain(st, seat, cell, colour, opp) > 3 * QUARTERS:
                                return uses[bonus]
        if "private_initiative" in uses:
            for r in st.data.regions:
                for cell in normal_cells(st, r.id):
                    for colour in st.data.colour_ids:
                        if st.reserve[colour] and \
                                self._cell_gain(st, seat, cell, colour, opp) > 3 * QUARTERS:
                            return uses["private_initiative"]
        return None
