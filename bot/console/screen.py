"""The terminal itself: Ctrl-C, clearing the screen between hot-seat players."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TextIO

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


class Interrupt:
    """Ctrl-C stops the prompt at once, but never a move being saved: one that comes
    during a move is kept and honoured when the move is done."""

    def __init__(self) -> None:
        self.reading = False
        self.pending = False

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self.reading:
            raise KeyboardInterrupt
        self.pending = True

    @contextmanager
    def installed(self) -> Iterator[None]:
        try:
            previous = signal.signal(signal.SIGINT, self.handle)
        except ValueError:  # not the main thread (tests): Ctrl-C cannot come anyway
            yield
            return
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)
