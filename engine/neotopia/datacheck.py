"""Validation of a Neotopia data set: every invariant of section C of
``neotopia-house-set.md``. A broken file is refused with a ``DataError`` that names the
failed invariant; for a printed set, invariants 12-17 (design targets of the house set)
are warnings only.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

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
    largest_group,
    rotations,
)

INVARIANTS: dict[int, str] = {
    1: "component counts (4 colours of 25 elements, 56 cards, 12 tiles, 24 bonus tokens "
       "of 4 types of 6)",
    2: "cell ids and coordinates unique, known cell kinds",
    3: "3 regions, each with one centre, 4 bonus cells, outer cells, connected cells",
    4: "neighbour lists match the coordinates and the adjacency rule",
    5: "3 manufactures, each between 2 regions, starting with one element of each colour",
    6: "score track of 20 with thresholds inside it; 12 tokens on cells + 3 piles of 4",
    7: "production tiles: 4 known elements per back, one flag tile, enough symbol tiles",
    8: "project cards: unique ids, connected patterns of known colours, building points, "
       "types",
    9: "every card fits in every region",
    10: "every value carries a provenance from the legend",
    11: "scenario positions reachable and giving the stated results",
    12: "non-building cards score 2 to 5",
    13: "building patterns of one colour, two-colour cards of their type's colours, 16 types",
    14: "no two identical cards",
    15: "tile backs balanced by colour, symbol tiles interchangeable",
    16: "the element supply covers setup and every tile back",
    17: "enough placeable cells for a 4-player game",
}
WARNING_INVARIANTS = frozenset(range(12, 18))


class DataError(ValueError):
    """A data set that breaks an invariant; ``invariant`` is its number in section C."""

    def __init__(self, invariant: int, message: str) -> None:
        self.invariant = invariant
        self.detail = message
        super().__init__(f"invariant {invariant} ({INVARIANTS[invariant]}): {message}")


def validate(raw: Any, *, name: str = "custom") -> DataSet:
    """Build a DataSet from parsed JSON, or raise DataError naming the broken invariant."""
    try:
        return _Validator(raw, name).run()
    except DataError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise DataError(1, f"the file does not follow the schema ({type(exc).__name__}: "
                           f"{exc})") from exc


class _Validator:
    def __init__(self, raw: Mapping[str, Any], name: str) -> None:
        self.raw = raw
        self.name = name
        self.kind = str(raw["data_set"]["kind"])
        self.warnings: list[str] = []

    def fail(self, n: int, message: str) -> None:
        if n in WARNING_INVARIANTS and self.kind != "house":
            self.warnings.append(str(DataError(n, message)))
            return
        raise DataError(n, message)

    def run(self) -> DataSet:
        raw = self.raw
        colours = tuple(
            Colour(str(c["id"]), str(c["colour"]), str(c.get("element_en", "")),
                   str(c.get("element_fr", "")), int(c["count"]))
            for c in raw["colours"]
        )
        self.colour_ids = {c.id for c in colours}
        self.check_counts(colours)
        board = raw["board"]
        cells = self.check_cells(board)
        grid = board["grid"]
        directions = tuple((int(d[0]), int(d[1])) for d in grid["directions"])
        self.grid = str(grid["type"])
        self.directions = directions
        regions = self.check_regions(board, cells)
        neighbours = self.check_neighbours(board, cells, directions)
        manufactures = self.check_manufactures(board, regions)
        track = raw["score_track"]
        thresholds = tuple(int(t) for t in track["bonus_thresholds"])
        self.check_track(track, thresholds, regions)
        tiles = self.check_tiles(raw["production_tiles"])
        types, cards = self.check_cards(raw)
        by_coord = {(c.q, c.r): c.id for c in cells.values()}
        self.check_fit(cards, regions, cells, by_coord)
        self.check_provenance(raw)
        bonus = tuple(
            BonusType(str(b["id"]), str(b["name_en"]), str(b["name_fr"]), str(b["effect"]),
                      int(b["count"]))
            for b in raw["bonus_tokens"]["types"]
        )
        building = raw["project_cards"]["building_points"]
        removal = {int(k): int(v) for k, v in raw["production_tiles"]["player_count_removal"]
                   .items() if k.isdigit()}
        data = DataSet(
            name=self.name,
            id=str(raw["data_set"]["id"]),
            kind=self.kind,
            source=str(raw["data_set"].get("source", "")),
            grid=self.grid,
            directions=directions,
            colours=colours,
            cells=cells,
            neighbours=neighbours,
            regions=regions,
            manufactures=manufactures,
            production_slot=(int(board["production_slot"]["qr"][0]),
                             int(board["production_slot"]["qr"][1])),
            track_length=int(track["length"]),
            thresholds=thresholds,
            pile_size=int(track.get("pile_per_region", 4)),
            bonus_types=bonus,
            tiles=tiles,
            removal=removal,
            stack_top=tuple(str(c) for c in raw["production_tiles"]["stack_top_at_setup"]),
            types=types,
            cards=cards,
            building_own=int(building["own_colour"]),
            building_other=int(building["other_colour"]),
            hand_size=int(raw["setup_counts"]["starting_hand"]),
            offer_size=int(raw["setup_counts"]["offer"]),
            scenarios=tuple(raw.get("scenarios", ())),
            by_coord=by_coord,
        )
        self.check_design(data)
        if self.kind == "house":
            self.check_scenarios(data)
        # replace() copies the fields only, not what the checks cached on ``data``.
        return replace(data, warnings=tuple(self.warnings))

    # 1
    def check_counts(self, colours: tuple[Colour, ...]) -> None:
        raw = self.raw
        if len(colours) != 4 or len(self.colour_ids) != 4:
            raise DataError(1, f"{len(colours)} colours instead of 4 distinct ones")
        for c in colours:
            if c.count != 25:
                raise DataError(1, f"colour {c.id} has {c.count} elements instead of 25")
        n_cards = len(raw["project_cards"]["cards"])
        if n_cards != 56:
            raise DataError(1, f"{n_cards} project cards instead of 56")
        n_tiles = len(raw["production_tiles"]["tiles"])
        if n_tiles != 12:
            raise DataError(1, f"{n_tiles} production tiles instead of 12")
        types = raw["bonus_tokens"]["types"]
        ids = [t["id"] for t in types]
        if sorted(ids) != sorted(BONUS_KINDS):
            raise DataError(1, f"bonus types {ids} instead of {list(BONUS_KINDS)}")
        for t in types:
            if int(t["count"]) != 6:
                raise DataError(1, f"{t['count']} {t['id']} tokens instead of 6")
        if int(raw["bonus_tokens"]["total"]) != 24:
            raise DataError(1, f"{raw['bonus_tokens']['total']} bonus tokens instead of 24")

    # 2
    def check_cells(self, board: Mapping[str, Any]) -> dict[str, Cell]:
        cells: dict[str, Cell] = {}
        coords: set[Coord] = set()
        for c in board["cells"]:
            cell = Cell(str(c["id"]), str(c["region"]), int(c["q"]), int(c["r"]),
                        str(c["kind"]))
            if cell.id in cells:
                raise DataError(2, f"cell id {cell.id} appears twice")
            if (cell.q, cell.r) in coords:
                raise DataError(2, f"cell {cell.id} shares its coordinates ({cell.q}, "
                                   f"{cell.r}) with another cell")
            if cell.kind not in CELL_KINDS:
                raise DataError(2, f"cell {cell.id} has unknown kind {cell.kind!r}")
            cells[cell.id] = cell
            coords.add((cell.q, cell.r))
        return cells

    # 3
    def check_regions(self, board: Mapping[str, Any], cells: Mapping[str, Cell]
                      ) -> tuple[Region, ...]:
        raw_regions = board["regions"]
        if len(raw_regions) != 3:
            raise DataError(3, f"{len(raw_regions)} regions instead of 3")
        order = list(board.get("regions_order_clockwise") or [r["id"] for r in raw_regions])
        by_id = {str(r["id"]): r for r in raw_regions}
        if sorted(order) != sorted(by_id):
            raise DataError(3, "regions_order_clockwise does not list the 3 regions")
        regions = []
        for rid in order:
            r = by_id[rid]
            own = [c for c in cells.values() if c.region == rid]
            centres = [c.id for c in own if c.kind == "centre"]
            if len(centres) != 1 or centres[0] != r["centre_cell"]:
                raise DataError(3, f"region {rid} must have exactly one centre, its "
                                   f"centre_cell (found {centres})")
            bonus = sorted(c.id for c in own if c.kind == "bonus")
            if len(bonus) != 4 or bonus != sorted(r["bonus_cells"]):
                raise DataError(3, f"region {rid} must have exactly 4 bonus cells, as "
                                   f"listed (found {bonus})")
            outer = sorted(c.id for c in own if c.kind == "outer")
            if not outer or outer != sorted(r.get("outer_cells", [])):
                raise DataError(3, f"region {rid} must have outer cells, as listed")
            regions.append(Region(
                id=rid, letter=str(r["letter"]), name_en=str(r.get("name_en", rid)),
                name_fr=str(r.get("name_fr", rid)), centre=centres[0],
                bonus_cells=tuple(r["bonus_cells"]), outer_cells=tuple(r["outer_cells"]),
                cells=tuple(c.id for c in own), manufactures=tuple(r.get("manufactures", ())),
            ))
        for c in cells.values():
            if c.region not in by_id:
                raise DataError(3, f"cell {c.id} is in unknown region {c.region!r}")
        # Connectivity uses the coordinates (the neighbour lists are checked next).
        for region in regions:
            inner = {(cells[c].q, cells[c].r) for c in region.cells if cells[c].kind != "outer"}
            centre = (cells[region.centre].q, cells[region.centre].r)
            if _component(centre, inner, self.directions) != inner:
                raise DataError(3, f"the non-outer cells of region {region.id} are not "
                                   f"connected through its centre")
            for oid in region.outer_cells:
                o = cells[oid]
                if not any((o.q + dq, o.r + dr) in inner for dq, dr in self.directions):
                    raise DataError(3, f"outer cell {oid} touches no non-outer cell of "
                                       f"region {region.id}")
        return tuple(regions)

    # 4
    def check_neighbours(self, board: Mapping[str, Any], cells: Mapping[str, Cell],
                         directions: tuple[Coord, ...]) -> dict[str, tuple[str, ...]]:
        by_coord = {(c.q, c.r): c for c in cells.values()}
        given = board["neighbours"]
        if set(given) != set(cells):
            raise DataError(4, "the neighbour lists do not cover exactly the cells")
        out: dict[str, tuple[str, ...]] = {}
        for cid, cell in cells.items():
            derived = set()
            for dq, dr in directions:
                other = by_coord.get((cell.q + dq, cell.r + dr))
                if other is not None and other.region == cell.region:
                    derived.add(other.id)
            listed = [str(n) for n in given[cid]]
            for n in listed:
                if n not in cells:
                    raise DataError(4, f"cell {cid} lists unknown neighbour {n}")
                if cells[n].region != cell.region:
                    raise DataError(4, f"cells {cid} and {n} of different regions are "
                                       f"listed as neighbours")
                if cid not in given[n]:
                    raise DataError(4, f"{n} is a neighbour of {cid} but not the reverse")
            if set(listed) != derived or len(listed) != len(set(listed)):
                raise DataError(4, f"the neighbours of {cid} differ from those derived "
                                   f"from the coordinates: {sorted(listed)} != "
                                   f"{sorted(derived)}")
            out[cid] = tuple(listed)
        return out

    # 5
    def check_manufactures(self, board: Mapping[str, Any], regions: tuple[Region, ...]
                           ) -> tuple[Manufacture, ...]:
        raw = board["manufactures"]
        if len(raw) != 3:
            raise DataError(5, f"{len(raw)} manufactures instead of 3")
        region_ids = {r.id for r in regions}
        out = []
        for m in raw:
            touches = tuple(str(t) for t in m["touches_regions"])
            if len(touches) != 2 or len(set(touches)) != 2 or not set(touches) <= region_ids:
                raise DataError(5, f"manufacture {m['id']} must touch 2 distinct regions")
            start = tuple(str(c) for c in m["start_elements"])
            if sorted(start) != sorted(self.colour_ids):
                raise DataError(5, f"manufacture {m['id']} must start with one element of "
                                   f"each colour")
            slots = tuple((int(s[0]), int(s[1])) for s in m.get("display_slots_qr", ()))
            out.append(Manufacture(str(m["id"]), (touches[0], touches[1]), start, slots))
        pairs = [frozenset(m.regions) for m in out]
        if len(set(pairs)) != 3:
            raise DataError(5, "each pair of regions must share exactly one manufacture")
        for region in regions:
            touching = sorted(m.id for m in out if region.id in m.regions)
            if len(touching) != 2:
                raise DataError(5, f"region {region.id} is touched by {len(touching)} "
                                   f"manufactures instead of 2")
            if region.manufactures and sorted(region.manufactures) != touching:
                raise DataError(5, f"region {region.id} lists manufactures "
                                   f"{list(region.manufactures)}, not {touching}")
        return tuple(out)

    # 6
    def check_track(self, track: Mapping[str, Any], thresholds: tuple[int, ...],
                    regions: tuple[Region, ...]) -> None:
        length = int(track["length"])
        if length != 20:
            raise DataError(6, f"score track of {length} instead of 20")
        if sorted(thresholds) != [7, 13, 18] or not all(0 < t <= length for t in thresholds):
            raise DataError(6, f"thresholds {list(thresholds)} instead of 7, 13, 18 inside "
                               f"the track")
        pile = int(track.get("pile_per_region", 0))
        on_cells = sum(len(r.bonus_cells) for r in regions)
        total = int(self.raw["bonus_tokens"]["total"])
        if on_cells + len(regions) * pile != total or pile != 4:
            raise DataError(6, f"{on_cells} tokens on cells + {len(regions)} piles of {pile} "
                               f"do not make {total}")

    # 7
    def check_tiles(self, raw: Mapping[str, Any]) -> tuple[Tile, ...]:
        tiles = []
        for t in raw["tiles"]:
            back = tuple(str(c) for c in t["back"])
            if len(back) != 4 or not set(back) <= self.colour_ids:
                raise DataError(7, f"tile {t['id']} must show 4 elements of known colours")
            tiles.append(Tile(str(t["id"]), back, bool(t["fewer_players_symbol"]),
                              bool(t["flag"])))
        if len({t.id for t in tiles}) != len(tiles):
            raise DataError(7, "tile ids are not unique")
        flags = [t for t in tiles if t.flag]
        if len(flags) != 1:
            raise DataError(7, f"{len(flags)} flag tiles instead of exactly one")
        if flags[0].symbol:
            raise DataError(7, "the flag tile must not carry the fewer-players symbol")
        need = max(int(v) for k, v in raw["player_count_removal"].items() if k.isdigit())
        symbols = sum(1 for t in tiles if t.symbol)
        if symbols < need:
            raise DataError(7, f"{symbols} symbol tiles, fewer than the {need} removed in a "
                               f"2-player game")
        top = [str(c) for c in raw["stack_top_at_setup"]]
        if sorted(top) != sorted(self.colour_ids):
            raise DataError(7, "the stack top must start with one element of each colour")
        return tuple(tiles)

    # 8
    def check_cards(self, raw: Mapping[str, Any]
                    ) -> tuple[dict[str, ProjectType], dict[str, Card]]:
        building = raw["project_cards"]["building_points"]
        if int(building["own_colour"]) != 2 or int(building["other_colour"]) != 4:
            raise DataError(8, "building cards must score 2 for their own colour, 4 for "
                               "the others")
        types: dict[str, ProjectType] = {}
        for t in raw["project_types"]:
            types[str(t["id"])] = ProjectType(
                str(t["id"]), str(t["main_colour"]),
                None if t.get("second_colour") is None else str(t["second_colour"]),
                None if t.get("building") is None else str(t["building"]),
                str(t.get("name_en", t["id"])), str(t.get("name_fr", t["id"])),
                tuple(str(c) for c in t["cards"]),
            )
        cards: dict[str, Card] = {}
        for c in raw["project_cards"]["cards"]:
            cid = str(c["id"])
            if cid in cards:
                raise DataError(8, f"card id {cid} appears twice")
            pattern = tuple((int(p[0]), int(p[1]), str(p[2])) for p in c["pattern"])
            coords = [(p[0], p[1]) for p in pattern]
            if len(set(coords)) != len(coords) or not pattern:
                raise DataError(8, f"card {cid} repeats a cell of its pattern")
            if not {p[2] for p in pattern} <= self.colour_ids:
                raise DataError(8, f"card {cid} uses an unknown colour")
            if _component(coords[0], set(coords), self.directions) != set(coords):
                raise DataError(8, f"the pattern of card {cid} is not connected")
            points = c["points"]
            build = None if c.get("building") is None else str(c["building"])
            if isinstance(points, dict):
                if build is None or int(points["own_colour"]) != 2 \
                        or int(points["other_colour"]) != 4:
                    raise DataError(8, f"card {cid}: only a building card scores own/other "
                                       f"points, and they are 2/4")
                value: int | None = None
            else:
                if build is not None:
                    raise DataError(8, f"building card {cid} must score 2 own / 4 other")
                value = int(points)
            ctype = str(c["type"])
            if ctype not in types or cid not in types[ctype].cards:
                raise DataError(8, f"card {cid} has type {ctype!r}, which does not exist or "
                                   f"does not list it")
            cards[cid] = Card(cid, ctype, pattern, value, build)
        for t in types.values():
            for cid in t.cards:
                if cid not in cards or cards[cid].type != t.id:
                    raise DataError(8, f"type {t.id} lists card {cid}, which is not of "
                                       f"that type")
        return types, cards

    # 9
    def check_fit(self, cards: Mapping[str, Card], regions: tuple[Region, ...],
                  cells: Mapping[str, Cell], by_coord: Mapping[Coord, str]) -> None:
        maps = rotations(self.grid, False)
        for region in regions:
            inner = {(cells[c].q, cells[c].r) for c in region.cells if cells[c].kind != "outer"}
            for card in cards.values():
                if not _fits(card, inner, maps):
                    raise DataError(9, f"card {card.id} fits nowhere in region {region.id}")

    # 10
    def check_provenance(self, raw: Mapping[str, Any]) -> None:
        legend = set(raw["provenance_legend"])

        def ok(value: Any) -> bool:
            if isinstance(value, dict):
                return bool(value) and all(ok(v) for v in value.values())
            if not isinstance(value, str) or not value:
                return False
            return all(part.strip().split(" ")[0].split("(")[0] in legend | {"derived"}
                       for part in value.split("/"))

        groups: list[tuple[str, Iterable[Mapping[str, Any]]]] = [
            ("cell", raw["board"]["cells"]),
            ("card", raw["project_cards"]["cards"]),
            ("type", raw["project_types"]),
            ("tile", raw["production_tiles"]["tiles"]),
        ]
        for what, items in groups:
            for item in items:
                if not ok(item.get("provenance")):
                    raise DataError(10, f"{what} {item.get('id')} has no provenance from "
                                        f"{sorted(legend)}")

    # 12-17
    def check_design(self, data: DataSet) -> None:
        for card in data.cards.values():
            if card.points is not None and not 2 <= card.points <= 5:
                self.fail(12, f"card {card.id} scores {card.points}")
        for card in data.cards.values():
            counts = Counter(p[2] for p in card.pattern)
            t = data.types[card.type]
            if card.building is not None:
                if set(counts) != {card.building}:
                    self.fail(13, f"building card {card.id} has colours other than "
                                  f"{card.building}")
            elif t.second is None or set(counts) != {t.main, t.second} \
                    or counts[t.main] <= counts[t.second]:
                self.fail(13, f"card {card.id} does not show its type {t.id}'s colours with "
                              f"the main colour in the majority")
        if len(data.types) != 16:
            self.fail(13, f"{len(data.types)} types instead of 16")
        seen: dict[tuple[Any, ...], str] = {}
        maps = rotations(data.grid, False)
        for card in data.cards.values():
            key = (card.type, _canonical(card.pattern, maps))
            if key in seen:
                self.fail(14, f"cards {seen[key]} and {card.id} are identical")
            seen[key] = card.id
        backs = Counter(c for t in data.tiles for c in t.back)
        if len(set(backs.values())) > 1 or set(backs) != set(data.colour_ids):
            self.fail(15, f"tile backs are not balanced by colour: {dict(backs)}")
        if len({tuple(sorted(t.back)) for t in data.tiles if t.symbol}) > 1:
            self.fail(15, "the symbol tiles have different backs")
        for players in (2, 3, 4):
            removed = data.removal.get(players, 0)
            symbol = [t for t in data.tiles if t.symbol]
            plain = [t for t in data.tiles if not t.symbol]
            for colour in data.colour_ids:
                kept = sorted((t.back.count(colour) for t in symbol), reverse=True)
                kept = kept[:len(symbol) - removed]
                need = len(data.manufactures) + 1 + 1 + sum(kept) + sum(
                    t.back.count(colour) for t in plain)
                if need > 25:
                    self.fail(16, f"{players} players need {need} {colour} elements")
        tiles = len(data.tiles)
        bound = 4 + 12 + 4 * (tiles - 1) + 8 * 4 - 1 + 6
        placeable = sum(1 for c in data.cells.values() if c.kind != "outer")
        if placeable < bound:
            self.fail(17, f"{placeable} placeable cells, fewer than the bound {bound}")

    # 11
    def check_scenarios(self, data: DataSet) -> None:
        for sc in data.scenarios:
            before = sc.get("before", {})
            board: dict[str, str] = {}
            for rid, placed in before.get("board", {}).items():
                region = data.region(rid)
                for cell, colour in placed.items():
                    if cell not in region.cells or colour not in data.colour_ids:
                        raise DataError(11, f"scenario {sc['id']}: {cell}={colour} is not a "
                                            f"cell of {rid} with a known colour")
                    board[cell] = colour
                if placed:
                    coords = {(data.cells[c].q, data.cells[c].r) for c in placed}
                    centre = data.cells[region.centre]
                    if (centre.q, centre.r) not in coords or _component(
                            (centre.q, centre.r), coords, data.directions) != coords:
                        raise DataError(11, f"scenario {sc['id']}: the elements of {rid} are "
                                            f"not one group through the centre")
            after = sc.get("after", {})
            for colour, per_region in after.get("group_points", {}).items():
                for rid, points in per_region.items():
                    got = largest_group(data, board, rid, colour)
                    if got != points:
                        raise DataError(11, f"scenario {sc['id']}: {colour}'s largest group "
                                            f"in {rid} is {got}, not {points}")
            for colour, total in after.get("final_score", {}).items():
                scores = before["scores"][colour]
                final = sorted(
                    (int(scores[rid]) + largest_group(data, board, rid, colour)
                     for rid in scores), reverse=True)
                tokens = len(before.get("bonus_tokens_held", {}).get(colour, []))
                got = final[0] + final[1] + 3 * final[2] + 3 * tokens
                if got != total:
                    raise DataError(11, f"scenario {sc['id']}: final score {got}, not {total}")
            for key in ("hands", "deck_top_first", "offer"):
                value = before.get(key, {})
                ids = [c for v in value.values() for c in v] if isinstance(value, dict) \
                    else list(value)
                for cid in ids:
                    if cid not in data.cards:
                        raise DataError(11, f"scenario {sc['id']} names unknown card {cid}")


def _component(start: Coord, cells: set[Coord], directions: tuple[Coord, ...]) -> set[Coord]:
    if start not in cells:
        return set()
    seen = {start}
    todo = deque([start])
    while todo:
        q, r = todo.popleft()
        for dq, dr in directions:
            n = (q + dq, r + dr)
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def _fits(card: Card, inner: set[Coord], maps: list[Any]) -> bool:
    for f in maps:
        shape = [f((p[0], p[1])) for p in card.pattern]
        for anchor in inner:
            dq, dr = anchor[0] - shape[0][0], anchor[1] - shape[0][1]
            if all((q + dq, r + dr) in inner for q, r in shape):
                return True
    return False


def _canonical(pattern: tuple[tuple[int, int, str], ...], maps: list[Any]
               ) -> tuple[tuple[int, int, str], ...]:
    forms = []
    for f in maps:
        cells = [(*f((p[0], p[1])), p[2]) for p in pattern]
        mq = min(c[0] for c in cells)
        mr = min(c[1] for c in cells)
        forms.append(tuple(sorted((c[0] - mq, c[1] - mr, c[2]) for c in cells)))
    return min(forms)
