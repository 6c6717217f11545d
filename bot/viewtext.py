"""A generic, readable text form of any JSON view (until a game ships its own text renderer)."""

from __future__ import annotations

from typing import Any

_INLINE_WIDTH = 72


def _scalar(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, dict | list | tuple)


def _inline(value: Any) -> str | None:
    """A one-line form for small values: scalars, short lists of scalars, short flat dicts."""
    if _is_scalar(value):
        return _scalar(value)
    if isinstance(value, list | tuple):
        if all(_is_scalar(v) for v in value):
            text = "[" + ", ".join(_scalar(v) for v in value) + "]"
            return text if len(text) <= _INLINE_WIDTH else None
        return None
    if all(_is_scalar(v) for v in value.values()):
        text = "{" + ", ".join(f"{k}: {_scalar(v)}" for k, v in value.items()) + "}"
        return text if len(text) <= _INLINE_WIDTH else None
    return None


def pretty(data: Any, indent: int = 0) -> str:
    """YAML-like lines: ``key: value``, nested blocks indented, list items with ``-``."""
    return "\n".join(_lines(data, indent))


def _lines(data: Any, indent: int) -> list[str]:
    pad = "  " * indent
    inline = _inline(data)
    if inline is not None and (indent > 0 or _is_scalar(data)):
        return [pad + inline]
    out: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            small = _inline(value)
            if small is not None:
                out.append(f"{pad}{key}: {small}")
            else:
                out.append(f"{pad}{key}:")
                out += _lines(value, indent + 1)
    elif isinstance(data, list | tuple):
        if not data:
            out.append(pad + "[]")
        for item in data:
            sub = _lines(item, indent + 1)
            first = sub[0].lstrip() if sub else ""
            out.append(f"{pad}- {first}")
            out += sub[1:]
    else:
        out.append(pad + _scalar(data))
    return out
