"""One received mail, read: who sent it, to which of our addresses, what they typed, and
whether it is a bounce or an automatic reply that must never be answered.

Pure code over the raw bytes (no network); ``parse_incoming`` never raises: a mail it
cannot read comes back with ``problem`` set. Bounces (DSNs, RFC 3464, and the classic
MAILER-DAEMON texts) are read here too, from the same parsed parts.
"""

from __future__ import annotations

import binascii
import codecs
import dataclasses
import hashlib
import re
from dataclasses import dataclass
from email.header import Header, decode_header
from email.message import Message
from email.parser import BytesHeaderParser, BytesParser, HeaderParser
from email.policy import compat32
from email.utils import getaddresses

from bot.mail.replytext import fresh_text, html_to_text, unflow

MAX_BYTES = 256 * 1024
# Real clients nest four or five levels (mixed > related > alternative > ...); signed and
# forwarded mail a few more.
MAX_DEPTH = 12
# Headers of an oversized mail are read from its first bytes only.
_MAX_HEAD = 64 * 1024
_MAX_ID = 500

_MSG_ID = re.compile(rf"<[^<>\s]{{1,{_MAX_ID}}}>")
_DAEMONS = frozenset({"mailer-daemon", "postmaster", "mail-daemon", "mailerdaemon"})
_PRECEDENCE = frozenset({"bulk", "list", "junk", "auto_reply"})
_AUTO_HEADERS = ("x-autoreply", "x-autorespond", "x-autoresponder", "x-autoresponse")
_AUTO_SUBJECT = re.compile(
    r"\s*(auto(matic)?[ -]?reply|auto:|out of (the )?office|réponse automatique"
    r"|reponse automatique|abwesenheitsnotiz|automatische antwort)",
    re.I,
)
_BOUNCE_SUBJECT = re.compile(
    r"\s*(undeliver|undelivered mail|mail delivery (failed|failure|subsystem)"
    r"|delivery (status notification|failure|has failed)|returned mail|failure notice"
    r"|non remis|non délivrable|message non distribuable|unzustellbar|delayed mail"
    r"|warning: (message|could not)|delivery delayed)",
    re.I,
)
_REPLY_PREFIX = re.compile(
    r"\s*((re|aw|tr|fw|fwd|wg|sv|vs|antw|réf|ref|rif)\s*(\[\d+\])?\s?:\s*)+", re.I
)
_COPY_MARKER = re.compile(
    r"^.{0,20}(this is a copy of|below this line is a copy|original message follows"
    r"|the original message|undelivered message|original message headers"
    r"|message d'origine|copie du message)",
    re.I | re.M,
)
_ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+")
_STATUS5 = re.compile(r"\b5\.\d{1,3}\.\d{1,3}\b|\b5[0-5]\d[ -]")
_STATUS4 = re.compile(r"\b4\.\d{1,3}\.\d{1,3}\b|\b4[0-5]\d[ -]")
_DELAYED = re.compile(
    r"delayed|not yet been delivered|will (continue|keep) (trying|to try)|still trying"
    r"|will retry|temporar",
    re.I,
)


# Names mail clients send that Python's codecs do not know.
_CHARSET_ALIASES = {
    "ks_c_5601-1987": "cp949",
    "iso-8859-8-i": "iso8859-8",
    "windows-874": "cp874",
    "x-mac-roman": "mac_roman",
    "x-sjis": "shift_jis",
    "x-euc-jp": "euc_jp",
}


@dataclass(frozen=True)
class Bounce:
    recipients: tuple[str, ...]
    """The addresses that failed, lowercased."""
    permanent: bool
    """A 5.x.x failure (True) or a 4.x.x delay notice (False)."""
    original_message_id: str | None
    """Message-ID of our mail that bounced, when the report gives it."""


@dataclass(frozen=True)
class Incoming:
    message_id: str
    """'<...>' as given; '<hex sha256 of the raw bytes@sha256.invalid>' when missing."""
    sender: str
    """addr-spec of From, lowercased ('' when unreadable)."""
    recipients: tuple[str, ...]
    """addr-specs of To, Cc, Delivered-To, X-Original-To, lowercased, each once."""
    subject: str
    """Decoded (RFC 2047), reply prefixes kept."""
    text: str
    """The fresh text (see bot.mail.replytext); HTML-only mail converted to text."""
    automatic: bool
    """Never answer: an auto-reply, a list or bulk mail, a bounce, a report."""
    bounce: Bounce | None
    in_reply_to: tuple[str, ...]
    """In-Reply-To then References ids, each once."""
    problem: str | None
    """None, or why it cannot be read: 'too_big', 'too_deep', 'no_text', 'undecodable'.
    With 'no_text' the subject may still carry a command."""


def parse_incoming(raw: bytes) -> Incoming:
    """Reads one mail. Never raises: anything unreadable sets ``problem``."""
    try:
        data = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else bytes(raw)
    except Exception:
        data = b""
    try:
        return _parse(data)
    except Exception:
        pass
    # A fault while reading the body: the headers may still say who to tell.
    try:
        return _headers_only(data, "undecodable")
    except Exception:
        return _unreadable(data)


def command_line(incoming: Incoming) -> str:
    """Where a command is: the first non-empty line of the fresh text, else the subject
    without its Re:/Fwd: prefixes."""
    for line in incoming.text.split("\n"):
        if line.strip():
            return line.strip()
    return strip_reply_prefixes(incoming.subject)


def strip_reply_prefixes(subject: str) -> str:
    """'Re: AW: Fwd: join 12' -> 'join 12'."""
    match = _REPLY_PREFIX.match(subject)
    return (subject[match.end() :] if match else subject).strip()


# -- the whole message ------------------------------------------------------------------


def _synthetic_id(data: bytes) -> str:
    return f"<{hashlib.sha256(data).hexdigest()}@sha256.invalid>"


def _unreadable(data: bytes) -> Incoming:
    return Incoming(_synthetic_id(data), "", (), "", "", False, None, (), "undecodable")


def _parse(data: bytes) -> Incoming:
    if len(data) > MAX_BYTES:
        return _too_big(data)
    try:
        msg = BytesParser(policy=compat32).parsebytes(data)
    except RecursionError:
        return _headers_only(data, "too_deep")
    if _deeper_than(msg, MAX_DEPTH):
        return _headers_only(data, "too_deep")
    head = _Head(msg, data)
    bounce = _bounce(msg, head)
    problem: str | None = None
    plains, htmls = _bodies(msg)
    text = ""
    if plains:
        text = fresh_text("\n".join(plains))
    if not text.strip() and htmls:
        text = fresh_text(html_to_text("\n".join(htmls)))
    if not plains and not htmls:
        problem = "no_text"
    return head.incoming(text, bounce, problem, msg)


def _too_big(data: bytes) -> Incoming:
    """Headers only; but a bounce of one of our big mails (the whole mail returned under
    the report) is still read from its first MAX_BYTES: the report comes first."""
    mail = _headers_only(data, "too_big")
    if not mail.automatic:
        return mail
    try:
        msg = BytesParser(policy=compat32).parsebytes(data[:MAX_BYTES])
        if _deeper_than(msg, MAX_DEPTH):
            return mail
        bounce = _bounce(msg, _Head(msg, data))
    except RecursionError:
        return mail
    return dataclasses.replace(mail, bounce=bounce) if bounce is not None else mail


def _headers_only(data: bytes, problem: str) -> Incoming:
    # The header parser stops at the first blank line; the cut only bounds the work.
    msg = BytesHeaderParser(policy=compat32).parsebytes(data[:_MAX_HEAD])
    return _Head(msg, data).incoming("", None, problem, msg)


def _deeper_than(msg: Message, limit: int) -> bool:
    stack: list[tuple[Message, int]] = [(msg, 0)]
    while stack:
        part, depth = stack.pop()
        if depth > limit:
            return True
        if part.is_multipart():
            payload = part.get_payload()
            if isinstance(payload, list):
                stack.extend((sub, depth + 1) for sub in payload if isinstance(sub, Message))
    return False


class _Head:
    """The headers, read once."""

    def __init__(self, msg: Message, data: bytes) -> None:
        self.msg = msg
        self.data = data
        self.sender = _first_address(_raw_values(msg, "From"))
        recipients: list[str] = []
        for name in ("To", "Cc", "Delivered-To", "X-Original-To"):
            recipients.extend(_addresses(_raw_values(msg, name)))
        self.recipients = tuple(dict.fromkeys(recipients))
        self.subject = _field(msg, "Subject")
        return_paths = [value.strip() for value in _raw_values(msg, "Return-Path")]
        self.null_path = any(value in ("<>", "") for value in return_paths)

    def incoming(
        self, text: str, bounce: Bounce | None, problem: str | None, msg: Message
    ) -> Incoming:
        references = [*_raw_values(msg, "In-Reply-To"), *_raw_values(msg, "References")]
        ids = [found for value in references for found in _MSG_ID.findall(value)]
        return Incoming(
            message_id=self.message_id(),
            sender=self.sender,
            recipients=self.recipients,
            subject=self.subject,
            text=text,
            automatic=bounce is not None or _automatic(msg, self),
            bounce=bounce,
            in_reply_to=tuple(dict.fromkeys(ids)),
            problem=problem,
        )

    def message_id(self) -> str:
        for value in _raw_values(self.msg, "Message-ID"):
            found = _MSG_ID.search(value)
            if found:
                return found.group(0)
            bare = value.strip()
            if bare and len(bare) <= _MAX_ID and not any(ch.isspace() for ch in bare):
                return f"<{bare.strip('<>')}>"
        return _synthetic_id(self.data)

    @property
    def daemon(self) -> bool:
        return self.sender.partition("@")[0] in _DAEMONS


def _automatic(msg: Message, head: _Head) -> bool:
    auto = _field(msg, "Auto-Submitted").lower().partition(";")[0].strip()
    precedence = _field(msg, "Precedence").lower().strip()
    flags = (_field(msg, name).strip().lower() for name in _AUTO_HEADERS)
    return (
        (auto != "" and auto != "no")
        or precedence in _PRECEDENCE
        or msg.get("List-Id") is not None
        or any(flag not in ("", "no") for flag in flags)
        or head.null_path
        or head.daemon
        or msg.get_content_type() == "multipart/report"
        or bool(_AUTO_SUBJECT.match(head.subject))
    )


# -- header text ----------------------------------------------------------------------


def _raw_values(msg: Message, name: str) -> list[str]:
    """Every value of header ``name``, unfolded, with raw 8-bit bytes read as text but
    encoded words left as they are (addresses are parsed before decoding)."""
    values: list[str] = []
    for value in msg.get_all(name) or []:
        text = _header_str(value)
        values.append(re.sub(r"\r?\n[ \t]*", " ", text))
    return values


def _header_str(value: object) -> str:
    if isinstance(value, Header):
        return "".join(
            decode_text(chunk, charset) if isinstance(chunk, bytes) else chunk
            for chunk, charset in decode_header(value)
        )
    # compat32 hands a value with raw 8-bit bytes over as a Header (unknown-8bit).
    return str(value)


def _field(msg: Message, name: str) -> str:
    """The first value of header ``name``, RFC 2047 words decoded ('' when absent)."""
    values = _raw_values(msg, name)
    return _decode_words(values[0]) if values else ""


def _decode_words(value: str) -> str:
    try:
        chunks = decode_header(value)
    except Exception:
        return _printable(value)
    text = "".join(
        decode_text(chunk, charset) if isinstance(chunk, bytes) else chunk
        for chunk, charset in chunks
    )
    return _printable(text)


def _printable(text: str) -> str:
    return re.sub(r"[\x00-\x1f\x7f]+", " ", text).strip()


def _addresses(values: list[str]) -> list[str]:
    found: list[str] = []
    for _name, address in getaddresses(values):
        address = address.strip().lower()
        if address and len(address) <= 320 and not any(ch.isspace() for ch in address):
            found.append(address)
    return found


def _first_address(values: list[str]) -> str:
    found = _addresses(values)
    return found[0] if found else ""


# -- bodies -----------------------------------------------------------------------------


def decode_text(data: bytes, charset: str | None) -> str:
    """Bytes in a declared charset as text. Undeclared (or ASCII-declared) 8-bit text is
    tried as UTF-8, then windows-1252; ISO-8859-1 is read as windows-1252 (as browsers
    do, since that is what is sent); an unknown charset decodes as UTF-8 with U+FFFD."""
    name = (charset or "").strip().strip('"').lower()
    if name in ("", "us-ascii", "ascii", "unknown-8bit", "x-unknown", "default"):
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode("cp1252", "replace")
    name = _CHARSET_ALIASES.get(name, name)
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError):  # ValueError: a NUL in the name
        return data.decode("utf-8", "replace")
    codec = "cp1252" if info.name == "iso8859-1" else info.name
    try:
        return data.decode(codec, "replace")
    except Exception:
        return data.decode("utf-8", "replace")


def _is_attachment(part: Message) -> bool:
    disposition = str(part.get("Content-Disposition", "")).strip().lower()
    return disposition.startswith("attachment") or part.get_filename() is not None


def _bodies(msg: Message) -> tuple[list[str], list[str]]:
    """The plain-text and the HTML bodies a reader sees, attachments left out; in a
    multipart/alternative, the first plain and the first HTML alternative."""
    plains: list[str] = []
    htmls: list[str] = []
    _collect(msg, plains, htmls)
    return plains, htmls


def _collect(part: Message, plains: list[str], htmls: list[str]) -> None:
    # Depth is bounded by _deeper_than before we get here.
    if _is_attachment(part):
        return
    ctype = part.get_content_type()
    if ctype.startswith("message/"):
        return  # a forwarded or returned mail is an attachment, not what was typed
    if part.is_multipart():
        payload = part.get_payload()
        subparts = [sub for sub in payload if isinstance(sub, Message)]
        if ctype == "multipart/alternative":
            for sub in subparts:
                sub_plains: list[str] = []
                sub_htmls: list[str] = []
                _collect(sub, sub_plains, sub_htmls)
                if sub_plains and not plains:
                    plains.extend(sub_plains)
                if sub_htmls and not htmls:
                    htmls.extend(sub_htmls)
        else:
            for sub in subparts:
                _collect(sub, plains, htmls)
        return
    if ctype not in ("text/plain", "text/html"):
        return
    body = _payload_text(part)
    if ctype == "text/html":
        htmls.append(body)
        return
    if str(part.get_param("format", "") or "").lower() == "flowed":
        delsp = str(part.get_param("delsp", "") or "").lower() == "yes"
        body = unflow(body, delsp=delsp)
    plains.append(body)


def _payload_text(part: Message) -> str:
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes):
        return ""
    charset = part.get_param("charset")
    return decode_text(data, charset if isinstance(charset, str) else None)


# -- bounces ----------------------------------------------------------------------------


def _parts(msg: Message) -> list[Message]:
    """Every part, in order (depth already bounded)."""
    found: list[Message] = []
    stack = [msg]
    while stack:
        part = stack.pop()
        found.append(part)
        payload = part.get_payload() if part.is_multipart() else None
        if isinstance(payload, list):
            stack.extend(reversed([sub for sub in payload if isinstance(sub, Message)]))
    return found


def _bounce(msg: Message, head: _Head) -> Bounce | None:
    parts = _parts(msg)
    reports = [part for part in parts if part.get_content_type() == "message/delivery-status"]
    if reports:
        return _dsn(reports, parts)
    if head.daemon or (head.null_path and _BOUNCE_SUBJECT.match(head.subject)):
        return _classic(parts, head)
    return None


def _status_blocks(report: Message) -> list[Message]:
    payload = report.get_payload()
    if not isinstance(payload, list):
        return _blocks_of(str(payload))
    blocks = [block for block in payload if isinstance(block, Message)]
    if str(report.get("Content-Transfer-Encoding", "")).strip().lower() != "base64":
        return blocks
    # The parser read the still-encoded text as blocks of fields; base64 has no ':', so
    # it all landed in the blocks' bodies: decode those and split again.
    encoded = "".join(_body_of(block) for block in blocks)
    try:
        data = binascii.a2b_base64(encoded.encode("ascii", "replace"))
    except binascii.Error:
        return []
    return _blocks_of(decode_text(data, None))


def _body_of(block: Message) -> str:
    try:
        # Even undecoded, a body with raw 8-bit bytes is read in its declared charset.
        body = block.get_payload()
    except (LookupError, ValueError):
        return ""
    return body if isinstance(body, str) else ""


def _blocks_of(text: str) -> list[Message]:
    blocks = re.split(r"\r?\n[ \t]*\r?\n", text)
    return [HeaderParser(policy=compat32).parsestr(block) for block in blocks if block.strip()]


def _dsn(reports: list[Message], parts: list[Message]) -> Bounce:
    recipients: list[str] = []
    permanent = False
    for report in reports:
        for block in _status_blocks(report):
            final = str(block.get("Final-Recipient") or block.get("Original-Recipient") or "")
            if not final:
                continue
            action = str(block.get("Action", "")).strip().lower()
            status = str(block.get("Status", "")).strip()
            if action in ("delivered", "relayed", "expanded"):
                continue
            address = final.rpartition(";")[2].strip().strip("<>").strip().lower()
            if address:
                recipients.append(address)
            if action == "failed" or status.startswith("5"):
                permanent = True
    return Bounce(tuple(dict.fromkeys(recipients)), permanent, _returned_id(parts, ""))


def _returned_id(parts: list[Message], text_after: str) -> str | None:
    """The Message-ID of the returned mail: from its attached copy or its headers."""
    for part in parts:
        ctype = part.get_content_type()
        headers: Message | None = None
        if ctype == "message/rfc822":
            payload = part.get_payload()
            if isinstance(payload, list) and payload and isinstance(payload[0], Message):
                headers = payload[0]
        elif ctype == "text/rfc822-headers":
            headers = HeaderParser(policy=compat32).parsestr(_payload_text(part))
        if headers is not None:
            found = _MSG_ID.search(" ".join(_raw_values(headers, "Message-ID")))
            if found:
                return found.group(0)
    match = re.search(rf"^message-id:\s*({_MSG_ID.pattern})", text_after, re.I | re.M)
    return match.group(1) if match else None


def _classic(parts: list[Message], head: _Head) -> Bounce:
    texts = [
        _payload_text(part)
        for part in parts
        if part.get_content_type() == "text/plain" and not part.is_multipart()
    ]
    text = "\n".join(texts)
    marker = _COPY_MARKER.search(text)
    diagnosis, returned = (text[: marker.start()], text[marker.start() :]) if marker else (text, "")
    ours = set(head.recipients) | {head.sender}
    recipients = [
        found.group(0).lower()
        for found in _ADDRESS.finditer(diagnosis)
        if found.group(0).lower() not in ours
        and found.group(0).partition("@")[0].lower() not in _DAEMONS
    ]
    delayed = bool(_DELAYED.search(head.subject) or _DELAYED.search(diagnosis))
    permanent = bool(_STATUS5.search(diagnosis)) or not (delayed or _STATUS4.search(diagnosis))
    return Bounce(tuple(dict.fromkeys(recipients)), permanent, _returned_id(parts, returned))
