"""The console front end: hot-seat play for the humans, bots for the rest.

Table notifications print as they come. A seat's private notifications print in their
place among the table's when that seat is at the screen (it is playing, or it is the
only human); for the others they wait until that seat's turn, so players sharing one
screen only see their own secrets. Reads one command per line, so it runs the same from
a keyboard or a piped file.

The table is saved after every move: ``quit``, end of input (Ctrl-D) and Ctrl-C all
leave it unfinished in the database and say how to resume it.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections import defaultdict
from collections.abc import Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any, TextIO

from bot.console.commands import COMMAND_WORDS, Commands, plain
from bot.console.screen import Interrupt, clear_screen, line_editor
from bot.console.tables import (
    LOCAL_CHANNEL,
    LocalTable,
    db_flag,
    local_tables,
    new_table_flags,
)
from bot.service import Actor, Notification, Refused, TableService, TableSettings
from bot.service.decisions import CHANGEABLE
from bot.service.notifications import Delivery
from bot.service.values import TableInfo
from bot.store import SqliteStore
from bot.store.health import StorageError
from bot.store.sqlite_read_only import read_only
from bot.store.sqlite_writable import open_writable
from bot.text import Renderer
from engine.core.textinput import is_ascii_number

EXIT_INTERRUPTED = 130  # the shell's convention for a program stopped by Ctrl-C
# Notes a terminal has no use for: the lobby's status and each bot taking its seat (one
# line names the bots, and the seats are listed at the start).
QUIET = frozenset({"lobby", "bot_added"})


class ConsoleNotifier:
    inline = True  # printed at once, in order, after each commit

    def __init__(self, out: TextIO, renderer: Renderer) -> None:
        self.out = out
        self.renderer = renderer
        self.private: defaultdict[int, list[Notification]] = defaultdict(list)
        self.at_screen: set[int] = set()  # seats whose secrets may print as they come
        # The table's lines since the last hot-seat move: printed again once the screen
        # is cleared of that player's secrets, so the next one still reads them.
        self.public_since: list[str] = []

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        for n in notes:
            if n.template in QUIET:
                continue
            if n.seat is None:
                line = plain(self.renderer.render(n)) + "\n"
                self.public_since.append(line)
                self.write(line)
            elif n.seat in self.at_screen:
                self.print_private(n)
            else:
                self.private[n.seat].append(n)
        return {}

    def flush_private(self, seat: int) -> None:
        for n in self.private.pop(seat, []):
            self.print_private(n)

    def print_private(self, n: Notification) -> None:
        mark = self.renderer.render_template("console_private", {}, locale=n.locale)
        self.write(f"  {mark} " + plain(self.renderer.render(n)).replace("\n", "\n  ")
                   + "\n")

    def write(self, text: str) -> None:
        # The reader may have gone (``| head``): the move is saved all the same, and the
        # session's next write ends it quietly (bot.cli); nothing to report here.
        with suppress(BrokenPipeError):
            self.out.write(text)


class Stop(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


async def run_local(game: str | None, players: int = 2, bots: int = 0, *,
                    db: Path | None = None, seed: int | None = None,
                    locale: str | None = None,
                    stdin: TextIO, out: TextIO, options: Mapping[str, Any] | None = None,
                    names: Sequence[str] = (), resume: int | None = None,
                    new: bool = False, level: str | None = None) -> int:
    """Play a local table: table ``resume``, else (unless ``new``) the latest unfinished
    local table of ``game``, else a new one. ``db`` None keeps it in a temporary file.
    ``locale`` None: a resumed table speaks its own language, a new one English."""
    humans = players - bots
    if humans < 0:
        out.write("--bots cannot exceed --players\n")
        return 2
    with tempfile.TemporaryDirectory(prefix="urbanist-") as tmp:
        # A damaged file is refused here, before a move could be typed into it.
        store = await open_writable(db or Path(tmp) / "local.sqlite3")
        session = Session(store, locale, stdin, out, db_hint=db_flag(db))
        try:
            try:
                typed = new_table_flags(players, bots, options or {}, names, level, seed)
                table = await session.find(game, resume, new)
                if db is not None and await asyncio.to_thread(read_only, db):
                    # Said before a move is typed that could not be saved.
                    raise StorageError("read_only", session.text("console_read_only",
                                                                 path=str(db)), path=str(db))
                if table is not None and typed:
                    await session.keeps_its_own(table, typed)
            except Stop as stop:
                return stop.code
            if table is None:
                table = await session.create(game, humans, bots, seed, options or {}, names,
                                             level)
            if table is None:
                return 2
            return await session.play(table)
        finally:
            await session.service.close()  # the AI's worker processes
            await store.close()


class Session(Commands):
    def __init__(self, store: SqliteStore, locale: str | None, stdin: TextIO,
                 out: TextIO, *, db_hint: str = "") -> None:
        self.store = store
        self.db_hint = db_hint  # `` --db PATH`` in every command the player is told
        self.image_dir = Path(tempfile.gettempdir()) / "urbanist"
        self.chosen_locale = locale  # None: the resumed table's own
        self.locale = locale or "en"
        self.stdin = stdin
        self.out = out
        self.renderer = Renderer()
        self.notifier = ConsoleNotifier(out, self.renderer)
        self.service = TableService(store, self.notifier)
        self.interrupt = Interrupt(self._stopping)
        self.editing = line_editor(stdin, out)
        self.game: str | None = None
        self.actors: dict[int, Actor] = {}  # human seat -> who plays it
        self.resumed = False
        self.keyboard: int | None = None  # the hot-seat player whose secrets are on screen
        # (seat, table version) right after that seat's own move: if the table is still
        # there at its next decision, nobody else moved and the board is not printed again.
        self.moved: tuple[int, int] | None = None

    def say(self, template: str, **context: object) -> None:
        self.out.write(self.text(template, **context) + "\n")

    def text(self, template: str, **context: object) -> str:
        return plain(self.renderer.render_template(template, {"db": self.db_hint, **context},
                                                   locale=self.locale, game=self.game))

    def who(self, info: TableInfo, seat: int, view: Mapping[str, Any]) -> str:
        """A seat as the terminal names it: the name, the seat number and its colours."""
        return self.text("console_who", name=info.seats[seat].name, seat=seat,
                         colours=_colours(view, seat))

    async def find(self, game: str | None, resume: int | None, new: bool) -> int | None:
        """The table to resume, if any (None: create one)."""
        if resume is not None:
            mine = {t.id for t in await local_tables(self.store)}
            if resume not in mine:
                self.say("console_no_table", table=resume)
                raise Stop(2)
            self.resumed = True
            by_id = {t.id: t for t in await local_tables(self.store)}
            self._speak(by_id[resume])
            self.say("console_resuming", table=resume, game=by_id[resume].game, others=0)
            return resume
        if new:
            return None
        found = await local_tables(self.store, game=game)
        if not found:
            if game is None:
                self.say("console_nothing_to_resume")
                raise Stop(2)
            return None
        table = found[0]
        self._speak(table)
        self.say("console_resuming", table=table.id, game=table.game, others=len(found) - 1)
        self.resumed = True
        return table.id

    async def keeps_its_own(self, table: int, typed: Sequence[str]) -> None:
        """A resumed table keeps its seats and options: say so, rather than let what was
        typed for a new table pass as if it applied."""
        info = await self.service.info(table)
        self.say("console_keeps_its_own", table=table, game=info.game, seats=len(info.seats),
                 bots=sum(s.is_bot for s in info.seats), flags=" ".join(typed))

    def _speak(self, table: LocalTable) -> None:
        """A resumed table goes on in its own language unless --locale says otherwise."""
        if self.chosen_locale is None:
            self.locale = table.locale

    async def create(self, game: str | None, humans: int, bots: int, seed: int | None,
                     options: Mapping[str, Any], names: Sequence[str],
                     level: str | None = None) -> int | None:
        assert game is not None
        self.game = game
        people = [Actor(f"local:{i + 1}", _name(names, i)) for i in range(humans)]
        host = people[0] if people else Actor("local:host", "Host")
        service = self.service
        try:
            # Nobody waits at a kitchen table: no deadlines, so no AI plays for a human.
            settings = TableSettings(locale=self.locale, timeout_policy="none", ai_level=level)
            info = await service.create(host, game, settings=settings, seed=seed,
                                        options=dict(options), max_seats=humans + bots,
                                        join=bool(people), channel_id=LOCAL_CHANNEL)
            for person in people[1:]:
                await service.join(info.id, person)
            for _ in range(bots):
                await service.add_bot(info.id, host)
            if bots:
                seated = await service.info(info.id)
                self.say("console_bots", bots=[s.name for s in seated.seats if s.is_bot])
            await service.start(info.id, host)
        except Refused as exc:
            self._stop_on_storage(exc)
            self.out.write(self.renderer.refusal(exc, locale=self.locale, game=game) + "\n")
            return None
        return info.id

    async def play(self, table: int) -> int:
        with self.interrupt.installed():
            try:
                return await self._play(table)
            except KeyboardInterrupt:
                pass
            except asyncio.CancelledError:
                if not self.interrupt.stopped():
                    raise
            self.out.write("\n")
            self._saved(table)
            return EXIT_INTERRUPTED

    def _stopping(self, after_move: bool) -> None:
        self.out.write("\n" + self.text("console_stopping", after_move=after_move) + "\n")
        self.out.flush()

    def _saved(self, table: int) -> None:
        self.say("console_saved", table=table)

    def _stop_on_storage(self, refused: Refused | None = None) -> None:
        """A storage fault (a full disk...) ends the session, the table as last saved:
        the command line says what is wrong with which file in one line (exit 3), where
        a player at a table in Discord gets the service's polite refusal. A refusal of
        another kind goes on, as does no refusal while no fault was met."""
        if refused is not None and refused.code != "storage":
            return
        fault = self.store.fault
        if fault is None and refused is not None:
            fault = StorageError(str(refused.context.get("fault", "io_error")),
                                 f"{self.store.path}: {refused.message}", path=self.store.path)
        if fault is not None:
            raise fault

    async def _play(self, table: int) -> int:
        service, out = self.service, self.out
        info = await service.info(table)
        self.game = info.game
        host = Actor(info.host_id, "Host")
        by_user = {s.user_id: Actor(s.user_id, s.name) for s in info.seats
                   if s.user_id and not s.is_bot}
        self.actors = {s.seat: by_user.get(s.user_id or "", host) for s in info.seats
                       if not s.is_bot}
        humans = [s.seat for s in info.seats if not s.is_bot]
        if len(humans) == 1:
            self.notifier.at_screen = {humans[0]}  # nobody else looks at this screen
        if not humans:
            self.say("console_all_bots", game=info.game, seats=len(info.seats))
        if humans:
            self.say("console_help")
            view = await service.view(table)
            self.say("console_seats", seats=[{"who": self.who(info, s.seat, view),
                                               "bot": s.is_bot} for s in info.seats])
        await self._bots_catch_up(table, host)
        while True:
            with self.interrupt.waiting():
                await service.settle(table)  # bots that think in the pool play first
            info = await service.info(table)
            if info.status != "running":
                break
            waiting = [s for s in sorted(info.waiting) if not info.seats[s].is_bot]
            if not waiting:
                self._stop_on_storage()  # the bots could not save their moves
                break
            seat = waiting[0]
            user = info.seats[seat].user_id
            actor = by_user.get(user or "", host)
            if not self._pass_keyboard(info, seat):
                self._saved(table)
                return 0
            out.write("\n")
            self.say("console_turn", who=self.who(info, seat, await service.view(table)),
                     decision=info.waiting[seat])
            self.notifier.flush_private(seat)
            if self.moved == (seat, info.version):
                # The next step of the same turn: only the seat's own move changed the
                # table, so the prompt above is enough (``board`` shows it all).
                self.say("console_same_turn")
            else:
                self.say("view", view=await service.view(table, actor), names=_names(info))
            if self.resumed:  # what was said before the last run stopped: say it again
                self.resumed = False
                self.notifier.print_private(await service.hand(table, actor))
            done = await self._turn(table, seat, actor, info)
            if done is not None:
                return done
        info = await service.info(table)
        return 0 if info.status == "finished" else 1

    def _pass_keyboard(self, info: TableInfo, seat: int) -> bool:
        """Hot seat: before ``seat``'s secrets show, clear the last player's off the screen
        and wait for the keyboard to change hands. False: the input ended meanwhile.
        Only at a terminal: a piped script has no hands to change."""
        if (sum(not s.is_bot for s in info.seats) < 2 or seat == self.keyboard
                or not self.stdin.isatty()):
            return True
        if self.keyboard is not None and clear_screen(self.out):
            for line in self.notifier.public_since:
                self.notifier.write(line)
        self.keyboard = None
        self.out.write("\n")
        if not self._read(self.text("console_pass", name=info.seats[seat].name) + " "):
            self.out.write("\n")
            return False
        self.keyboard = seat
        return True

    async def _bots_catch_up(self, table: int, host: Actor) -> None:
        """A resumed table may owe bot moves (the last run stopped before them)."""
        with self.interrupt.waiting():
            await self.service.settle(table)
        info = await self.service.info(table)
        for seat in sorted(info.waiting):
            if info.status == "running" and info.seats[seat].is_bot:
                try:
                    # A hard bot thinks here too: Ctrl-C stops the wait at once (the
                    # move's save, shielded, completes or is thought again on resuming).
                    with self.interrupt.waiting():
                        await self.service.play_for(table, host, seat)
                except Refused as exc:  # played meanwhile by the bots' own turn
                    self._stop_on_storage(exc)

    def _read(self, prompt: str) -> str:
        """A line, with its newline ("" at the end of input), after ``prompt``."""
        self.interrupt.reading = True
        try:
            if self.interrupt.pending:
                raise KeyboardInterrupt
            if self.editing:
                try:
                    return input(prompt) + "\n"
                except EOFError:
                    return ""
            self.out.write(prompt)
            self.out.flush()
            return self.stdin.readline()
        finally:
            self.interrupt.reading = False

    async def _turn(self, table: int, seat: int, actor: Actor, info: TableInfo) -> int | None:
        """One seat's decision: None when it is made, an exit code to stop."""
        service, out = self.service, self.out
        name = info.seats[seat].name
        while True:
            line = self._read(f"{name}> ")
            if not line:  # end of input (Ctrl-D): leave like ``quit``
                out.write("\n")
                self._saved(table)
                return 0
            command = line.strip()
            if not self.stdin.isatty():
                out.write(command + "\n")  # a piped transcript reads like a session
            if not command:
                continue
            word, _, rest = command.partition(" ")
            if word.lower() in COMMAND_WORDS:
                command = f"{COMMAND_WORDS[word.lower()]} {rest}".strip()
            if command == "quit":
                self._saved(table)
                return 0
            if await self.answer(table, seat, actor, info, command):
                continue
            if command.split(" ", 1)[0] == "change":
                done = await self._change(table, command[len("change"):].strip(), info)
                if done is not None:
                    return done
                out.write(f"  {self.text('console_back', name=name)}\n")
                continue
            prompt = await service.prompt(table, actor)
            self.notifier.at_screen.add(seat)  # the player still looks: print in order
            self.notifier.public_since = []
            try:
                # ASCII digits only: isdigit() takes "²" and "①", which int() rejects.
                if command[:1] == "#" and is_ascii_number(command[1:]):
                    index = int(command[1:]) - 1
                    if not 0 <= index < len(prompt.options):
                        out.write(f"  {self.text('console_choose', count=len(prompt.options))}\n")
                        continue
                    await service.act(table, actor, prompt.options[index].json,
                                      version=prompt.version)
                else:
                    await service.act_text(table, actor, command, version=prompt.version)
                self.moved = (seat, prompt.version + 1)  # an action is one version
            except Refused as exc:
                self._stop_on_storage(exc)
                out.write(self.renderer.refusal(exc, locale=self.locale, game=self.game)
                          + "\n")
                if exc.code == "parse" and is_ascii_number(command):
                    # A newcomer types the option's number: say how the list is picked from.
                    hint = self.text("console_number_hint", number=int(command))
                    out.write(f"  {hint}\n")
                continue
            finally:
                if len([s for s in info.seats if not s.is_bot]) > 1:
                    self.notifier.at_screen.discard(seat)
            self.notifier.flush_private(seat)
            if self.interrupt.pending:
                raise KeyboardInterrupt
            return None


    async def _change(self, table: int, which: str, info: TableInfo) -> int | None:
        """``change [SEAT]``: a seat that has submitted a simultaneous choice makes it again
        while others still choose."""
        can = [seat for seat, actor in sorted(self.actors.items())
               if (await self.service.prompt(table, actor)).decision == CHANGEABLE]
        chosen = [s for s in can if which in (str(s + 1), info.seats[s].name)] if which else []
        if len(chosen) != 1:
            self.say("console_change", seats=[f"change {s + 1}  ({info.seats[s].name})"
                                              for s in can])
            return None
        seat = chosen[0]
        if not self._pass_keyboard(info, seat):
            self._saved(table)
            return 0
        self.out.write("\n")
        self.say("console_changes", name=info.seats[seat].name)
        self.notifier.flush_private(seat)
        self.notifier.print_private(await self.service.hand(table, self.actors[seat]))
        return await self._turn(table, seat, self.actors[seat], info)


def _name(names: Sequence[str], i: int) -> str:
    given = names[i].strip() if i < len(names) else ""
    return given[:32] or f"Player {i + 1}"


def _names(info: TableInfo) -> list[str]:
    return [s.name for s in info.seats]


def _colours(view: Mapping[str, Any], seat: int) -> list[str]:
    """The seat's colours where the game's view has them (``color``, ``colour`` or, in
    Skybridge, ``colours``); the template says them in words."""
    players = view.get("players")
    if isinstance(players, list):
        for p in players:
            if isinstance(p, Mapping) and p.get("seat") == seat and not p.get("hal"):
                many = p.get("colours")
                if isinstance(many, list):
                    return [str(c) for c in many]
                colour = p.get("color") or p.get("colour")
                return [str(colour)] if colour else []
    return []
