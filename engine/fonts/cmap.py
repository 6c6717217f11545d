"""Which characters a TrueType font has a glyph for, read from its ``cmap`` table.

Pillow draws a missing character as the font's empty "notdef" box without saying so;
reading the table lets the fonts module pick, per character, the first shipped font that
really has it. Formats 4 (the Basic Multilingual Plane) and 12 (all planes) cover every
font we ship.
"""

from __future__ import annotations

import struct
from functools import lru_cache
from pathlib import Path

# (platform, encoding, format) in order of preference: the full Unicode tables first.
_PREFERRED = ((3, 10, 12), (0, 4, 12), (0, 6, 12), (3, 1, 4), (0, 3, 4), (0, 1, 4))


def _table(data: bytes, tag: bytes) -> int:
    (count,) = struct.unpack_from(">H", data, 4)
    for i in range(count):
        name, _checksum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if name == tag:
            return int(offset)
    raise ValueError(f"the font has no {tag.decode()} table")


def _format4(data: bytes, at: int) -> set[int]:
    (seg_x2,) = struct.unpack_from(">H", data, at + 6)
    n = seg_x2 // 2
    ends = struct.unpack_from(f">{n}H", data, at + 14)
    starts = struct.unpack_from(f">{n}H", data, at + 16 + seg_x2)
    deltas = struct.unpack_from(f">{n}h", data, at + 16 + 2 * seg_x2)
    ranges_at = at + 16 + 3 * seg_x2
    offsets = struct.unpack_from(f">{n}H", data, ranges_at)
    found: set[int] = set()
    for i, (start, end) in enumerate(zip(starts, ends, strict=True)):
        if start == 0xFFFF:
            continue
        for c in range(start, end + 1):
            if offsets[i] == 0:
                glyph = (c + deltas[i]) & 0xFFFF
            else:
                where = ranges_at + 2 * i + offsets[i] + 2 * (c - start)
                (glyph,) = struct.unpack_from(">H", data, where)
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                found.add(c)
    return found


def _format12(data: bytes, at: int) -> set[int]:
    (groups,) = struct.unpack_from(">I", data, at + 12)
    found: set[int] = set()
    for g in range(groups):
        start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
        found.update(range(start if glyph else start + 1, end + 1))
    return found


@lru_cache(maxsize=8)
def codepoints(path: Path) -> frozenset[int]:
    """Every code point ``path`` maps to a real glyph."""
    data = path.read_bytes()
    cmap = _table(data, b"cmap")
    (count,) = struct.unpack_from(">H", data, cmap + 2)
    subtables: dict[tuple[int, int, int], int] = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        (fmt,) = struct.unpack_from(">H", data, cmap + offset)
        subtables.setdefault((platform, encoding, fmt), cmap + offset)
    for key in _PREFERRED:
        if key in subtables:
            read = _format12 if key[2] == 12 else _format4
            return frozenset(read(data, subtables[key]))
    raise ValueError(f"{path.name}: no Unicode cmap subtable")
