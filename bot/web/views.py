"""The HTML side: one Jinja2 environment per language over ``templates/<locale>/web``
(French falls back to English file by file, so the pages' structure lives once, in
``templates/en/web``, and each language has its own ``_words.html``), and the values the
templates read."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2

from bot.text import TEMPLATES

LOCALES = ("en", "fr")
DEFAULT_LOCALE = "en"


def iso(timestamp: float | None) -> str:
    if timestamp is None:
        return ""
    return datetime.fromtimestamp(float(timestamp), tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def utc(timestamp: float | None) -> str:
    if timestamp is None:
        return "-"
    return datetime.fromtimestamp(float(timestamp), tz=UTC).strftime("%Y-%m-%d %H:%M UTC")


def choose_locale(asked: str | None, table: str | None, accept: str | None) -> str:
    """``?lang=`` when it names a language we have, else the table's, else the reader's
    browser's first of ours, else English."""
    if asked in LOCALES:
        return str(asked)
    if table in LOCALES:
        return str(table)
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LOCALES:
            return tag
    return DEFAULT_LOCALE


class Views:
    def __init__(self, root: Path = TEMPLATES) -> None:
        self.root = root

    @functools.cache  # noqa: B019 - one Views per server, a handful of languages
    def env(self, locale: str) -> jinja2.Environment:
        folders = [self.root / locale / "web"]
        if locale != DEFAULT_LOCALE:
            folders.append(self.root / DEFAULT_LOCALE / "web")
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader([str(f) for f in folders]),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        env.filters["iso"] = iso
        env.filters["utc"] = utc
        env.globals["locales"] = LOCALES
        return env

    def render(self, name: str, locale: str, context: Mapping[str, Any]) -> str:
        return self.env(locale).get_template(name).render({"locale": locale, **context})

    def asset(self, name: str) -> Path | None:
        """A static file (``style.css``, ``page.js``) of the English folder."""
        if "/" in name or name.startswith("."):
            return None
        path = self.root / DEFAULT_LOCALE / "web" / "static" / name
        return path if path.is_file() else None
