"""Turn notifications and refusals into text, from the Jinja2 templates of a locale.

Lookup for template ``T`` of game ``G`` in locale ``L``: ``L/G/T``, ``L/T``, then
``en/G/T``, ``en/T``, and only then the notification's fallback the same way; each name
is tried with ``.txt`` then ``.j2``. Game engineers override any sentence by adding a file
under ``templates/<locale>/<game>/`` (event texts are ``event_<kind>.txt``).
"""

from __future__ import annotations

import importlib
import logging
import os
import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2

from bot.service.errors import Refused
from bot.service.notifications import Notification
from bot.viewtext import pretty

log = logging.getLogger(__name__)

TEMPLATES = Path(os.environ.get("URBANIST_TEMPLATES")
                 or Path(__file__).resolve().parent.parent / "templates")
DEFAULT_LOCALE = "en"


def utc_time(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")


def discord_time(timestamp: float) -> str:
    """Discord shows ``<t:UNIX:R>`` in each reader's own time zone, relative to now."""
    return f"<t:{int(timestamp)}:R>"


def duration(seconds: float) -> str:
    seconds = int(seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [f"{days} d" if days else "", f"{hours} h" if hours else "",
             f"{minutes} min" if minutes else ""]
    return " ".join(p for p in parts if p) or f"{seconds} s"


_LEGAL_SUFFIX = re.compile(r"\s+(?:Possible now|Legal now):.*\Z", re.S)
_RESTATED = re.compile(r".* is not possible now\.?\Z", re.S)


def reason_text(message: str) -> str:
    """The engine's reason, ready to follow "`X` is not possible now:": empty when the
    message only restates that (so a refusal never says it twice), and without the
    engine's own list of legal moves (the template lists the options itself)."""
    text = _LEGAL_SUFFIX.sub("", message or "").strip()
    return "" if _RESTATED.fullmatch(text) else text


@jinja2.pass_context
def game_words(context: Any, value: Any, kind: str) -> str:
    """``value`` (a card, a character...) in words, from the game's own glossary
    (``engine.<game>.render.words.<kind>_text(value, locale)``); the bare value when the
    game has none."""
    game, locale = context.get("game"), context.get("locale", DEFAULT_LOCALE)
    try:
        module = importlib.import_module(f"engine.{game}.render.words")
        describe = getattr(module, f"{kind}_text")
    except (ImportError, AttributeError):
        return str(value)
    return str(describe(value, locale))


def option_value(value: Any) -> str:
    """A game option's value as a player types it (``true``, not Python's ``True``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "-" if value is None else str(value)


class Renderer:
    """``time_format`` turns a Unix time into text: ``discord_time`` for Discord,
    ``utc_time`` (default) for the console."""

    def __init__(self, root: Path = TEMPLATES, *,
                 time_format: Callable[[float], str] = utc_time) -> None:
        self.root = root
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(root)),
            undefined=jinja2.StrictUndefined,  # a typo in a template fails loudly in tests
            autoescape=False,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=False,
        )
        self.env.filters["when"] = lambda t: "-" if t is None else time_format(float(t))
        self.env.filters["duration"] = duration
        self.env.filters["pretty"] = pretty
        self.env.filters["optval"] = option_value
        self.env.filters["reason"] = reason_text
        self.env.filters["words"] = game_words

    def candidates(self, template: str, *, locale: str, game: str | None = None,
                   fallback: str | None = None) -> list[str]:
        names = [template] + ([fallback] if fallback else [])
        locales = [locale] + ([DEFAULT_LOCALE] if locale != DEFAULT_LOCALE else [])
        found = []
        # The template itself in any locale beats its fallback: an English sentence about
        # a game event says more to a French reader than the generic dump of its data.
        for name in names:
            for loc in locales:
                for base in ([f"{loc}/{game}/{name}"] if game else []) + [f"{loc}/{name}"]:
                    found += [f"{base}.txt", f"{base}.j2"]
        return found

    def render_template(self, template: str, context: Mapping[str, Any], *, locale: str,
                        game: str | None = None, fallback: str | None = None) -> str:
        ctx = {"locale": locale, "game": game, **context}
        last_error: Exception | None = None
        for name in self.candidates(template, locale=locale, game=game, fallback=fallback):
            if not (self.root / name).is_file():
                continue
            try:
                return self.env.get_template(name).render(ctx).strip()
            except jinja2.TemplateError as exc:
                # A broken game template must not silence the message: try the next one.
                log.error("template %s failed: %s", name, exc)
                last_error = exc
        raise LookupError(f"no usable template for {template!r} ({locale}, {game})") \
            from last_error

    def render(self, note: Notification) -> str:
        return self.render_template(note.template, note.context, locale=note.locale,
                                    game=note.game, fallback=note.fallback)

    def refusal(self, refused: Refused, *, locale: str, game: str | None = None) -> str:
        return self.render_template(refused.template, refused.context, locale=locale,
                                    game=game, fallback="refusal")
