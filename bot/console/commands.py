"""The console's own commands, beside the moves: what a player asks to see (options,
views, the log, the rules, the images) rather than plays. Each answers from the service
and the templates, and changes nothing at the table."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bot.images import render_async
from bot.service import Actor, Notification, TableService
from bot.service.notifications import FileSpec
from bot.service.values import LogEntry, TableInfo
from bot.text import Renderer
from engine.core import game_names, get_game

# The console's own commands in French words too (the French help names them first);
# none of them is the text of a game action.
COMMAND_WORDS = {"aide": "help", "?": "help", "choix": "legal", "vue": "view",
                 "plateau": "board", "journal": "log", "changer": "change",
                 "quitter": "quit", "règles": "rules", "regles": "rules", "images": "image"}
NO_OPEN = "--no-open"
_BOLD = re.compile(r"\*\*(.+?)\*\*")


def plain(text: str) -> str:
    """Discord's bold marks (``**x**``) mean nothing in a terminal: the words stay."""
    return _BOLD.sub(r"\1", text)


def playable_games() -> list[str]:
    """The engine's games (test games registered by the test suite are left out)."""
    return [name for name in game_names()
            if type(get_game(name)).__module__.startswith("engine.")]


def viewer() -> list[str] | None:
    """The desktop's command that opens a file with its viewer, or None on a terminal
    with no desktop behind it (over ssh, in a container), where it would fail or hang."""
    if sys.platform == "darwin":
        return ["open"]
    found = shutil.which("xdg-open")
    if found and (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return [found]
    return None


class Commands:
    """What ``Session`` answers besides moves; it gives the attributes declared here."""

    service: TableService
    renderer: Renderer
    out: TextIO
    locale: str
    game: str | None
    image_dir: Path

    if TYPE_CHECKING:  # the Session's own, which these commands speak through
        def say(self, template: str, **context: object) -> None: ...

        def text(self, template: str, **context: object) -> str: ...

    async def answer(self, table: int, seat: int, actor: Actor, info: TableInfo,
                     command: str) -> bool:
        """Answer ``command`` if it is one of these (True), else leave it (False)."""
        word, _, rest = command.partition(" ")
        if command == "help":
            self.say("console_help")
        elif command == "legal":
            prompt = await self.service.prompt(table, actor)
            for i, option in enumerate(prompt.options, 1):
                self.out.write(f"  #{i}  {option.text}\n")
        elif command in ("view", "board"):
            view = await self.service.view(table, actor if command == "view" else None)
            self.say("view", view=view, names=_names(info))
        elif command == "log":
            for entry in await self.service.log(table):
                for line in self.log_lines(info, entry):
                    self.out.write(f"  {line}\n")
        elif command == "rules":
            self.out.write(plain(self.renderer.render_template(
                f"discord/rules_{info.game}", {"game": info.game, "games": playable_games()},
                locale=self.locale, game=info.game, fallback="discord/rules")) + "\n")
        elif word == "image" and rest.strip() in ("", NO_OPEN):
            await self.images(table, seat, actor, info, open_them=rest.strip() != NO_OPEN)
        else:
            return False
        return True

    def log_lines(self, info: TableInfo, entry: LogEntry) -> list[str]:
        """One move of the log as it read when it was played: the ``acted`` line and the
        public events, from the templates the live lines use."""
        base = {"table_id": info.id, "game": info.game, "names": _names(info), "seat": None,
                "name": None, "version": entry.version, "status": info.status,
                "host_id": info.host_id}
        notes = [self._note(info, "acted", {
            **base, "actor": entry.seat, "actor_name": entry.name, "source": entry.source,
            "text": entry.text, "secret": entry.text is None, "level": entry.level})]
        for event in entry.events:
            data = dict(event.get("data") or {})
            notes.append(self._note(info, f"event_{event.get('kind')}", {
                **base, **data, "data": data, "event": event.get("kind"), "to_seat": None},
                fallback="event"))
        lines = [plain(self.renderer.render(n)) for n in notes]
        return [line.replace("\n", "\n  ") for line in lines if line]

    def _note(self, info: TableInfo, template: str, context: Mapping[str, Any],
              fallback: str | None = None) -> Notification:
        return Notification(table_id=info.id, seat=None, template=template, context=context,
                            game=info.game, locale=self.locale, fallback=fallback)

    async def images(self, table: int, seat: int, actor: Actor, info: TableInfo, *,
                     open_them: bool) -> None:
        """The public board and the seat's private image as PNG files, named by table and
        seat so hot-seat players each keep their own."""
        names = _names(info)
        self.image_dir.mkdir(parents=True, exist_ok=True)
        paths: list[Path] = []
        for spec, view, name in (
                (FileSpec("board"), await self.service.view(table), f"board-{table}.png"),
                (FileSpec("board", seat), await self.service.view(table, actor),
                 f"hand-{table}-seat{seat + 1}.png")):
            image = await render_async(info.game, spec, view, table_id=table, names=names,
                                       locale=self.locale)
            if image is not None:
                path = self.image_dir / name
                await asyncio.to_thread(path.write_bytes, image.data)
                paths.append(path)
        command = viewer() if open_them and paths else None
        if command is not None:
            for path in paths:
                _launch([*command, str(path)])
        said = self.text("console_images", paths=[str(p) for p in paths],
                         opened=Path(command[0]).name if command else None, asked=open_them)
        self.out.write("  " + said.replace("\n", "\n  ") + "\n")


def _launch(argv: Sequence[str]) -> None:
    # Its own session, and no pipe back: the viewer outlives the game, and its chatter
    # never lands in the middle of the board.
    # A viewer that fails to start costs nothing: the paths are printed.
    with suppress(OSError):
        subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)


def _names(info: TableInfo) -> list[str]:
    return [s.name for s in info.seats]
