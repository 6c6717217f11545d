"""Reply, invitation and unsubscribe addresses: they round-trip, survive lowercasing,
and nothing but the server's secret makes one that reads back."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.mail.tokens import ReplyTokens, SeatRef, new_secret

SECRET = bytes(range(32))
BOT = "play@example.org"


@pytest.fixture
def tokens() -> ReplyTokens:
    return ReplyTokens(SECRET, BOT)


def test_reply_address_is_plus_addressed_on_the_bot_address(tokens: ReplyTokens) -> None:
    address = tokens.reply_to(SeatRef(12, 3, 45))
    match = re.fullmatch(r"play\+t12\.s3\.v45\.([a-z2-7]+)@example\.org", address)
    assert match is not None
    # base32 carries 5 bits a character: 26 characters hold at least 128 bits.
    assert len(match.group(1)) * 5 >= 128
    assert len(address.partition("@")[0]) <= 64
    assert tokens.read(address) == SeatRef(12, 3, 45)


def test_address_survives_case_changes_and_angle_brackets(tokens: ReplyTokens) -> None:
    address = tokens.reply_to(SeatRef(7, 0, 1))
    assert tokens.read(address.upper()) == SeatRef(7, 0, 1)
    assert tokens.read(f" <{address.title()}> ") == SeatRef(7, 0, 1)


def test_bot_address_given_in_capitals_reads_the_same() -> None:
    upper = ReplyTokens(SECRET, "Play@Example.ORG")
    address = upper.reply_to(SeatRef(1, 2, 3))
    assert address.startswith("play+")
    assert ReplyTokens(SECRET, BOT).read(address) == SeatRef(1, 2, 3)


def test_bare_token_reads(tokens: ReplyTokens) -> None:
    address = tokens.reply_to(SeatRef(4, 1, 9))
    bare = address.partition("+")[2].partition("@")[0]
    assert tokens.read(bare) == SeatRef(4, 1, 9)


def test_each_field_is_bound_by_the_tag(tokens: ReplyTokens) -> None:
    address = tokens.reply_to(SeatRef(12, 3, 45))
    tag = address.partition("@")[0].rpartition(".")[2]
    for other in ("t13.s3.v45", "t12.s2.v45", "t12.s3.v46", "t12.s3.v44"):
        assert tokens.read(f"play+{other}.{tag}@example.org") is None


def test_one_changed_character_of_the_tag_is_refused(tokens: ReplyTokens) -> None:
    address = tokens.reply_to(SeatRef(12, 3, 45))
    local, _, domain = address.partition("@")
    flipped = local[:-1] + ("a" if local[-1] != "a" else "b")
    assert tokens.read(f"{flipped}@{domain}") is None
    assert tokens.read(f"{local[:-1]}@{domain}") is None


def test_another_secret_or_another_address_is_not_ours(tokens: ReplyTokens) -> None:
    address = tokens.reply_to(SeatRef(12, 3, 45))
    assert ReplyTokens(new_secret(), BOT).read(address) is None
    assert tokens.read(address.replace("example.org", "example.net")) is None
    assert tokens.read(address.replace("play+", "plays+")) is None
    assert tokens.read("play@example.org") is None


def test_is_ours_knows_the_bot_address_and_its_plus_addresses(tokens: ReplyTokens) -> None:
    assert tokens.is_ours("PLAY@example.org")
    assert tokens.is_ours(f"<{tokens.reply_to(SeatRef(1, 2, 3))}>")
    assert tokens.is_ours("play+anything@EXAMPLE.org")
    assert not tokens.is_ours("player@example.org")
    assert not tokens.is_ours("play@example.org.evil.net")
    assert not tokens.is_ours("play")


def test_new_secrets_differ_and_are_32_bytes() -> None:
    first, second = new_secret(), new_secret()
    assert len(first) == 32 and first != second


def test_bad_configuration_is_refused() -> None:
    with pytest.raises(ValueError):
        ReplyTokens(bytes(15), BOT)
    assert ReplyTokens(bytes(16), BOT).read("x") is None  # 16 bytes is enough
    with pytest.raises(ValueError):
        ReplyTokens(SECRET, "not-an-address")
    with pytest.raises(ValueError):
        ReplyTokens(SECRET, "play+x@example.org")


def test_invitation_round_trips_and_binds_the_email(tokens: ReplyTokens) -> None:
    address = tokens.invite_to(12, "Ann.Lee@Example.org")
    assert tokens.read_invite(address) == (12, "ann.lee@example.org")
    assert tokens.read_invite(address.upper()) == (12, "ann.lee@example.org")
    # The same tag does not invite another address or to another table.
    tag = address.partition("@")[0].rpartition(".")[2]
    assert tokens.read_invite(f"play+i12.bob=example.org.{tag}@example.org") is None
    assert tokens.read_invite(f"play+i13.ann.lee=example.org.{tag}@example.org") is None


def test_kinds_do_not_stand_in_for_each_other(tokens: ReplyTokens) -> None:
    invite = tokens.invite_to(12, "ann@example.org")
    stop = tokens.unsubscribe(12, "ann@example.org")
    assert tokens.read_unsubscribe(stop) == (12, "ann@example.org")
    assert tokens.read_unsubscribe(invite) is None
    assert tokens.read_invite(stop) is None
    assert tokens.read(invite) is None
    # Same tag, kind letter swapped: the kind is inside the HMAC.
    assert tokens.read_unsubscribe(invite.replace("+i12.", "+u12.")) is None


def test_email_outside_the_plain_alphabet_round_trips(tokens: ReplyTokens) -> None:
    for email in ('"odd name"@example.org', "o'brien+games@example.ie", "zoé@exemple.fr"):
        address = tokens.invite_to(3, email)
        assert address.isascii() and address == address.lower()
        assert tokens.read_invite(address.upper()) == (3, email.lower())


ids = st.integers(min_value=0, max_value=10**12)


@settings(max_examples=60, deadline=None)
@given(ids, ids, ids)
def test_any_seat_round_trips(table: int, seat: int, version: int) -> None:
    tokens = ReplyTokens(SECRET, BOT)
    assert tokens.read(tokens.reply_to(SeatRef(table, seat, version)).upper()) == SeatRef(
        table, seat, version
    )


@settings(max_examples=60, deadline=None)
@given(ids, st.emails())
def test_any_email_round_trips(table: int, email: str) -> None:
    tokens = ReplyTokens(SECRET, BOT)
    assert tokens.read_invite(tokens.invite_to(table, email)) == (table, email.lower())
    assert tokens.read_unsubscribe(tokens.unsubscribe(table, email)) == (table, email.lower())


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=120))
def test_reading_any_text_never_raises_and_never_accepts(text: str) -> None:
    tokens = ReplyTokens(SECRET, BOT)
    assert tokens.read(text) is None
    assert tokens.read_invite(text) is None
    assert tokens.read_unsubscribe(text) is None
