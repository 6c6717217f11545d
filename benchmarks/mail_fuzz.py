"""The full-size fuzzing of bot.mail.incoming (tests/mail/test_incoming.py runs a few
dozen examples of each kind; this runs thousands).

Run from the repository root, in the project's venv::

    python benchmarks/mail_fuzz.py --count 20000 --seed 1

parse_incoming never raises: it turns a fault into problem='undecodable'. This calls the
reader under it, so that each fault shows as an exception, counted by kind, with the first
input of each kind written to /tmp/mail_fuzz_<kind>.eml. The inputs: mutated samples
(tests/mail/samples), MIME-shaped noise, and random bytes. Last line: mail_fuzz.faults N.
"""

from __future__ import annotations

import argparse
import collections
import random
import traceback
from pathlib import Path

from bot.mail import incoming

SAMPLES = Path(__file__).resolve().parent.parent / "tests" / "mail" / "samples"
CHUNKS = [
    b"Content-Type: multipart/mixed; boundary=x\n",
    b"Content-Type: message/rfc822\n",
    b"Content-Type: text/html; charset=utf-7\n",
    b"Content-Transfer-Encoding: base64\n",
    b"Content-Transfer-Encoding: quoted-printable\n",
    b"Content-Type: message/delivery-status\n",
    b"Content-Type: text/rfc822-headers\n",
    b"Content-Type: text/plain; format=flowed; charset=\xff\n",
    b"Content-Disposition: attachment; filename*=utf-8''%ff%fe\n",
    b"From: =?utf-8?b?###?= <\n",
    b'To: "\\" <<@@>>,,\n',
    b"Message-ID: <\x00>\n",
    b"Subject: =?x?q?=?=\n",
    b"Final-Recipient: rfc822;\n",
    b"<blockquote><div id=divRplyFwdMsg>",
    b"> On x wrote:\n",
    b"\n",
    b"--x\n",
    b"--x--\n",
]


def one(rng: random.Random, samples: list[bytes]) -> bytes:
    kind = rng.random()
    if kind < 0.4:
        data = bytearray(rng.choice(samples))
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(data) + 1)
            noise = bytes(rng.randrange(256) for _ in range(rng.randint(0, 8)))
            data[at : at + rng.randint(0, 40)] = noise
        return bytes(data)
    if kind < 0.8:
        return b"".join(rng.choice(CHUNKS) for _ in range(rng.randint(1, 60)))
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 500)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    samples = [path.read_bytes() for path in sorted(SAMPLES.glob("*.eml"))]
    rng = random.Random(args.seed)
    faults: collections.Counter[str] = collections.Counter()
    for _ in range(args.count):
        data = one(rng, samples)
        try:
            incoming._parse(data)
        except Exception as exc:
            where = traceback.extract_tb(exc.__traceback__)[-1].name
            kind = f"{type(exc).__name__}_{where}"
            if not faults[kind]:
                Path(f"/tmp/mail_fuzz_{kind}.eml").write_bytes(data)
                print(traceback.format_exc())
            faults[kind] += 1
    for kind, count in faults.most_common():
        print(f"{kind}: {count}")
    print(f"mail_fuzz.faults {sum(faults.values())}")


if __name__ == "__main__":
    main()
