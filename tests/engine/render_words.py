"""Helpers for the tests of the images' words: the texts a renderer draws, the English
labels a French table must not show, and the labels a renderer looks up."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import pytest

from engine.canvas import Canvas


@contextmanager
def recorded() -> Iterator[list[str]]:
    """Every text drawn meanwhile, by any renderer on the shared canvas."""
    texts: list[str] = []
    original = Canvas.text

    def text(self: Canvas, xy: tuple[float, float], text: str, *args: Any, **kwargs: Any) -> int:
        texts.append(text)
        return original(self, xy, text, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Canvas, "text", text)
        yield texts


def english_labels(french: Mapping[str, str], strip: str | None = None) -> set[str]:
    """The labels French replaces, placeholders removed (parts of more than 3 characters,
    stripped of ``strip``): what must not be drawn at a French table."""
    found = set()
    for key, value in french.items():
        if value != key:
            parts = (part.strip(strip) for part in re.split(r"\{[^}]*\}", key))
            found |= {p for p in parts if len(p) > 3 and p not in value}
    return found


def labels_asked(words: ModuleType, draw: Callable[[], None]) -> set[str]:
    """The labels ``draw`` looks up in ``words.FRENCH``."""
    asked: set[str] = set()

    class Recording(dict[str, str]):
        def get(self, key: str, default: Any = None) -> Any:
            asked.add(key)
            return super().get(key, default)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(words, "FRENCH", Recording(words.FRENCH))
        draw()
    return asked
