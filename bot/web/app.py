"""The web pages of the tables: an aiohttp application, read-only over the store.

``/`` the listed tables, ``/u/<player>`` a player's finished games and ratings,
``/t/<table>`` a public table's page (``/p/<token>`` a private one's), and under either:
``/replay/<version>`` one public state of the game, ``/board-<version>.png``,
``/scores.png``, ``/timelapse.gif`` and ``/events`` (server-sent events: the page
fetches itself again when the table changes). ``?lang=en|fr`` switches the language.

Nothing here writes the database, and nothing private is read: the pages show the
public view and the public log (see ``bot.web.source``). A private table's number
answers as a table that does not exist; its token, not its number, opens it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot import images
from bot.service.notifications import FileSpec
from bot.store import pages
from bot.store.interface import Store
from bot.web.imagecache import Picture, RenderCache
from bot.web.live import Watchers
from bot.web.sentences import Sentences
from bot.web.source import Lru, PageSource, TablePage
from bot.web.views import Views, choose_locale

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

HEARTBEAT = 15.0  # seconds between comments on an idle event stream (proxies close them)
RECENT = 14 * 86400  # finished tables this recent are on the index
LIST_LIVE = 30
LIST_FINISHED = 20
SECURITY_HEADERS = {
    # A private table's address is its secret: never sent on to another site.
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": ("default-src 'self'; img-src 'self'; style-src 'self'; "
                                "script-src 'self'; base-uri 'none'; form-action 'none'; "
                                "frame-ancestors 'none'"),
}


@dataclass(frozen=True)
class Found:
    """A table a request names, and the path its pages live under."""

    page: TablePage
    base: str
    private: bool


class NotFound(Exception):
    pass


class WebApp:
    def __init__(self, store: Store, *, poll: float = 1.0, fresh: float = 0.5,
                 image_bytes: int = 64 * 1024 * 1024, spread: float = 0.5) -> None:
        """``spread``: each stream tells its page of a change after a random wait of up to
        this many seconds, so a hundred pages do not all ask at the same instant."""
        self.store = store
        self.fresh = fresh
        self.spread = spread
        self.source = PageSource(store, fresh=fresh)
        self.images = RenderCache(image_bytes)
        # Pages written, by (path, table change, language): after a move, a hundred
        # viewers asking at once get one page written, in a thread.
        self.pages = RenderCache(16 * 1024 * 1024)
        self.watchers = Watchers(self.source, poll)
        self.views = Views()
        self.sentences = Sentences()
        self._access: Lru[int, tuple[float, pages.PageAccess]] = Lru(4096)
        self._tokens: Lru[str, tuple[float, int | None]] = Lru(4096)

    # ---------------------------------------------------------------- the application

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._headers])
        add = app.router.add_get
        add("/", self.index)
        add("/u/{player}", self.player)
        add("/static/{name}", self.static)
        for prefix in (r"/t/{table:\d{1,18}}", r"/p/{token:[A-Za-z0-9_-]{16,64}}"):
            add(prefix, self.table)
            add(prefix + "/replay", self.replay_start)
            add(prefix + r"/replay/{version:\d{1,9}}", self.replay)
            add(prefix + r"/board-{version:\d{1,9}}.png", self.board)
            add(prefix + "/scores.png", self.scores)
            add(prefix + "/timelapse.gif", self.timelapse)
            add(prefix + "/events", self.events)
        app.on_shutdown.append(self._on_shutdown)
        return app

    async def _on_shutdown(self, app: web.Application) -> None:
        await self.watchers.close()

    @web.middleware
    async def _headers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response = await handler(request)
        except (NotFound, web.HTTPNotFound):  # ours, or an address no route matches
            response = self._not_found(request)
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    def _not_found(self, request: web.Request) -> web.Response:
        locale = choose_locale(request.query.get("lang"), None,
                               request.headers.get("Accept-Language"))
        body = self.views.render("not_found.html", locale, {"lang_links": self._langs(
            request, locale)})
        return web.Response(text=body, status=404, content_type="text/html")

    # ---------------------------------------------------------------- finding a table

    async def _access_of(self, table_id: int) -> pages.PageAccess:
        cached = self._access.get(table_id)
        if cached is not None and time.monotonic() - cached[0] < self.fresh:
            return cached[1]
        found = await pages.access(self.store, table_id)
        self._access.put(table_id, (time.monotonic(), found))
        return found

    async def _token_table(self, token: str) -> int | None:
        cached = self._tokens.get(token)
        if cached is not None and time.monotonic() - cached[0] < self.fresh:
            return cached[1]
        found = await pages.table_of_token(self.store, token)
        self._tokens.put(token, (time.monotonic(), found))
        return found

    async def _find(self, request: web.Request) -> Found:
        token = request.match_info.get("token")
        if token is not None:
            table_id = await self._token_table(token)
            if table_id is None:
                raise NotFound
            base, private = f"/p/{token}", True
        else:
            table_id = int(request.match_info["table"])
            if not (await self._access_of(table_id)).public:
                raise NotFound  # as if there were no such table: its number tells nothing
            base, private = f"/t/{table_id}", False
        page = await self.source.page(table_id)
        if page is None:
            raise NotFound
        return Found(page, base, private)

    # ---------------------------------------------------------------- HTML helpers

    @staticmethod
    def _langs(request: web.Request, current: str | None) -> list[dict[str, Any]]:
        return [{"locale": loc, "href": f"{request.path}?lang={loc}",
                 "current": loc == current} for loc in ("en", "fr")]

    @staticmethod
    def _suffix(request: web.Request) -> str:
        """``?lang=`` kept on the links of a page when the reader chose a language."""
        lang = request.query.get("lang")
        return f"?lang={lang}" if lang in ("en", "fr") else ""

    async def _html_response(self, request: web.Request, key: tuple[Any, ...], etag: str,
                             private: bool, make: Callable[[], str]) -> web.Response:
        tag = f'"{etag}"'
        cache = "private, no-cache" if private else "public, no-cache"
        headers = {"ETag": tag, "Cache-Control": cache, "Vary": "Accept-Language"}
        if request.headers.get("If-None-Match") == tag:
            return web.Response(status=304, headers=headers)

        async def write() -> Picture:
            # The log's sentences are template work: off the event loop.
            body = await asyncio.to_thread(make)
            return Picture(body.encode("utf-8"), "text/html")

        page = await self.pages.get(key, write)
        assert page is not None
        return web.Response(body=page.data, content_type="text/html", charset="utf-8",
                            headers=headers)

    def _table_context(self, request: web.Request, found: Found, locale: str) -> dict[str, Any]:
        page = found.page
        info = page.info
        suffix = self._suffix(request)
        seats = [{"seat": s.seat, "name": s.name, "is_bot": s.is_bot, "level": s.level}
                 for s in info.seats]
        waiting = [{"name": info.seats[s].name, "deadline": info.deadlines.get(s),
                    "is_bot": info.seats[s].is_bot}
                   for s in sorted(info.waiting) if s < len(info.seats)]
        dues = [w["deadline"] for w in waiting if w["deadline"] is not None]
        board = None
        if page.view is not None:
            board = {"src": f"{found.base}/board-{page.version}.png{suffix}",
                     "alt": images.describe(page.record.game, FileSpec("board", None),
                                            table_id=page.id, names=page.names,
                                            locale=locale)}
        finished = page.record.status == "finished" and page.record.outcome is not None
        scores = None
        if finished:
            scores = {"src": f"{found.base}/scores.png{suffix}",
                      "alt": images.describe(page.record.game, FileSpec("scores", None),
                                             table_id=page.id, names=page.names,
                                             outcome=page.record.outcome, locale=locale),
                      "timelapse": f"{found.base}/timelapse.gif{suffix}"}
        return {
            "table": {"id": page.id, "game": page.record.game, "status": page.record.status,
                      "version": page.version, "moves": len(page.actions),
                      "simultaneous": info.simultaneous, "seats": seats,
                      "waiting": waiting, "earliest": min(dues) if dues else None,
                      "updated_at": page.record.updated_at},
            "board": board, "scores": scores,
            "standings": self.sentences.standings(page, locale) if finished else [],
            "base": found.base, "suffix": suffix, "private": found.private,
            "lang_links": self._langs(request, locale),
        }

    # ---------------------------------------------------------------- table pages

    async def table(self, request: web.Request) -> web.StreamResponse:
        found = await self._find(request)
        page = found.page
        locale = choose_locale(request.query.get("lang"), page.record.locale, None)

        def make() -> str:
            context = self._table_context(request, found, locale)
            context["log"] = list(reversed(self.sentences.lines(page, locale)))
            context["events"] = f"{found.base}/events"
            context["etag"] = page.etag
            return self.views.render("table.html", locale, context)

        key = ("table", found.base, page.etag, locale, self._suffix(request))
        etag = f"{page.etag}-{locale}{self._suffix(request)}"
        return await self._html_response(request, key, etag, found.private, make)

    async def replay_start(self, request: web.Request) -> web.StreamResponse:
        found = await self._find(request)
        if found.page.view is None:
            raise NotFound
        raise web.HTTPFound(f"{found.base}/replay/1{self._suffix(request)}")

    async def replay(self, request: web.Request) -> web.StreamResponse:
        found = await self._find(request)
        page = found.page
        version = int(request.match_info["version"])
        if page.view is None or not 1 <= version <= page.version:
            raise NotFound
        locale = choose_locale(request.query.get("lang"), page.record.locale, None)
        replay = await self.source.replay(page)
        # A log that stops replaying (a bug elsewhere) ends the replay where it stops.
        last = replay.version
        if version > last:
            raise NotFound

        def make() -> str:
            context = self._table_context(request, found, locale)
            suffix = context["suffix"]
            action = next((a for a in page.actions if a.version == version), None)
            step = {
                "version": version, "move": version - 1, "moves": last - 1,
                "line": None if action is None else self.sentences.line(page, action, locale),
                "board": {"src": f"{found.base}/board-{version}.png{suffix}",
                          "alt": images.describe(page.record.game, FileSpec("board", None),
                                                 table_id=page.id, names=page.names,
                                                 locale=locale)},
                "first": f"{found.base}/replay/1{suffix}",
                "last": f"{found.base}/replay/{last}{suffix}",
                "prev": f"{found.base}/replay/{version - 1}{suffix}" if version > 1 else None,
                "next": f"{found.base}/replay/{version + 1}{suffix}" if version < last else None,
            }
            context["step"] = step
            return self.views.render("replay.html", locale, context)

        key = ("replay", found.base, page.etag, version, locale, self._suffix(request))
        etag = f"{page.etag}-{version}-{locale}{self._suffix(request)}"
        return await self._html_response(request, key, etag, found.private, make)

    # ---------------------------------------------------------------- images

    async def _picture(self, request: web.Request, found: Found, picture: Picture | None,
                       max_age: int) -> web.Response:
        if picture is None:
            raise NotFound
        scope = "private" if found.private else "public"
        headers = {"ETag": picture.etag, "Cache-Control": f"{scope}, max-age={max_age}"}
        if request.headers.get("If-None-Match") == picture.etag:
            return web.Response(status=304, headers=headers)
        return web.Response(body=picture.data, content_type=picture.content_type,
                            headers=headers)

    async def board(self, request: web.Request) -> web.StreamResponse:
        found = await self._find(request)
        page = found.page
        version = int(request.match_info["version"])
        locale = choose_locale(request.query.get("lang"), page.record.locale, None)
        names = tuple(page.names)
        if page.view is None or not 1 <= version <= page.version:
            raise NotFound

        async def draw() -> Picture | None:
            view = await self.source.view_at(page, version)
            if view is None:
                return None
            data = await asyncio.to_thread(images.render_png, page.record.game,
                                           FileSpec("board", None), view, names=names,
                                           locale=locale)
            return None if data is None else Picture(data, "image/png")

        picture = await self.images.get((page.id, "board", version, locale, names), draw)
        # A past board never changes; the names on it could (a seat replaced).
        return await self._picture(request, found, picture, 3600)

    async def scores(self, request: web.Request) -> web.StreamResponse:
        found = await self._find(request)
        page = found.page
        locale = choose_locale(request.query.get("lang"), page.record.locale, None)
        if page.view is None or page.record.outcome is None:
            raise NotFound
        names = tuple(page.names)
        outcome = page.record.outcome

        async def draw() -> Picture | None:
            data = await asyncio.to_thread(images.render_png, page.record.game,
                                           FileSpec("scores", None), page.view or {},
                                           names=names, outcome=outcome, locale=locale)
            return None if data is None else Picture(data, "image/png")

        picture = await self.images.get((page.id, "scores", page.version, locale, names),
                                        draw)
        return await self._picture(request, found, picture, 3600)

    async def timelapse(self, request: web.Request) -> web.StreamResponse:
        found = await self._find(request)
        page = found.page
        locale = choose_locale(request.query.get("lang"), page.record.locale, None)
        if page.view is None or page.record.status != "finished":
            raise NotFound

        async def draw() -> Picture | None:
            replay = await self.source.replay(page)
            frames = round_frames(replay.views)
            data = await asyncio.to_thread(images.render_timelapse, page.record.game,
                                           frames, page.record.outcome, locale)
            return None if data is None else Picture(data, "image/gif")

        picture = await self.images.get((page.id, "timelapse", page.version, locale), draw)
        return await self._picture(request, found, picture, 86400)

    # ---------------------------------------------------------------- live updates

    async def events(self, request: web.Request) -> web.StreamResponse:
        found = await self._find(request)
        known = request.query.get("etag") or found.page.etag
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no"})
        await response.prepare(request)
        watch = self.watchers.follow(found.page.id, found.page.etag)
        try:
            # A reader that leaves ends the stream: nothing to tell anyone.
            with contextlib.suppress(ConnectionError):
                await response.write(b"retry: 3000\n\n")
                while not self.watchers.closing.is_set():
                    etag = await self.watchers.next_change(watch, known, HEARTBEAT)
                    if etag is None:
                        await response.write(b": ping\n\n")
                        continue
                    known = etag
                    if self.spread > 0:
                        await asyncio.sleep(random.uniform(0, self.spread))
                    await response.write(f"event: change\ndata: {etag}\n\n".encode())
        finally:
            self.watchers.leave(watch)
        with contextlib.suppress(ConnectionError):
            await response.write_eof()
        return response

    # ---------------------------------------------------------------- index and players

    async def index(self, request: web.Request) -> web.StreamResponse:
        locale = choose_locale(request.query.get("lang"), None,
                               request.headers.get("Accept-Language"))
        live = await pages.listed_tables(self.store, ["running", "paused"], limit=LIST_LIVE)
        done = await pages.listed_tables(self.store, ["finished"],
                                         since=time.time() - RECENT, limit=LIST_FINISHED)
        suffix = self._suffix(request)
        body = self.views.render("index.html", locale, {
            "live": live, "finished": done, "suffix": suffix,
            "lang_links": self._langs(request, locale)})
        return web.Response(text=body, content_type="text/html",
                            headers={"Cache-Control": "no-cache"})

    async def player(self, request: web.Request) -> web.StreamResponse:
        player = request.match_info["player"]
        locale = choose_locale(request.query.get("lang"), None,
                               request.headers.get("Accept-Language"))
        results = await pages.player_results(self.store, player)
        ratings = await pages.player_ratings(self.store, player)
        if not results and not ratings:
            raise NotFound
        mine = [r for r in results if r.player == player]
        name = mine[0].name if mine else ratings[0][1].name
        tables: dict[int, dict[str, Any]] = {}
        for r in mine:
            # One line a table, even for a bot that held several of its seats.
            entry = tables.setdefault(r.table_id, {"result": r, "players": [
                o for o in results if o.table_id == r.table_id]})
            if r.rank < entry["result"].rank:
                entry["result"] = r
        body = self.views.render("player.html", locale, {
            "name": name, "tables": list(tables.values()), "ratings": ratings,
            "suffix": self._suffix(request), "lang_links": self._langs(request, locale)})
        return web.Response(text=body, content_type="text/html",
                            headers={"Cache-Control": "no-cache"})

    async def static(self, request: web.Request) -> web.StreamResponse:
        path = self.views.asset(request.match_info["name"])
        if path is None:
            raise NotFound
        return web.FileResponse(path, headers={"Cache-Control": "public, max-age=3600"})


def round_frames(views: list[dict[str, Any]], limit: int = 60) -> list[dict[str, Any]]:
    """The public board at the start of each round, then the end (the channel's
    timelapse: ``bot.discord.timelapse.round_views``, from views already replayed)."""
    if not views:
        return []
    frames = [views[0]]
    for view in views[1:]:
        if view.get("round") is None or view.get("round") != frames[-1].get("round"):
            frames.append(view)
    if frames[-1] is not views[-1] and frames[-1] != views[-1]:
        frames.append(views[-1])
    if len(frames) > limit:
        step = len(frames) / limit
        frames = [frames[int(i * step)] for i in range(limit - 1)] + [frames[-1]]
    return frames
