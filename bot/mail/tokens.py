"""Reply addresses nobody can guess: each seat's decision, each invitation and each
unsubscribe line carries an HMAC-SHA256 tag under a server secret.

The token rides in the local part of the bot's own address (plus-addressing):
``play+t12.s3.v45.<tag>@example.org``. Everything in it is lowercase ASCII (digits,
base32 letters, dots) so that a server that lowercases local parts changes nothing, and
addresses are compared case-insensitively.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

# 16 bytes = 128 bits, the floor the issue sets; 26 base32 characters keep the whole
# local part under RFC 5321's 64 octets for ordinary ids and bot addresses.
TAG_BYTES = 16
_TAG = r"[a-z2-7]{26}"
# Ids are bounded so a hostile address cannot make us parse a huge integer.
_INT = r"(0|[1-9][0-9]{0,17})"
_SEAT = re.compile(rf"t{_INT}\.s{_INT}\.v{_INT}\.({_TAG})")
_BOUND = re.compile(rf"([iu]){_INT}\.(.+)\.({_TAG})")
# An email that reads well in a local part is written as is, '@' turned into '=';
# anything else is written in base32 (no '=' there, so the two forms never meet).
_PLAIN_EMAIL = re.compile(r"[a-z0-9._%-]+@[a-z0-9.-]+")
_B32_EMAIL = re.compile(r"x([a-z2-7]+)")


@dataclass(frozen=True)
class SeatRef:
    """The seat a reply address belongs to, and the decision (version) it answers."""

    table_id: int
    seat: int
    version: int


def new_secret() -> bytes:
    """A fresh server secret: 32 random bytes."""
    return secrets.token_bytes(32)


def _b32(data: bytes) -> str:
    return base64.b32encode(data).decode("ascii").rstrip("=").lower()


def _unb32(text: str) -> bytes | None:
    padded = text.upper() + "=" * (-len(text) % 8)
    try:
        return base64.b32decode(padded)
    except ValueError:
        return None


class ReplyTokens:
    """Makes and reads the bot's tagged addresses.

    ``read*`` take a whole address (``play+...@example.org``, in any case, optionally in
    angle brackets) or the bare token (``t12.s3.v45.<tag>``, as typed in a mail body);
    they return None for an address that is not the bot's, malformed, or forged.
    """

    def __init__(self, secret: bytes, address: str, *, separator: str = "+") -> None:
        if len(secret) < 16:
            raise ValueError("the reply-token secret must be at least 16 bytes")
        local, at, domain = address.strip().lower().rpartition("@")
        if not at or not local or not domain or separator in local:
            raise ValueError(f"not a plain bot address: {address!r}")
        self._secret = secret
        self._local = local
        self._domain = domain
        self._sep = separator

    # -- making ---------------------------------------------------------------------

    def reply_to(self, ref: SeatRef) -> str:
        body = f"t{ref.table_id}.s{ref.seat}.v{ref.version}"
        return self._address(f"{body}.{self._tag('seat', body)}")

    def invite_to(self, table_id: int, email: str) -> str:
        return self._address(self._bound("i", table_id, email))

    def unsubscribe(self, table_id: int, email: str) -> str:
        return self._address(self._bound("u", table_id, email))

    # -- reading --------------------------------------------------------------------

    def read(self, address: str) -> SeatRef | None:
        token = self._token(address)
        match = _SEAT.fullmatch(token) if token is not None else None
        if match is None:
            return None
        table, seat, version, tag = match.groups()
        body = f"t{table}.s{seat}.v{version}"
        if not self._same(tag, self._tag("seat", body)):
            return None
        return SeatRef(int(table), int(seat), int(version))

    def read_invite(self, address: str) -> tuple[int, str] | None:
        return self._read_bound("i", address)

    def read_unsubscribe(self, address: str) -> tuple[int, str] | None:
        return self._read_bound("u", address)

    def is_ours(self, address: str) -> bool:
        """The bot's own address, or any plus-address on it (tagged or not, forged or
        not): mail to it is for the bot to read."""
        text = address.strip().strip("<>").strip().lower()
        local, at, domain = text.rpartition("@")
        return (
            bool(at)
            and domain == self._domain
            and (local == self._local or local.startswith(self._local + self._sep))
        )

    # -- inside ---------------------------------------------------------------------

    def _address(self, token: str) -> str:
        return f"{self._local}{self._sep}{token}@{self._domain}"

    def _tag(self, kind: str, body: str) -> str:
        # The kind is part of the message: a seat tag never passes as an invite tag.
        mac = hmac.new(self._secret, f"urbanist:{kind}:{body}".encode(), hashlib.sha256)
        return _b32(mac.digest()[:TAG_BYTES])

    @staticmethod
    def _same(given: str, expected: str) -> bool:
        return hmac.compare_digest(given.encode("ascii"), expected.encode("ascii"))

    def _bound(self, kind: str, table_id: int, email: str) -> str:
        email = email.strip().lower()
        body = f"{kind}{table_id}.{_write_email(email)}"
        return f"{body}.{self._tag(kind, f'{table_id}:{email}')}"

    def _read_bound(self, kind: str, address: str) -> tuple[int, str] | None:
        token = self._token(address)
        match = _BOUND.fullmatch(token) if token is not None else None
        if match is None or match.group(1) != kind:
            return None
        table, written, tag = match.group(2), match.group(3), match.group(4)
        email = _read_email(written)
        if email is None or not self._same(tag, self._tag(kind, f"{table}:{email}")):
            return None
        return int(table), email

    def _token(self, address: str) -> str | None:
        """The token part of one of our addresses (or a bare token), lowercased."""
        text = address.strip().strip("<>").strip().lower()
        if len(text) > 600 or not text.isascii():
            return None
        if "@" not in text:
            return text
        local, _, domain = text.rpartition("@")
        prefix = self._local + self._sep
        if domain != self._domain or not local.startswith(prefix):
            return None
        return local[len(prefix) :]


def _write_email(email: str) -> str:
    if _PLAIN_EMAIL.fullmatch(email):
        return email.replace("@", "=")
    return "x" + _b32(email.encode("utf-8"))


def _read_email(written: str) -> str | None:
    if "=" in written:
        email = written.replace("=", "@")
        return email if _PLAIN_EMAIL.fullmatch(email) else None
    match = _B32_EMAIL.fullmatch(written)
    raw = _unb32(match.group(1)) if match else None
    if raw is None:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
