"""Images for a notification's ``FileSpec``: PNG bytes from the games' pure renderers.

Each game may ship ``engine/<game>/render`` with ``render_board(view)`` (the public
board), ``render_private(view)`` (one seat's hand and tiles), ``render_final(view,
outcome)`` (the final scores) and ``render_timelapse(views)``; a renderer that wants
the players' names takes a ``names`` keyword. Whatever a game lacks yields no image:
the text always carries the information, the image is a courtesy.

Rendering is CPU work (a tenth of a second or so), so ``render_async`` runs it in a
thread, and the event loop keeps answering interactions meanwhile.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import inspect
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from bot.service.notifications import FileSpec
from bot.text import Renderer

log = logging.getLogger(__name__)

# Discord refuses uploads above 10 MiB (the limit for bots without a boosted server).
MAX_FILE_BYTES = 10 * 1024 * 1024


# Discord's limit for an attachment's description (the alt text screen readers say).
MAX_ALT_CHARS = 1024
ELLIPSIS = "…"


@dataclass(frozen=True)
class Image:
    filename: str
    data: bytes
    description: str = ""  # alt text; every image posted says in words what it shows

    @property
    def alt(self) -> str:
        """The description, or one read from the file name (``timelapse-3.gif``)."""
        if self.description:
            return cut(self.description)
        kind, _, rest = self.filename.partition("-")
        return f"{kind.capitalize()} image of table #{rest.split('.')[0]}"


def describe(game: str, spec: FileSpec, *, table_id: int, names: Sequence[str] = (),
             outcome: Mapping[str, Any] | None = None, locale: str = "en",
             view: Mapping[str, Any] | None = None) -> str:
    """The alt text of an image, from the ``image_alt`` template of ``locale``. A seat's
    own image says its private situation in words (``view``, that seat's), for whoever
    cannot see it: the DM that carries it no longer lists the hand."""
    kind = "hand" if spec.kind == "board" and spec.seat is not None else spec.kind
    standings = []
    for s in (outcome or {}).get("standings", []):
        seat = s.get("seat")
        name = names[seat] if isinstance(seat, int) and seat < len(names) else s.get("name")
        standings.append({"rank": s.get("rank"), "name": name, "total": s.get("total")})
    text = _renderer().render_template(
        "image_alt", {"kind": kind, "table_id": table_id, "names": list(names),
                      "standings": standings,
                      # Only a seat's own image may say what only that seat sees.
                      "view": view if kind == "hand" else None},
        locale=locale, game=game)
    return cut(" ".join(text.split()))


def cut(text: str, limit: int = MAX_ALT_CHARS) -> str:
    """``text`` within ``limit`` characters: cut after a whole word, with an ellipsis,
    so that a screen reader never says half a word."""
    if len(text) <= limit:
        return text
    head = text[: limit - len(ELLIPSIS)]
    if " " in head:
        head = head.rsplit(" ", 1)[0]
    return head.rstrip(" ,;:") + ELLIPSIS


@functools.cache
def _renderer() -> Renderer:
    return Renderer()


def renderer_module(game: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"engine.{game}.render")
    except ModuleNotFoundError as exc:
        if exc.name is not None and f"engine.{game}.render".startswith(exc.name):
            return None
        raise


def _call(func: Callable[..., bytes], *args: Any, names: Sequence[str],
          locale: str = "en") -> bytes:
    # Renderers differ in whether they take the names and the language: pass them only
    # where wanted.
    wanted = inspect.signature(func).parameters
    extra: dict[str, Any] = {}
    if "names" in wanted:
        extra["names"] = list(names)
    if "locale" in wanted:
        extra["locale"] = locale
    return func(*args, **extra)


def render_png(game: str, spec: FileSpec, view: Mapping[str, Any], *,
               names: Sequence[str] = (), outcome: Mapping[str, Any] | None = None,
               locale: str = "en") -> bytes | None:
    """PNG bytes for ``spec`` drawn from ``view`` (the view of ``spec.seat``), or None when
    the game has no renderer for it. Synchronous and CPU bound: see ``render_async``."""
    module = renderer_module(game)
    if module is None:
        return None
    if spec.kind == "board":
        func = getattr(module, "render_private", None) if spec.seat is not None else None
        if func is not None:
            return _call(func, view, names=names, locale=locale)
        board = getattr(module, "render_board", None)
        return None if board is None else _call(board, view, names=names, locale=locale)
    if spec.kind == "scores":
        final = getattr(module, "render_final", None)
        if final is None or outcome is None:
            return None
        return _call(final, view, dict(outcome), names=names, locale=locale)
    return None


def render_timelapse(game: str, views: Sequence[Mapping[str, Any]],
                     outcome: Mapping[str, Any] | None = None,
                     locale: str = "en") -> bytes | None:
    """GIF bytes of the public board over the game, for games that can draw one; the
    ``outcome`` goes to a renderer that takes it (its last frame shows the scores)."""
    module = renderer_module(game)
    func = None if module is None else getattr(module, "render_timelapse", None)
    if func is None or not views:
        return None
    wanted = inspect.signature(func).parameters
    extra: dict[str, Any] = {}
    if outcome is not None and "outcome" in wanted:
        extra["outcome"] = dict(outcome)
    if "locale" in wanted:
        extra["locale"] = locale
    data: bytes = func(list(views), **extra)
    return data


def filename_for(spec: FileSpec, table_id: int) -> str:
    """Public and private images are named apart, so a test (or a person) can tell them
    apart at a glance: ``board-12.png``, ``scores-12.png``, ``hand-12.png``."""
    kind = "hand" if spec.kind == "board" and spec.seat is not None else spec.kind
    return f"{kind}-{table_id}.png"


async def render_async(game: str, spec: FileSpec, view: Mapping[str, Any], *, table_id: int,
                       names: Sequence[str] = (),
                       outcome: Mapping[str, Any] | None = None,
                       locale: str = "en") -> Image | None:
    """``render_png`` in a worker thread. A renderer's failure is logged and yields no
    image: a broken picture must never hold up a game."""
    loop = asyncio.get_running_loop()
    job = functools.partial(render_png, game, spec, view, names=names, outcome=outcome,
                            locale=locale)
    try:
        data = await loop.run_in_executor(None, job)
    except Exception:
        log.exception("rendering %s for table %d (%s) failed", spec, table_id, game)
        return None
    if data is None:
        return None
    if len(data) > MAX_FILE_BYTES:
        log.warning("image %s for table %d is %d bytes: too big for Discord", spec, table_id,
                    len(data))
        return None
    return Image(filename_for(spec, table_id), data,
                 describe(game, spec, table_id=table_id, names=names, outcome=outcome,
                          locale=locale, view=view))
