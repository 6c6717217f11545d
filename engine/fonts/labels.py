"""The language of the labels an image draws, shared by every game's renderer.

A renderer draws within ``language(locale)`` and passes each label through its game's
``tr``, which looks the English text up in that game's French table. The language is a
context variable, so two images drawn at once (threads, tasks) never mix languages.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any


class Labels:
    """One game's current drawing language."""

    def __init__(self, game: str) -> None:
        self._locale: ContextVar[str] = ContextVar(f"{game}_render_locale", default="en")

    @property
    def locale(self) -> str:
        return self._locale.get()

    @contextmanager
    def language(self, locale: str) -> Iterator[None]:
        token = self._locale.set(locale)
        try:
            yield
        finally:
            self._locale.reset(token)

    def tr(self, french: Mapping[str, str], text: str, **params: Any) -> str:
        """``text`` (a format string) in the current language, filled with ``params``."""
        if self.locale == "fr":
            text = french.get(text, text)
        return text.format(**params) if params else text
