"""Reading received mail: real-client reply shapes (tests/mail/samples), headers,
charsets, bounces and automatic mail, limits, and bytes no client would send."""

from __future__ import annotations

import base64
import random
from email.parser import BytesParser
from email.policy import compat32
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.mail.commands import parse_command
from bot.mail.incoming import MAX_BYTES, MAX_DEPTH, Bounce, command_line, parse_incoming

SAMPLES = Path(__file__).parent / "samples"
SEAT = "play+t12.s3.v45.kq3ttmxvbb6ubsezqqycm3qgca@example.org"


def sample(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


# name -> (first line a command or move is read from, the whole fresh text)
REPLIES = {
    "gmail_top.eml": ("R7+B12", "R7+B12"),
    "gmail_fr.eml": ("#3", "#3"),
    "gmail_de_base64.eml": ("take 3", "take 3"),
    "outlook_top.eml": ("take 3", "take 3\n\nI\u2019m in."),
    "outlook_fr_original.eml": ("A2@B3", "A2@B3\n\nMerci, à bientôt !"),
    "outlook_web_html_only.eml": ("R7+B12", "R7+B12"),
    "thunderbird_bottom_flowed.eml": ("A2@B3", "A2@B3"),
    "thunderbird_top_delsp.eml": (
        "R7+B12",
        "R7+B12\n\nI think this is the best move; the blue tiles will pay next round.\n"
        "From now on I play faster.",
    ),
    "iphone.eml": ("1", "1"),
    "apple_mail_fr_html_only.eml": ("R7+B12", "R7+B12"),
    "html_only_latin1.eml": ("R7+B12", "R7+B12\n\nDéjà joué ? Non : c\u2019est mon coup."),
    "plain_sig_move.eml": ("#3", "#3"),
    "attachments.eml": ("A2@B3", "A2@B3"),
    "yahoo.eml": ("R7+B12", "R7+B12"),
    "outlook_ios_de.eml": ("A2@B3", "A2@B3"),
    "thunderbird_html_bottom.eml": ("take 3", "take 3\n\nCheers,\nAnn"),
}


@pytest.mark.parametrize("name", sorted(REPLIES))
def test_reply_shapes_give_the_fresh_text(name: str) -> None:
    mail = parse_incoming(sample(name))
    line, text = REPLIES[name]
    assert mail.text == text
    assert command_line(mail) == line
    assert mail.problem is None
    assert not mail.automatic and mail.bounce is None
    assert SEAT in mail.recipients


def without_plain(raw: bytes) -> bytes | None:
    """The sample with its text/plain alternatives taken out (None: it has none)."""
    msg = BytesParser(policy=compat32).parsebytes(raw)
    found = False
    for part in msg.walk():
        if part.get_content_type() == "multipart/alternative":
            payload = part.get_payload()
            kept = [sub for sub in payload if sub.get_content_type() != "text/plain"]
            found = found or len(kept) < len(payload)
            part.set_payload(kept)
    return msg.as_bytes() if found else None


WITH_HTML = [name for name in sorted(REPLIES) if without_plain(sample(name)) is not None]


def test_gmail_outlook_apple_thunderbird_and_yahoo_samples_have_html_alternatives() -> None:
    assert {"gmail_top.eml", "outlook_top.eml", "iphone.eml", "yahoo.eml"} <= set(WITH_HTML)
    assert "thunderbird_html_bottom.eml" in WITH_HTML


@pytest.mark.parametrize("name", WITH_HTML)
def test_html_alternatives_alone_give_the_same_first_line(name: str) -> None:
    html_only = without_plain(sample(name))
    assert html_only is not None
    assert command_line(parse_incoming(html_only)) == REPLIES[name][0]


def test_every_sample_is_covered() -> None:
    names = {path.name for path in SAMPLES.glob("*.eml")}
    others = {
        "autoreply_outlook.eml",
        "bounce_classic_qmail.eml",
        "bounce_dsn_delayed.eml",
        "bounce_dsn_postfix.eml",
        "command_in_subject.eml",
        "fuzz_dsn_base64_bad_charset.eml",
        "fuzz_dsn_nul_charset.eml",
        "unknown_charset.eml",
    }
    assert names == set(REPLIES) | others


def test_headers_of_a_gmail_reply() -> None:
    mail = parse_incoming(sample("gmail_top.eml"))
    assert mail.message_id == "<CAG7x=k3Yh5pQ@mail.gmail.com>"
    assert mail.sender == "ann.lee@example.net"
    assert mail.subject == "Re: Table 12: your move"
    assert mail.in_reply_to == ("<prompt.12.3.45@example.org>",)


def test_encoded_words_are_decoded() -> None:
    mail = parse_incoming(sample("gmail_fr.eml"))
    assert mail.subject == "Re: Table 12 : à vous de jouer"
    assert mail.sender == "amelie@example.fr"
    latin = parse_incoming(sample("outlook_fr_original.eml"))
    assert latin.subject == "RE\xa0: Table 12 : à vous de jouer"


def test_command_in_the_subject_when_the_body_has_only_a_signature() -> None:
    mail = parse_incoming(sample("command_in_subject.eml"))
    assert mail.text == ""
    assert command_line(mail) == "new neotopia players=3 bots=1"
    assert mail.sender == "new.player@example.com"
    assert mail.recipients == ("play@example.org", "friend@example.com")


@pytest.mark.parametrize(
    ("subject", "line"),
    [
        ("Re: join 12", "join 12"),
        ("RE: Fwd: AW: TR: help", "help"),
        ("Réf\xa0: aide", "aide"),
        ("Re[2]: tables", "tables"),
        ("Reply all", "Reply all"),
    ],
)
def test_command_line_strips_reply_prefixes_from_the_subject(subject: str, line: str) -> None:
    raw = f"From: a@b.c\nSubject: {subject}\nContent-Type: text/plain; charset=utf-8\n\n\n"
    assert command_line(parse_incoming(raw.encode())) == line


def test_unknown_charset_decodes_with_replacement_characters() -> None:
    mail = parse_incoming(sample("unknown_charset.eml"))
    assert mail.text == "take 3 \ufffd\ufffd"
    assert mail.subject == "Re: qapla\ufffd"
    assert mail.problem is None


def mail_with(body: bytes, headers: str = "", ctype: str = "text/plain") -> bytes:
    head = f"From: Ann <ann@example.net>\nTo: {SEAT}\nSubject: Re: x\n{headers}"
    return f"{head}Content-Type: {ctype}\n\n".encode() + body


@pytest.mark.parametrize(
    ("body", "ctype", "text"),
    [
        (b"caf\xe9 \x92ok\x92", "text/plain; charset=iso-8859-1", "café ’ok’"),
        (b"caf\xe9 \x93ok\x94", "text/plain; charset=windows-1252", "café “ok”"),
        ("café".encode(), "text/plain; charset=utf-8", "café"),
        ("café".encode(), "text/plain", "café"),  # undeclared 8-bit UTF-8
        (b"caf\xe9", "text/plain", "café"),  # undeclared, not UTF-8
        ("caf\xe9".encode("utf-16"), "text/plain; charset=utf-16", "café"),
        (b"move \xff", 'text/plain; charset="zlib_codec"', "move \ufffd"),
        ("한".encode("cp949"), "text/plain; charset=ks_c_5601-1987", "한"),
    ],
)
def test_charsets(body: bytes, ctype: str, text: str) -> None:
    assert parse_incoming(mail_with(body, ctype=ctype)).text == text


def test_the_first_plain_alternative_is_read() -> None:
    raw = (
        b'From: a@example.net\nContent-Type: multipart/alternative; boundary="a"\n\n'
        b"--a\nContent-Type: text/plain\n\n1\n"
        b"--a\nContent-Type: text/plain; format=flowed\n\n2\n--a--\n"
    )
    assert parse_incoming(raw).text == "1"


def test_quoted_printable_and_base64_bodies() -> None:
    qp = mail_with(b"R7=2BB12=\n continued=C3=A9", "Content-Transfer-Encoding: quoted-printable\n")
    assert parse_incoming(qp).text == "R7+B12 continuedé"
    encoded = base64.b64encode("A2@B3\n\nLe 1 janv., X a écrit :\n> old".encode())
    b64 = mail_with(encoded, "Content-Transfer-Encoding: base64\n", "text/plain; charset=utf-8")
    assert parse_incoming(b64).text == "A2@B3"
    broken = mail_with(b"!!!not base64 at all", "Content-Transfer-Encoding: base64\n")
    assert parse_incoming(broken).problem is None


def test_raw_utf8_in_headers_is_read() -> None:
    raw = "From: Zoé <Zoe@Example.fr>\nTo: play@example.org\nSubject: Re: café\n\n1\n".encode()
    mail = parse_incoming(raw)
    assert (mail.sender, mail.subject, mail.text) == ("zoe@example.fr", "Re: café", "1")


def test_recipients_come_from_to_cc_and_delivery_headers_once_each() -> None:
    raw = (
        b"From: a@example.net\nTo: Play <PLAY@example.org>, b@example.net\nCc: c@example.net\n"
        b"Delivered-To: play+t1@example.org\nX-Original-To: play@example.org\n\nhi\n"
    )
    assert parse_incoming(raw).recipients == (
        "play@example.org",
        "b@example.net",
        "c@example.net",
        "play+t1@example.org",
    )


def test_an_empty_group_gives_no_recipient() -> None:
    raw = b"From: a@example.net\nTo: undisclosed-recipients:;\n\n1\n"
    assert parse_incoming(raw).recipients == ()


def test_missing_message_id_is_a_stable_digest_of_the_bytes() -> None:
    raw = b"From: a@example.net\nTo: play@example.org\n\n1\n"
    first, again = parse_incoming(raw), parse_incoming(raw)
    other = parse_incoming(raw + b"2\n")
    assert first.message_id == again.message_id != other.message_id
    assert first.message_id.startswith("<") and first.message_id.endswith(">")


@pytest.mark.parametrize(
    ("header", "message_id"),
    [
        ("Message-ID: <a@b>", "<a@b>"),
        ("Message-ID: junk <a@b> more", "<a@b>"),
        ("Message-ID: a@b", "<a@b>"),
        ("Message-ID: a b@c", None),
        ("Message-ID: " + "x" * 500, "<" + "x" * 500 + ">"),
        ("Message-ID: " + "x" * 501, None),
        ("Message-ID:", None),
    ],
)
def test_message_id_as_given_or_synthetic(header: str, message_id: str | None) -> None:
    raw = f"From: a@example.net\n{header}\n\n1\n".encode()
    got = parse_incoming(raw).message_id
    assert got == message_id if message_id else got.endswith("@sha256.invalid>")


@pytest.mark.parametrize(("byte", "text"), [(b"\x80", "€"), (b"\xff", "ÿ"), (b"\xe9", "é")])
def test_raw_8bit_windows_1252_in_a_header(byte: bytes, text: str) -> None:
    raw = b"From: a@example.net\nSubject: caf" + byte + b"\n\n1\n"
    assert parse_incoming(raw).subject == "caf" + text


def test_references_are_collected_in_order_once() -> None:
    raw = b"From: a@example.net\nIn-Reply-To: <b@x>\nReferences: <a@x>\n <b@x> <c@x>\n\n1\n"
    assert parse_incoming(raw).in_reply_to == ("<b@x>", "<a@x>", "<c@x>")


# -- automatic mail and bounces --------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "automatic"),
    [
        ("Auto-Submitted: auto-replied", True),
        ("Auto-Submitted: auto-generated; owner-email=x@y", True),
        ("Auto-Submitted: no", False),
        ("Precedence: bulk", True),
        ("Precedence: list", True),
        ("Precedence: junk", True),
        ("Precedence: first-class", False),
        ("List-Id: <games.lists.example.net>", True),
        ("X-Autoreply: yes", True),
        ("X-Autorespond: vacation", True),
        ("Return-Path: <>", True),
        ("Return-Path: <ann@example.net>", False),
        ("Subject: Out of Office: Table 12", True),
        ("Subject: Réponse automatique : Table 12", True),
        ("X-Mailer: Thunderbird", False),
    ],
)
def test_automatic_mail_is_flagged(header: str, automatic: bool) -> None:
    raw = f"From: ann@example.net\nTo: {SEAT}\n{header}\n\nI am away.\n".encode()
    mail = parse_incoming(raw)
    assert mail.automatic is automatic
    assert mail.bounce is None


def test_outlook_out_of_office_is_automatic() -> None:
    mail = parse_incoming(sample("autoreply_outlook.eml"))
    assert mail.automatic and mail.bounce is None


def test_postfix_dsn_is_a_permanent_bounce() -> None:
    mail = parse_incoming(sample("bounce_dsn_postfix.eml"))
    assert mail.bounce == Bounce(("gone.player@example.net",), True, "<prompt.12.3.45@example.org>")
    assert mail.automatic


def test_delay_notice_is_not_permanent() -> None:
    mail = parse_incoming(sample("bounce_dsn_delayed.eml"))
    assert mail.bounce == Bounce(("slow@example.com",), False, "<digest.12.3@example.org>")
    assert mail.automatic


def test_classic_qmail_bounce() -> None:
    mail = parse_incoming(sample("bounce_classic_qmail.eml"))
    assert mail.bounce == Bounce(("nobody@example.com",), True, "<invite.12.nobody@example.org>")
    assert mail.automatic


def test_classic_delay_warning_from_mailer_daemon() -> None:
    raw = (
        b"From: Mail Delivery System <MAILER-DAEMON@mx.example.net>\nTo: play@example.org\n"
        b"Subject: Warning: message 1abc delayed 24 hours\n\n"
        b"This message was created automatically by mail delivery software.\n"
        b"A message that you sent has not yet been delivered to one or more of its\n"
        b"recipients after more than 24 hours on the queue on mx.example.net.\n\n"
        b"  Late@Example.com\n    host mx.example.com: 451 4.4.1 try again later\n\n"
        b"------ This is a copy of the message's headers. ------\n\n"
        b"Message-ID: <prompt.1.0.3@example.org>\nTo: late@example.com\n"
    )
    mail = parse_incoming(raw)
    assert mail.bounce == Bounce(("late@example.com",), False, "<prompt.1.0.3@example.org>")


def dsn(status_block: str) -> bytes:
    return (
        "From: MAILER-DAEMON@mx.example.net\nTo: play@example.org\nSubject: report\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\n\n'
        "--b\nContent-Type: text/plain\n\nSee below.\n"
        "--b\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx\n\n"
        f"{status_block}\n--b--\n"
    ).encode()


@pytest.mark.parametrize(
    ("block", "recipients", "permanent"),
    [
        ("Final-Recipient: rfc822; a@x.org\nStatus: 5.0.0", ("a@x.org",), True),
        # Given up after retrying: failed, though the last status was temporary.
        ("Final-Recipient: rfc822; a@x.org\nAction: failed\nStatus: 4.4.7", ("a@x.org",), True),
        ("Final-Recipient: rfc822; a@x.org\nAction: delayed\nStatus: 4.4.1", ("a@x.org",), False),
        ("Final-Recipient: rfc822;<A@X.org>\nAction: delivered\nStatus: 2.0.0", (), False),
        ("Original-Recipient: rfc822; b@x.org\nAction: failed", ("b@x.org",), True),
        ("Action: failed\nStatus: 5.1.1", (), False),
    ],
)
def test_dsn_status_blocks(block: str, recipients: tuple[str, ...], permanent: bool) -> None:
    bounce = parse_incoming(dsn(block)).bounce
    assert bounce is not None
    assert (bounce.recipients, bounce.permanent) == (recipients, permanent)


def test_classic_bounce_with_a_final_5xx_after_temporary_4xx_is_permanent() -> None:
    raw = (
        b"From: MAILER-DAEMON@mx.example.net\nTo: play@example.org\nSubject: failure notice\n\n"
        b"<d@x.org>: temporary failure 451 4.4.1, then 550 5.1.1 user unknown\n"
    )
    assert parse_incoming(raw).bounce == Bounce(("d@x.org",), True, None)


def test_dsn_with_a_base64_status_part() -> None:
    status = b"Reporting-MTA: dns; mx\n\nFinal-Recipient: rfc822; z@x.org\nAction: failed\n"
    raw = (
        b'From: MAILER-DAEMON@mx\nContent-Type: multipart/report; boundary="b"\n\n'
        b"--b\nContent-Type: text/plain\n\nx\n"
        b"--b\nContent-Type: message/delivery-status\nContent-Transfer-Encoding: base64\n\n"
        + base64.encodebytes(status)
        + b"--b--\n"
    )
    assert parse_incoming(raw).bounce == Bounce(("z@x.org",), True, None)


@pytest.mark.parametrize(
    "name",
    # Base64 delivery-status parts whose "fields" carry a charset named b'\xff' (the email
    # package cannot write such a block back) or with a NUL (nor read its body as text).
    ["fuzz_dsn_base64_bad_charset.eml", "fuzz_dsn_nul_charset.eml"],
)
def test_fuzz_found_dsn_is_read_not_undecodable(name: str) -> None:
    mail = parse_incoming(sample(name))
    assert mail.problem != "undecodable"
    assert mail.bounce is not None and mail.automatic


def test_classic_bounce_names_neither_our_address_nor_the_postmaster() -> None:
    raw = (
        b"From: MAILER-DAEMON@mx.example.net\nTo: play@example.org\nSubject: failure notice\n\n"
        b"Mail from <play@example.org> to <e@x.org> failed: 550 5.1.1.\n"
        b"Write to postmaster@mx.example.net or <MAILER-DAEMON@mx.example.net>.\n"
    )
    assert parse_incoming(raw).bounce == Bounce(("e@x.org",), True, None)


def test_classic_bounce_delayed_by_its_subject_alone() -> None:
    raw = (
        b"From: MAILER-DAEMON@mx.example.net\nTo: play@example.org\n"
        b"Subject: Delayed Mail (still being retried)\n\nThe message to <c@x.org> waits.\n"
    )
    assert parse_incoming(raw).bounce == Bounce(("c@x.org",), False, None)


def test_classic_exim_bounce() -> None:
    raw = (
        b"Return-path: <>\nFrom: Mail Delivery System <Mailer-Daemon@mx.example.net>\n"
        b"To: play@example.org\nSubject: Mail delivery failed: returning message to sender\n\n"
        b"This message was created automatically by mail delivery software.\n\n"
        b"A message that you sent could not be delivered to one or more of its\n"
        b"recipients. This is a permanent error. The following address(es) failed:\n\n"
        b"  ann@example.com\n    SMTP error from remote mail server after RCPT TO:"
        b"<ann@example.com>:\n    550 5.1.1 User unknown\n\n"
        b"------ This is a copy of the message, including all the headers. ------\n\n"
        b"From: play@example.org\nTo: ann@example.com\nMessage-Id: <prompt.9.1.2@example.org>\n"
    )
    mail = parse_incoming(raw)
    assert mail.bounce == Bounce(("ann@example.com",), True, "<prompt.9.1.2@example.org>")


def test_a_fault_inside_the_reader_is_undecodable_not_raised(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(text: str) -> str:
        raise RuntimeError("a bug in the quote stripper")

    monkeypatch.setattr("bot.mail.incoming.fresh_text", broken)
    raw = b"From: a@example.net\nTo: play@example.org\n\n1\n"
    mail = parse_incoming(raw)
    assert (mail.problem, mail.text, mail.sender) == ("undecodable", "", "a@example.net")
    assert mail.message_id == parse_incoming(raw).message_id


def test_read_receipt_report_is_automatic_but_no_bounce() -> None:
    raw = (
        b"From: ann@example.net\nTo: play@example.org\nSubject: Read: Table 12\n"
        b'Content-Type: multipart/report; report-type=disposition-notification; boundary="r"\n\n'
        b"--r\nContent-Type: text/plain\n\nYour message was read.\n"
        b"--r\nContent-Type: message/disposition-notification\n\n"
        b"Disposition: manual-action/MDN-sent-manually; displayed\n--r--\n"
    )
    mail = parse_incoming(raw)
    assert mail.automatic and mail.bounce is None


def test_a_player_quoting_a_bounce_word_is_not_a_bounce() -> None:
    raw = b"From: ann@example.net\nTo: play@example.org\nSubject: Undelivered?\n\nhelp\n"
    mail = parse_incoming(raw)
    assert mail.bounce is None and not mail.automatic


# -- limits -----------------------------------------------------------------------------


def nested(depth: int, leaf: str = "R7+B12") -> bytes:
    parts = [f"From: a@example.net\nTo: {SEAT}\nSubject: deep\n"]
    for level in range(depth):
        parts.append(f'Content-Type: multipart/mixed; boundary="b{level}"\n\n--b{level}\n')
    parts.append(f"Content-Type: text/plain\n\n{leaf}\n")
    parts.extend(f"--b{level}--\n" for level in reversed(range(depth)))
    return "".join(parts).encode()


def test_nesting_within_the_limit_is_read() -> None:
    mail = parse_incoming(nested(MAX_DEPTH))
    assert (mail.text, mail.problem) == ("R7+B12", None)


def test_nesting_past_the_limit_is_too_deep() -> None:
    mail = parse_incoming(nested(MAX_DEPTH + 1))
    assert (mail.text, mail.problem) == ("", "too_deep")
    assert mail.sender == "a@example.net"


def test_nesting_past_the_parser_recursion_is_too_deep() -> None:
    mail = parse_incoming(nested(2500))
    assert mail.problem == "too_deep"
    assert mail.sender == "a@example.net" and mail.subject == "deep"


def test_oversized_mail_is_too_big_and_its_body_not_read() -> None:
    body = nested(5000)  # would be too deep, if its body were read
    raw = b"Message-ID: <big@x>\n" + body + b"x" * (MAX_BYTES - len(body) + 1)
    assert len(raw) > MAX_BYTES
    mail = parse_incoming(raw)
    assert (mail.problem, mail.text, mail.message_id) == ("too_big", "", "<big@x>")
    assert mail.sender == "a@example.net" and SEAT in mail.recipients


def test_bounce_returning_a_big_mail_is_still_read() -> None:
    report = sample("bounce_dsn_delayed.eml")
    at = report.index(b"The round's news.")
    raw = report[:at] + b"image data\r\n" * (MAX_BYTES // 12) + report[at:]
    assert len(raw) > MAX_BYTES
    mail = parse_incoming(raw)
    assert mail.problem == "too_big" and mail.automatic
    assert mail.bounce == Bounce(("slow@example.com",), False, "<digest.12.3@example.org>")


def test_mail_of_exactly_the_limit_is_read() -> None:
    head = f"From: a@example.net\nTo: {SEAT}\n\nR7+B12\n".encode()
    raw = head + b" " * (MAX_BYTES - len(head))
    assert parse_incoming(raw).text == "R7+B12"


def test_only_attachments_is_no_text() -> None:
    raw = (
        b'From: a@example.net\nContent-Type: multipart/mixed; boundary="m"\n\n'
        b'--m\nContent-Type: image/png\nContent-Disposition: attachment; filename="a.png"\n\n'
        b"xx\n--m--\n"
    )
    assert parse_incoming(raw).problem == "no_text"


def test_empty_and_headerless_input() -> None:
    assert parse_incoming(b"").sender == ""
    assert parse_incoming(b"just words").text == "just words"


# -- bytes no client would send ---------------------------------------------------------

SAMPLE_BYTES = [path.read_bytes() for path in sorted(SAMPLES.glob("*.eml"))]


def check(raw: bytes) -> None:
    mail = parse_incoming(raw)
    assert mail.problem in (None, "too_big", "too_deep", "no_text", "undecodable")
    assert mail.message_id.startswith("<") and mail.message_id.endswith(">")
    assert mail.sender == mail.sender.lower()
    assert all(address == address.lower() for address in mail.recipients)
    assert isinstance(command_line(mail), str)


@settings(max_examples=80, deadline=None)
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_never_raise(raw: bytes) -> None:
    check(raw)


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(SAMPLE_BYTES),
    st.lists(st.tuples(st.floats(0, 1), st.binary(max_size=8), st.integers(0, 40)), max_size=6),
)
def test_mutated_samples_never_raise(raw: bytes, edits: list[tuple[float, bytes, int]]) -> None:
    data = bytearray(raw)
    for where, insert, cut in edits:
        at = int(where * len(data))
        data[at : at + cut] = insert
    check(bytes(data))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.sampled_from(
            [
                b"Content-Type: multipart/mixed; boundary=x\n",
                b"Content-Type: message/rfc822\n",
                b"Content-Type: text/html; charset=utf-7\n",
                b"Content-Transfer-Encoding: base64\n",
                b"Content-Type: message/delivery-status\n",
                b"\n",
                b"--x\n",
                b"--x--\n",
                b"From: =?utf-8?b?###?= <\n",
                b"<blockquote><div id=divRplyFwdMsg>",
                b"> On x wrote:\n",
                b"Final-Recipient: rfc822;\n",
            ]
        ),
        max_size=40,
    )
)
def test_mime_shaped_noise_never_raises(chunks: list[bytes]) -> None:
    check(b"".join(chunks))


# -- every game's moves survive the reader -------------------------------------------


def move_texts(name: str, plies: int = 60) -> set[str]:
    """The text of every legal move met in a short random game of ``name``."""
    from engine.core.registry import get_game

    game = get_game(name)
    state = game.setup(3, game.default_options(), 7)
    rng = random.Random(7)
    texts: set[str] = set()
    for _ in range(plies):
        if game.outcome(state) is not None:
            break
        seat = min(game.pending(state).waiting)
        legal = game.legal_actions(state, seat)
        texts.update(action.text() for action in legal)
        game.apply(state, seat, rng.choice(legal))
    return texts


@pytest.mark.parametrize("game", ["ginkgopolis", "neotopia", "quadropolis", "skybridge"])
def test_each_move_typed_in_a_reply_is_read_as_typed_and_is_no_command(game: str) -> None:
    import engine.ginkgopolis
    import engine.neotopia
    import engine.quadropolis
    import engine.skybridge  # noqa: F401  (each registers its game)

    texts = move_texts(game)
    assert texts
    for text in texts:
        for body in (f"{text}\n", f"{text}\n-- \nAnn\n", f"{text}\n\nOn Fri, Bot wrote:\n> x\n"):
            mail = parse_incoming(f"From: a@example.net\nTo: {SEAT}\n\n{body}".encode())
            assert command_line(mail) == text
        assert parse_command(text) is None, text
