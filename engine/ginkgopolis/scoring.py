"""Final scoring: tokens, end-game cards, New Hand tokens and districts (G4, G5, G12)."""

from __future__ import annotations

from engine.core.protocol import Outcome, ScoreLine, Standing, rank_totals, seat_name
from engine.ginkgopolis.cards import (
    BUILDING_CARDS,
    CHARACTERS,
    TILE_NUMBERS,
    tile_color,
)
from engine.ginkgopolis.outline import Cell
from engine.ginkgopolis.state import Building, State


def districts(board: dict[Cell, Building]) -> list[list[Cell]]:
    """Groups of at least 2 orthogonally adjacent buildings of one colour, in a fixed order."""
    # Each building's colour read once; a neighbour off the board has none.
    colors = {c: b.tiles[-1][0] for c, b in board.items()}
    seen: set[Cell] = set()
    found: list[list[Cell]] = []
    for start in sorted(board, key=lambda c: (c[1], c[0])):
        if start in seen:
            continue
        color = colors[start]
        group, stack = [], [start]
        seen.add(start)
        while stack:
            cell = stack.pop()
            group.append(cell)
            x, y = cell
            for nb in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):  # neighbours(cell)
                if colors.get(nb) == color and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        if len(group) >= 2:
            found.append(sorted(group, key=lambda c: (c[1], c[0])))
    return found


def district_points(board: dict[Cell, Building], cells: list[Cell]) -> dict[int, tuple[int, int]]:
    """Owner -> (points, place) for one district. Places are 1 and 2; others score nothing."""
    total = sum(board[c].resources for c in cells)
    keys: dict[int, tuple[int, int, int]] = {}
    for c in cells:
        b = board[c]
        if b.owner is None or b.resources == 0:
            continue
        res, height, number = keys.get(b.owner, (0, 0, 0))
        floors = b.tiles
        mine = (len(floors), TILE_NUMBERS[floors[-1]])  # (b.height, tile_number(b.top))
        if mine > (height, number):
            height, number = mine
        keys[b.owner] = (res + b.resources, height, number)
    ranked = sorted(keys, key=lambda o: keys[o], reverse=True)
    points: dict[int, tuple[int, int]] = {}
    if ranked:
        points[ranked[0]] = (total, 1)
        if len(ranked) == 1:
            # Alone in the district: first and second place, 2 SP per resource.
            points[ranked[0]] = (total + keys[ranked[0]][0], 1)
        else:
            points[ranked[1]] = (keys[ranked[1]][0], 2)
    return points


def endgame_card_points(st: State, p: int, card: str) -> int:
    info = BUILDING_CARDS[card].endgame
    assert info is not None
    player = st.players[p]
    owned = [b for b in st.board.values() if b.owner == p]
    kind = info["type"]
    if kind == "resources_on_color":
        return sum(b.resources for b in owned if tile_color(b.top) == info["color"])
    if kind == "buildings_low":
        return sum(1 for b in owned if b.height <= 2)
    if kind == "buildings_high":
        return 3 * sum(1 for b in owned if b.height >= 3)
    if kind == "cards_with_trigger":
        n = sum(1 for c in player.characters if CHARACTERS[c].trigger == info["trigger"])
        n += sum(1 for k in player.kept if BUILDING_CARDS[k].trigger == info["trigger"])
        return 2 * n
    if kind == "cards_of_color":
        n = sum(1 for c in player.characters if CHARACTERS[c].color == info["color"])
        n += sum(1 for k in player.kept if BUILDING_CARDS[k].color == info["color"])
        return 2 * n
    if kind == "flat":
        return int(info["sp"])
    raise AssertionError(kind)


def score(st: State) -> Outcome:
    lines: list[list[ScoreLine]] = [[] for _ in st.players]
    for p, player in enumerate(st.players):
        lines[p].append(ScoreLine("tokens", player.sp))
        for card in player.kept:
            if BUILDING_CARDS[card].endgame is not None:
                lines[p].append(ScoreLine("card", endgame_card_points(st, p, card), {"card": card}))
        if not player.hal:
            lines[p].append(ScoreLine("new_hand", 2 * player.new_hand, {"tokens": player.new_hand}))
    for i, cells in enumerate(districts(st.board)):
        color = tile_color(st.board[cells[0]].top)
        for owner, (points, place) in sorted(district_points(st.board, cells).items()):
            detail = {"district": i + 1, "color": color, "size": len(cells), "place": place}
            lines[owner].append(ScoreLine("district", points, detail))
    totals = [sum(line.points for line in ls) for ls in lines]
    ranks = rank_totals(totals)
    standings = tuple(
        Standing(
            seat=None if player.hal else p,
            name="Hal" if player.hal else seat_name(p),
            total=totals[p],
            lines=tuple(lines[p]),
            rank=ranks[p],
        )
        for p, player in enumerate(st.players)
    )
    return Outcome(standings)
