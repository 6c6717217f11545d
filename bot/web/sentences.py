"""The public log in sentences: the same templates as the channel's news (``acted``,
``event_<kind>``, the games' own), one line per move, and the final breakdown's lines.

The templates write for Discord and the console (``**bold**``, `` `code` ``); a page
gets them escaped, with those two marks as HTML.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from bot.store.records import ActionRecord
from bot.text import Renderer
from bot.web.source import Lru, TablePage

log = logging.getLogger(__name__)

_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"\*\*([^*\n]+)\*\*")


def marked(text: str) -> Markup:
    """``text`` escaped for HTML, with Discord's `` `code` `` and ``**bold**``."""
    html = str(escape(text))
    html = _CODE.sub(r"<code>\1</code>", html)
    html = _BOLD.sub(r"<strong>\1</strong>", html)
    return Markup(html)


@dataclass(frozen=True)
class LogLine:
    version: int  # the table version the move made
    seat: int
    name: str
    source: str
    secret: bool
    at: float
    html: Markup


def _base(page: TablePage, version: int) -> dict[str, Any]:
    r = page.record
    return {"table_id": r.id, "game": r.game, "names": page.names, "seat": None,
            "name": None, "version": version, "status": r.status, "host_id": r.host_id}


def _level(page: TablePage, action: ActionRecord) -> str | None:
    if action.source in ("timeout", "admin"):
        return page.late_level
    return page.bot_levels.get(action.seat) if action.source == "bot" else None


class Sentences:
    def __init__(self, renderer: Renderer | None = None, lines: int = 20_000) -> None:
        self.renderer = renderer or Renderer()
        # A move's line never changes (but for the names in it): written once. Pages are
        # written in threads, hence the lock.
        self._lines: Lru[tuple[Any, ...], LogLine] = Lru(lines)
        self._lock = threading.Lock()

    def _say(self, template: str, context: Mapping[str, Any], *, locale: str, game: str,
             fallback: str | None = None) -> str:
        try:
            return self.renderer.render_template(template, context, locale=locale, game=game,
                                                 fallback=fallback)
        except LookupError:
            log.warning("no sentence for %s (%s, %s)", template, game, locale)
            return ""

    def line(self, page: TablePage, action: ActionRecord, locale: str) -> LogLine:
        """One move's sentences on one line, as the channel's news joins them: the
        move's code is left out when its events tell it in words."""
        key = (page.id, action.version, locale, tuple(page.names))
        with self._lock:
            known = self._lines.get(key)
        if known is not None:
            return known
        made = self._line(page, action, locale)
        with self._lock:
            self._lines.put(key, made)
        return made

    def _line(self, page: TablePage, action: ActionRecord, locale: str) -> LogLine:
        game = page.record.game
        names = page.names
        name = names[action.seat] if action.seat < len(names) else "?"
        texts: list[str] = []
        told = False
        for event in action.events:
            if event.get("to") is not None:
                continue  # the store keeps public events only; a page shows no other
            data = dict(event.get("data") or {})
            context = {**_base(page, action.version), **data, "data": data,
                       "event": event.get("kind"), "to_seat": None}
            text = self._say(f"event_{event.get('kind')}", context, locale=locale,
                             game=game, fallback="event")
            told = told or data.get("seat") == action.seat
            texts.append(text)
        acted = action.public_text is not None or action.source in ("timeout", "admin")
        if acted and not (told and action.source == "player"):
            context = {**_base(page, action.version), "actor": action.seat,
                       "actor_name": name, "source": action.source,
                       "text": action.public_text, "secret": action.public_text is None,
                       "level": _level(page, action), "note": None}
            texts.insert(0, self._say("acted", context, locale=locale, game=game))
        if not texts:
            context = {**_base(page, action.version), "actor": action.seat,
                       "actor_name": name, "source": action.source, "text": None,
                       "secret": True, "level": _level(page, action), "note": None}
            texts.append(self._say("acted", context, locale=locale, game=game))
        joined = " ".join(" ".join(t.split()) for t in texts if t.strip())
        return LogLine(action.version, action.seat, name, action.source,
                       action.public_text is None, action.at, marked(joined))

    def lines(self, page: TablePage, locale: str) -> list[LogLine]:
        return [self.line(page, a, locale) for a in page.actions]

    def standings(self, page: TablePage, locale: str) -> list[dict[str, Any]]:
        """The final breakdown: each standing with its lines in words."""
        outcome = page.record.outcome or {}
        game = page.record.game
        rows = []
        for s in sorted(outcome.get("standings", []), key=lambda s: s.get("rank", 0)):
            seat = s.get("seat")
            name = page.names[seat] if isinstance(seat, int) and seat < len(page.names) \
                else s.get("name", "?")
            lines = []
            for line in s.get("lines", []):
                context = {**_base(page, page.version), "line": line}
                words = self._say("score_line", context, locale=locale, game=game,
                                  fallback="common/score_line")
                lines.append({"points": line.get("points", 0),
                              "html": marked(words or str(line.get("key", "")))})
            rows.append({"rank": s.get("rank"), "name": name, "total": s.get("total"),
                         "lines": lines})
        return rows
