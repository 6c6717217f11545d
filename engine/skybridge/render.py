"""Pictures of a Skybridge view, as PNG bytes: ``render_board(view)`` after every
move, ``render_final(view, outcome)`` at the end (the board above the breakdown).
Both take an optional list of seat names; both are pure and deterministic.

The board is drawn as it stands on the table, seen from the front: the nine
foundations keep their places in the 3x3 grid, and each one shows its tower
from the side, bottom up, every piece in its colour with its colour's letter
(R, Y, G, B) so that no one has to tell colours apart. A bridge between two
towers of the same row is drawn as a plank across; a bridge between rows,
which a front view cannot show, has an arrow and the number of the foundation
at its other end. Roofs are triangles; a roofed cell is tinted in the roof's
colour. The piece placed last has a thick frame and a black pointer.

Text is drawn with the shipped DejaVu Sans (``engine.fonts``, with its CJK fallback
and a visible box for a glyph no font has), so names draw as the players typed them;
a long name is cut with an ellipsis rather than pushed off the picture.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from PIL import Image, ImageDraw, ImageFont

from engine.core.protocol import Outcome
from engine.fonts import font as shipped_font
from engine.skybridge.render_words import LEGEND, language, tr

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

# Okabe-Ito colours, chosen to stay distinct under the common colour blindnesses.
FILL: Final[dict[str, RGB]] = {
    "red": (213, 94, 0),
    "yellow": (240, 228, 66),
    "green": (0, 158, 115),
    "blue": (0, 114, 178),
}
INK: Final[dict[str, RGB]] = {
    "red": (255, 255, 255),
    "yellow": (0, 0, 0),
    "green": (0, 0, 0),
    "blue": (255, 255, 255),
}
LETTER: Final[dict[str, str]] = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
BACKGROUND: Final[RGB] = (255, 255, 255)
CELL: Final[RGB] = (238, 238, 234)
GROUND: Final[RGB] = (120, 110, 100)
TEXT: Final[RGB] = (30, 30, 30)
FAINT: Final[RGB] = (110, 110, 110)
OUTLINE: Final[RGB] = (40, 40, 40)

WIDTH: Final = 560
MARGIN: Final = 10
GAP: Final = 16
CELL_W: Final = (WIDTH - 2 * MARGIN - 2 * GAP) // 3
COLUMN_W: Final = 62
HEADER_H: Final = 40
LABEL_H: Final = 30
ROOF_H: Final = 22
PLANK_OUT: Final = 5
TOP_PAD: Final = 8


def font(size: int) -> ImageFont.FreeTypeFont:
    return shipped_font(size)


def fit_size(text: str, width: int, size: int, minimum: int = 10) -> int:
    """The largest size up to ``size`` at which ``text`` fits in ``width`` pixels."""
    while size > minimum and font(size).getlength(text) > width:
        size -= 1
    return size


NAME_LIMIT: Final = 170  # pixels at 15 px: a name never crowds out the rest of a line


def fit_name(text: str, size: int = 15, limit: int = NAME_LIMIT) -> str:
    """``text`` (blank: "?") cut with an ellipsis so it is at most ``limit`` pixels wide."""
    text = " ".join(text.split()) or "?"
    if font(size).getlength(text) <= limit:
        return text
    while text and font(size).getlength(text + "…") > limit:
        text = text[:-1]
    return text.rstrip() + "…"


@dataclass(frozen=True)
class Layout:
    """Where everything goes; tests use it to sample pixels at computed places."""

    unit: int  # pixels per storey
    column_h: int  # pixels from the tallest possible top to the ground line
    board_top: int

    @classmethod
    def for_view(cls, view: Mapping[str, Any]) -> Layout:
        tallest = max(t["height"] for t in view["board"])
        storeys = max(8, tallest + 1)
        unit = max(7, min(16, 190 // storeys))
        return cls(unit=unit, column_h=unit * storeys + ROOF_H + TOP_PAD, board_top=HEADER_H)

    @property
    def cell_h(self) -> int:
        return self.column_h + LABEL_H

    @property
    def board_bottom(self) -> int:
        return self.board_top + 3 * self.cell_h + 2 * GAP

    def cell(self, foundation: int) -> Box:
        row, col = divmod(foundation - 1, 3)
        x = MARGIN + col * (CELL_W + GAP)
        y = self.board_top + row * (self.cell_h + GAP)
        return (x, y, x + CELL_W, y + self.cell_h)

    def ground(self, foundation: int) -> int:
        return self.cell(foundation)[1] + self.column_h

    def column(self, foundation: int) -> tuple[int, int]:
        x0, _, x1, _ = self.cell(foundation)
        middle = (x0 + x1) // 2 - 12  # a little left, to leave room for bridge arrows
        return (middle - COLUMN_W // 2, middle + COLUMN_W // 2)

    def piece_box(self, foundation: int, level: int, storeys: int) -> Box:
        """The rectangle of a block or bridge resting ``level`` storeys above the ground."""
        x0, x1 = self.column(foundation)
        ground = self.ground(foundation)
        return (x0, ground - (level + storeys) * self.unit, x1, ground - level * self.unit)

    def roof_box(self, foundation: int, height: int) -> Box:
        x0, x1 = self.column(foundation)
        ground = self.ground(foundation)
        return (x0 - 4, ground - height * self.unit - ROOF_H, x1 + 4, ground - height * self.unit)


def render_board(view: Mapping[str, Any], *, names: Sequence[str] | None = None,
                 locale: str = "en") -> bytes:
    """The board of a Skybridge view as a PNG: towers, bridges, roofs, supplies, turn;
    its words in ``locale``."""
    with language(locale):
        image = _board_image(view, names)
    return _png(image)


def render_final(
    view: Mapping[str, Any],
    outcome: Outcome | Mapping[str, Any] | None = None,
    *,
    names: Sequence[str] | None = None,
    locale: str = "en",
) -> bytes:
    """The final scores with their breakdown, under the board that produced them.

    ``outcome`` defaults to the one in the view (present once the game is over);
    before the end the picture shows the live estimate, labelled as such.
    """
    if isinstance(outcome, Outcome):
        outcome = outcome.to_json()
    with language(locale):
        return _final(view, outcome, names)


def _final(view: Mapping[str, Any], outcome: Mapping[str, Any] | None,
           names: Sequence[str] | None) -> bytes:
    board = _board_image(view, names)
    rows = _score_rows(view, outcome if outcome is not None else view.get("outcome"), names)
    line_h = 20
    height = board.height + 16 + line_h * len(rows) + 12
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    image.paste(board, (0, 0))
    draw = ImageDraw.Draw(image)
    y = board.height + 10
    draw.line((MARGIN, y - 4, WIDTH - MARGIN, y - 4), fill=FAINT, width=1)
    for indent, text, points, colours in rows:
        x = MARGIN + indent
        size = 16 if indent == 0 else 13
        for colour in colours:
            _swatch(draw, (x, y + 2, x + 16, y + 18), colour, 11)
            x += 20
        room = WIDTH - MARGIN - x - 2 - (font(size).getlength(points) + 8 if points else 0)
        draw.text((x + 2, y + 10), text, font=font(fit_size(text, int(room), size)), fill=TEXT,
                  anchor="lm")
        if points:
            draw.text((WIDTH - MARGIN, y + 10), points, font=font(size), fill=TEXT, anchor="rm")
        y += line_h
    return _png(image)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    # No metadata and fixed settings: the same view gives the same bytes.
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def _seat_name(seat: int, names: Sequence[str] | None) -> str:
    if names is not None and seat < len(names):
        return fit_name(names[seat])
    return tr("Seat {n}", n=seat + 1)


def _board_image(view: Mapping[str, Any], names: Sequence[str] | None) -> Image.Image:
    layout = Layout.for_view(view)
    footer = _footer_rows(view, names)
    height = layout.board_bottom + 12 + 22 * len(footer) + 8
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _header(draw, view, names)
    towers = {t["foundation"]: t for t in view["board"]}
    for tower in towers.values():
        _cell(draw, layout, tower)
    for tower in towers.values():
        _tower(draw, layout, tower)
    _bridges_across(draw, layout, towers)
    if view.get("last") is not None:
        _mark_last(draw, layout, towers, view["last"])
    y = layout.board_bottom + 10
    for colour, text in footer:
        _swatch(draw, (MARGIN, y, MARGIN + 18, y + 18), colour, 12)
        ink, size = (FAINT, 12) if text == tr(LEGEND) else (TEXT, 14)
        size = fit_size(text, WIDTH - 2 * MARGIN - 26, size)
        draw.text((MARGIN + 26, y + 9), text, font=font(size), fill=ink, anchor="lm")
        y += 22
    return image


def _header(
    draw: ImageDraw.ImageDraw, view: Mapping[str, Any], names: Sequence[str] | None
) -> None:
    draw.text((MARGIN, 20), "SKYBRIDGE", font=font(20), fill=TEXT, anchor="lm")
    turn = view.get("turn")
    if view.get("over"):
        status = tr("move {n} - game over", n=view["moves"])
    elif turn is not None:
        who = _seat_name(turn["seat"], names)
        status = tr("move {n} - {who} to play:", n=view["moves"] + 1, who=who)
    else:
        status = ""
    x = WIDTH - MARGIN
    if turn is not None and not view.get("over"):
        for colour in reversed(turn["colours"]):
            _swatch(draw, (x - 20, 10, x, 30), colour, 13)
            x -= 24
    draw.text((x - 4, 20), status, font=font(15), fill=TEXT, anchor="rm")


def _cell(draw: ImageDraw.ImageDraw, layout: Layout, tower: Mapping[str, Any]) -> None:
    foundation = tower["foundation"]
    box = layout.cell(foundation)
    roof = tower["roof"]
    tint = _blend(FILL[roof], BACKGROUND, 0.78) if roof else CELL
    draw.rounded_rectangle(box, radius=8, fill=tint)
    x0, x1 = layout.column(foundation)
    ground = layout.ground(foundation)
    draw.rectangle((x0 - 8, ground, x1 + 8, ground + 5), fill=GROUND)
    # The label band: foundation number, height, and whose roof closes the tower.
    cx, cy = x0 + 2, ground + 18
    draw.ellipse((cx - 10, cy - 10, cx + 10, cy + 10), fill=TEXT)
    draw.text((cx, cy), str(foundation), font=font(14), fill=(255, 255, 255), anchor="mm")
    draw.text((cx + 16, cy), tr("h {n}", n=tower["height"]), font=font(15), fill=TEXT,
              anchor="lm")
    if roof:
        draw.text((box[2] - 8, cy), tr("roof {c}", c=LETTER[roof]), font=font(13), fill=TEXT,
                  anchor="rm")


def _tower(draw: ImageDraw.ImageDraw, layout: Layout, tower: Mapping[str, Any]) -> None:
    foundation = tower["foundation"]
    for piece in tower["pieces"]:
        colour = piece["colour"]
        if piece["kind"] == "roof":
            box = layout.roof_box(foundation, tower["height"])
            triangle = [(box[0], box[3]), ((box[0] + box[2]) // 2, box[1]), (box[2], box[3])]
            draw.polygon(triangle, fill=FILL[colour], outline=OUTLINE)
            draw.text(
                ((box[0] + box[2]) // 2, box[3] - 7),
                LETTER[colour],
                font=font(12),
                fill=INK[colour],
                anchor="mm",
            )
            continue
        box = _box(layout, foundation, piece)
        draw.rectangle(box, fill=FILL[colour], outline=OUTLINE, width=1)
        label = (
            LETTER[colour] if piece["kind"] == "bridge" else f"{LETTER[colour]}{piece['storeys']}"
        )
        size = min(15, max(9, layout.unit * piece["storeys"] - 3))
        middle = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
        draw.text(middle, label, font=font(size), fill=INK[colour], anchor="mm")
        if piece["kind"] == "bridge":
            _bridge_ends(draw, layout, foundation, piece, box)


def _box(layout: Layout, foundation: int, piece: Mapping[str, Any]) -> Box:
    box = layout.piece_box(foundation, piece["level"], piece["storeys"])
    if piece["kind"] == "bridge":
        # A plank sticks out of the tower on both sides, so it never reads as a block.
        return (box[0] - PLANK_OUT, box[1], box[2] + PLANK_OUT, box[3])
    return box


def _mark_last(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    towers: Mapping[int, Mapping[str, Any]],
    last: Mapping[str, Any],
) -> None:
    """The piece placed last (the top of its tower): a thick frame and a black pointer."""
    for foundation in last["at"]:
        tower = towers[foundation]
        top = tower["pieces"][-1]
        if top["kind"] == "roof":
            box = layout.roof_box(foundation, tower["height"])
        else:
            box = _box(layout, foundation, top)
        draw.rectangle((box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3), outline=TEXT, width=3)
        middle = (box[1] + box[3]) // 2
        tip = box[0] - 6
        draw.polygon([(tip - 12, middle - 7), (tip, middle), (tip - 12, middle + 7)], fill=TEXT)


def _bridge_ends(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    foundation: int,
    piece: Mapping[str, Any],
    box: Box,
) -> None:
    """A bridge to another row gets an arrow and the number of its other end."""
    colour = piece["colour"]
    other = piece["to"]
    if abs(other - foundation) != 3:
        return  # same row: the plank across is drawn by _bridges_across
    up = other < foundation
    x = box[2] + 4
    top, bottom = box[1] - 2, box[3] + 2
    if up:
        arrow = [(x, bottom), (x + 14, bottom), (x + 7, top)]
    else:
        arrow = [(x, top), (x + 14, top), (x + 7, bottom)]
    draw.polygon(arrow, fill=FILL[colour], outline=OUTLINE)
    middle_y = (box[1] + box[3]) // 2
    draw.text((x + 18, middle_y), str(other), font=font(13), fill=TEXT, anchor="lm")


def _bridges_across(
    draw: ImageDraw.ImageDraw, layout: Layout, towers: Mapping[int, Mapping[str, Any]]
) -> None:
    for foundation, tower in towers.items():
        for piece in tower["pieces"]:
            if piece["kind"] != "bridge" or piece["to"] != foundation + 1:
                continue
            if (foundation - 1) // 3 != (piece["to"] - 1) // 3:
                continue
            left = layout.piece_box(foundation, piece["level"], 1)
            right = layout.piece_box(piece["to"], piece["level"], 1)
            span = (left[2], left[1] + 1, right[0], left[3] - 1)
            draw.rectangle(span, fill=FILL[piece["colour"]], outline=OUTLINE)
            middle = ((span[0] + span[2]) // 2, (span[1] + span[3]) // 2)
            draw.text(
                middle,
                LETTER[piece["colour"]],
                font=font(11),
                fill=INK[piece["colour"]],
                anchor="mm",
            )


def _footer_rows(view: Mapping[str, Any], names: Sequence[str] | None) -> list[tuple[str, str]]:
    """One line per colour in hand (pieces left), then the scores."""
    rows: list[tuple[str, str]] = []
    fourth = view.get("fourth_colour")
    for player in view["players"] if not view.get("over") else []:
        name = _seat_name(player["seat"], names)
        for colour in player["colours"]:
            out = tr(" (out)") if colour in player["colours_out"] else ""
            left = view["supply"][colour]
            rows.append(
                (
                    colour,
                    tr("{name}{out} has {b3} x 3-storey, {b2} x 2-storey, {bridge} bridge, "
                       "{roof} roof", name=name, out=out, b3=left["block3"], b2=left["block2"],
                       bridge=left["bridge"], roof=left["roof"]),
                )
            )
        extra = player["extra"]
        if fourth and sum(extra.values()):
            rows.append(
                (
                    fourth,
                    tr("{name} has {b3} x 3-storey, {b2} x 2-storey of the fourth colour "
                       "(x3@, x2@)", name=name, b3=extra["block3"], b2=extra["block2"]),
                )
            )
    head = tr("Final score") if view.get("over") else tr("Score if the game ended now")
    totals = view["score_estimate"]["totals"]
    scores = ", ".join(f"{_seat_name(s, names)}: {t}" for s, t in enumerate(totals))
    rows.append(("", f"{head} - {scores}"))
    rows.append(("", tr(LEGEND)))
    return rows


def _score_rows(
    view: Mapping[str, Any], outcome: Mapping[str, Any] | None, names: Sequence[str] | None
) -> list[tuple[int, str, str, list[str]]]:
    """(indent, text, points, colour swatches) for each line of the score table."""
    if outcome is not None:
        standings = sorted(outcome["standings"], key=lambda s: (s["rank"], s["seat"]))
    else:
        totals = view["score_estimate"]["totals"]
        standings = [
            {"seat": s, "rank": 0, "total": totals[s], "lines": view["score_estimate"]["lines"][s]}
            for s in range(view["seats"])
        ]
    rows: list[tuple[int, str, str, list[str]]] = []
    title = tr("Final scores") if outcome is not None else tr("Scores if the game ended now")
    rows.append((0, title, "", []))
    for standing in standings:
        seat = standing["seat"]
        colours = view["players"][seat]["colours"]
        rank = f"{standing['rank']}. " if standing["rank"] else ""
        rows.append(
            (0, f"{rank}{_seat_name(seat, names)}", tr("{n} storeys", n=standing["total"]), colours)
        )
        for line in standing["lines"]:
            rows.append((24, _line_text(line), f"+{line['points']}", [line["detail"]["colour"]]))
        if not standing["lines"]:
            rows.append((24, tr("no roof, nothing scored"), "0", []))
    return rows


def _line_text(line: Mapping[str, Any]) -> str:
    detail = line["detail"]
    if line["key"] == "roof":
        return tr("roof on {f}: tower of {n} storeys", f=detail["foundation"],
                  n=detail["storeys"])
    if line["key"] == "bridge":
        return tr("bridge {a}-{b} adds tower {b}", a=detail["from"], b=detail["to"])
    a, b = detail["foundations"]
    return tr("bridge {a}-{b} between own roofs: both towers count twice", a=a, b=b)


def _swatch(draw: ImageDraw.ImageDraw, box: Box, colour: str, size: int) -> None:
    if not colour:
        return
    draw.rectangle(box, fill=FILL[colour], outline=OUTLINE)
    middle = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
    draw.text(middle, LETTER[colour], font=font(size), fill=INK[colour], anchor="mm")


def _blend(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] * (1 - t) + b[0] * t),
        round(a[1] * (1 - t) + b[1] * t),
        round(a[2] * (1 - t) + b[2] * t),
    )
