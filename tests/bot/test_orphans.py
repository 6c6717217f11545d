"""A bot process that is killed takes its AI workers with it (issue 23, item 4).

A real process runs a Thinker whose two workers are busy thinking, as with ``hard``
bots; the test SIGKILLs it and waits until every process it started (the fork server,
the resource tracker, the workers) is gone. Nothing is timed: the test polls for the
condition, and a generous bound only keeps a broken fix from hanging the suite.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BOUND = 60.0  # seconds, generous for a loaded machine: the fix takes well under one
WORKERS = 2

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads the process tree from /proc")

# The bot's side: two choices begun, each in its own worker (the gated AI waits on a
# gate nobody opens, so the workers think without spending the shared cores). With
# ``clean``, it waits for an ordinary choice instead and shuts the thinker down.
SCRIPT = """
import asyncio, sys
sys.path.insert(0, {tests!r})
import thinkgame
from bot.service.thinking import Thinker, ThinkJob
from engine.core import get_game

def job(seat, kind):
    game = get_game("fakethink")
    state = game.setup(2, game.default_options(), 4)
    return ThinkJob("thinkgame", "fakethink", game.state_to_json(state), seat, kind, 7)

async def main(clean):
    thinker = Thinker(pooled=frozenset({{"gated", "search"}}))
    if clean:
        assert await thinker.choose(job(0, "search")) is not None
        thinker.shutdown()
        return
    await asyncio.gather(*(thinker.choose(job(seat, "gated")) for seat in (0, 1)))

asyncio.run(main(sys.argv[1] == "clean"))
"""


def identity(pid: int) -> tuple[int, str] | None:
    """(parent pid, start time) of a live process, None once it is gone or a zombie. The
    start time tells a process from a later one that reuses its pid."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (in parentheses) may hold spaces: split after its last ')'.
    fields = stat[stat.rindex(")") + 2:].split()
    if fields[0] in ("Z", "X"):
        return None
    return int(fields[1]), fields[19]


def descendants(root: int) -> dict[int, str]:
    """Every live process below ``root``, with its start time."""
    tree: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (found := identity(int(entry.name))) is not None:
            tree[int(entry.name)] = found
    below: dict[int, str] = {}
    frontier = [root]
    while frontier:
        above = frontier.pop()
        for pid, (ppid, start) in tree.items():
            if ppid == above and pid not in below:
                below[pid] = start
                frontier.append(pid)
    return below


def alive(processes: dict[int, str]) -> dict[int, str]:
    return {pid: start for pid, start in processes.items()
            if (found := identity(pid)) is not None and found[1] == start}


def eventually(condition: Callable[[], bool]) -> bool:
    """Whether ``condition`` holds within the bound, polled (never a fixed wait)."""
    end = time.monotonic() + BOUND
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def parent(pid: int) -> int | None:
    found = identity(pid)
    return None if found is None else found[0]


def command(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:120]
    return "?"


def bot(mode: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", SCRIPT.format(tests=str(HERE)), mode],
                            cwd=ROOT, stdin=subprocess.DEVNULL)


def stop(process: subprocess.Popen[bytes], seen: dict[int, str]) -> None:
    """Whatever a failed run left behind is killed: the machine is shared."""
    if process.poll() is None:
        process.kill()
        process.wait()
    for pid in alive(seen):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def describe(pids: Iterable[int]) -> str:
    return "; ".join(f"{pid} {command(pid)}" for pid in pids)


def test_a_killed_bot_leaves_no_worker_fork_server_or_resource_tracker() -> None:
    process = bot("kill")
    seen: dict[int, str] = {}
    try:
        def started() -> bool:
            assert process.poll() is None, "the bot exited before its workers ran"
            seen.update(descendants(process.pid))
            # The resource tracker, the fork server, and a worker per choice under way.
            return len(alive(seen)) >= 2 + WORKERS

        assert eventually(started), describe(seen)
        servers = {pid for pid in seen if parent(pid) == process.pid}
        workers = {pid for pid in seen if parent(pid) in servers}
        assert len(workers) == WORKERS, describe(seen)
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert eventually(lambda: not alive(seen)), "outlived the bot: " + describe(alive(seen))
    finally:
        stop(process, seen)


def test_a_bot_that_shuts_down_cleanly_exits_and_leaves_nothing() -> None:
    process = bot("clean")
    seen: dict[int, str] = {}
    try:
        def finished() -> bool:
            seen.update(descendants(process.pid))
            return process.poll() is not None

        assert eventually(finished), "the bot never exited"
        assert process.returncode == 0
        assert len(seen) >= 3, describe(seen)  # a fork server, a tracker and a worker ran
        assert eventually(lambda: not alive(seen)), "outlived the bot: " + describe(alive(seen))
    finally:
        stop(process, seen)
