"""A real full disk for the tests: a small tmpfs of its own (root only; a test using it
is skipped where mounting is not allowed), and a way to take every free byte of it."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MiB file system of its own, unmounted after the test."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "urbanist-test",
                           str(mount)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def fill(disk: Path) -> Path:
    """Take every free byte of ``disk`` with one file; returns it (delete it to free)."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == 28, exc
    return filler
