"""The terminal itself: Ctrl-C, clearing the screen between hot-seat players."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, TextIO

# ANSI: erase the display and the scrollback, then put the cursor home. The scrollback
# too, or the next player scrolls up to the last one's hand.
CLEAR = "\x1b[2J\x1b[3J\x1b[H"


def clear_screen(out: TextIO) -> bool:
    """Clear a terminal (True); a file or a pipe keeps its whole transcript (False)."""
    try:
        tty = out.isatty()
    except ValueError:  # closed
        return False
    if tty:
        out.write(CLEAR)
        out.flush()
    return tty


def line_editor(stdin: TextIO, out: TextIO) -> bool:
    """Whether the prompt reads with the platform's line editor (GNU readline or libedit:
    arrows, Ctrl-A, Ctrl-L, history). Only ``input()`` on the process's own terminal
    uses it; a pipe, a file or a test's stream is read as it is."""
    if stdin is not sys.stdin or out is not sys.stdout:
        return False
    try:
        if not (stdin.isatty() and out.isatty()):
            return False
        import readline  # noqa: F401  (importing it is what turns it on for input())
    except (ImportError, ValueError):  # Windows without pyreadline; a closed stream
        return False
    return True


class Interrupt:
    """Ctrl-C stops the prompt at once, and the bots' thinking too (nothing of ours is
    being written then: a bot's move not yet saved is thought again on resuming), but
    never a move being saved: one that comes then is said at once, and honoured when
    the move is done."""

    def __init__(self, notice: Callable[[bool], None]) -> None:
        self.notice = notice  # says the session stops (True: after the move being saved)
        self.reading = False
        self.pending = False
        self.thinking: asyncio.Task[Any] | None = None  # the task waiting on the bots
        self.loop: asyncio.AbstractEventLoop | None = None

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self.reading:
            raise KeyboardInterrupt
        if self.pending or self.loop is None:
            self.pending = True
            return
        self.pending = True
        # Nothing is written from the handler itself: it may have come in the middle of
        # a write to the same stream. The event loop does it, within the moment.
        self.loop.call_soon_threadsafe(self._stop)

    def _stop(self) -> None:
        task = self.thinking
        self.notice(task is None)
        if task is not None:
            task.cancel()

    @contextmanager
    def waiting(self) -> Iterator[None]:
        """The bots think meanwhile: Ctrl-C cancels the wait at once."""
        if self.pending:
            raise KeyboardInterrupt
        self.thinking = asyncio.current_task()
        try:
            yield
        finally:
            self.thinking = None

    def stopped(self) -> bool:
        """Whether the cancel being raised is the one Ctrl-C asked for (the task is then usable
        again, to close the store); any other cancel is left to go on."""
        task = asyncio.current_task()
        if not self.pending or task is None or not task.cancelling():
            return False
        task.uncancel()
        return True

    @contextmanager
    def installed(self) -> Iterator[None]:
        self.loop = asyncio.get_running_loop()
        try:
            previous = signal.signal(signal.SIGINT, self.handle)
        except ValueError:  # not the main thread (tests): Ctrl-C cannot come anyway
            yield
            return
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)
