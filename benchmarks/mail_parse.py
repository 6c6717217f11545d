"""How long reading one received mail takes (bot.mail.incoming.parse_incoming).

Run from the repository root, in the project's venv::

    python benchmarks/mail_parse.py            # best of 3 runs per case, in ms

Two sets: each real-client sample of tests/mail/samples, and hostile mails of just under
MAX_BYTES built to find the slow paths (long lines, many attribution-like lines, many
parts, deep HTML, many addresses). The front end reads one mail at a time; the worst of
the second set bounds how long one mail can hold it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from bot.mail.incoming import MAX_BYTES, parse_incoming

SAMPLES = Path(__file__).resolve().parent.parent / "tests" / "mail" / "samples"
HEAD = b"From: a@example.net\nTo: play@example.org\nSubject: x\n"


def fill(unit: bytes, before: bytes = b"\n") -> bytes:
    """HEAD + before + as many ``unit`` as fit under MAX_BYTES."""
    room = MAX_BYTES - len(HEAD) - len(before) - 64
    return HEAD + before + unit * (room // len(unit))


def hostile() -> dict[str, bytes]:
    return {
        "one long line": fill(b"On "),
        "many 'On' lines": fill(b"On x\n"),
        "many 'Le ... a' lines": fill(b"Le x a\n"),
        "many header-like lines": fill(b"From: x\nTo: y\n"),
        "many rules": fill(b"__________\n"),
        "all quoted": fill(b">\n"),
        "long attributions": fill(b"On " + b"x" * 390 + b" \n"),
        "nested divs": fill(b"<div>", b"Content-Type: text/html\n\n"),
        "nested blockquotes": fill(b"<blockquote>", b"Content-Type: text/html\n\n"),
        "flowed": fill(b"a \n", b"Content-Type: text/plain; format=flowed\n\n"),
        "flowed, depth changes": fill(b">a \na \n", b"Content-Type: text/plain; format=flowed\n\n"),
        "many parts": fill(b"--x\n\na\n", b"Content-Type: multipart/mixed; boundary=x\n\n"),
        "base64 body": fill(b"QUFB", b"Content-Transfer-Encoding: base64\n\n"),
        "many headers": HEAD + b"X: y\n" * ((MAX_BYTES - 200) // 5) + b"\nhi",
        "many addresses": HEAD + b"Cc: " + b"a@b," * ((MAX_BYTES - 200) // 4) + b"\n\nhi",
        "classic bounce, many addresses": fill(b"a@b.cc ", b"\n").replace(
            b"From: a@example.net", b"From: MAILER-DAEMON@x"
        ),
    }


def best_ms(run: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> None:
    print("sample,bytes,ms")
    for path in sorted(SAMPLES.glob("*.eml")):
        raw = path.read_bytes()
        print(f"{path.name},{len(raw)},{best_ms(lambda raw=raw: parse_incoming(raw)):.2f}")
    print("hostile,bytes,ms")
    for name, raw in hostile().items():
        assert len(raw) <= MAX_BYTES, name
        print(f"{name},{len(raw)},{best_ms(lambda raw=raw: parse_incoming(raw)):.1f}")


if __name__ == "__main__":
    main()
