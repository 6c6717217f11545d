"""The fresh text of a reply: what the writer typed, without the quoted history.

Mail clients quote in a handful of shapes, all handled here:

- '>' quotes under an attribution line, top or bottom posting: "On Fri, 27 Nov 2026 at
  10:00, Ann <ann@example.org> wrote:" (Gmail wraps it over two lines), "Le ven. 27 nov.
  2026 à 10:00, Ann <...> a écrit :", "Am 27.11.2026 um 10:00 schrieb Ann <...>:";
- Outlook's unquoted history under "-----Original Message-----" or a header block
  ("From: ... Sent: ... To: ... Subject: ...", in English, French or German);
- signatures: the "-- " line, and the mobile lines ("Sent from my iPhone", "Envoyé de mon
  iPhone", "Von meinem iPhone gesendet", "Get Outlook for iOS");
- HTML: Gmail's gmail_quote, Apple Mail's blockquote type=cite, Thunderbird's
  moz-cite-prefix, Outlook's divRplyFwdMsg (and everything after it), signature blocks.

Only those shapes are cut: no "short last lines look like a name" guessing, because a
move (``R7+B12``, ``#3``, ``1``) is short too. A '#' or '|' never starts a quote.

quotequail 0.5.4 and mail-parser-reply 1.36 were weighed on tests/mail/samples and lost:
quotequail keeps the attribution line of Gmail, German Gmail and iPhone replies, keeps
Outlook's rule and header block, and on a bottom-posted Thunderbird reply returns the
attribution and drops the move; mail-parser-reply misses the French attribution (with its
no-break spaces), bottom posting, "Sent from my iPhone", and reads no HTML. Neither
unfolds format=flowed.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

# -- plain text ---------------------------------------------------------------------

_SPACES = str.maketrans({"\xa0": " ", "\u202f": " ", "\u2007": " ", "\t": " "})
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

# Strict attribution lines: what follows them, quoted or not, is history.
_ATTRIBUTION = (
    re.compile(r"On\s.{0,400}\swrote\s?:", re.I),
    re.compile(r"Le\s.{0,400}\sa\s+[ée]crit\s?:", re.I),
    re.compile(r"Am\s.{0,400}\sschrieb\b.{0,300}:", re.I),
)
# Loose ones ("Ann wrote:") count only right above a '>' quote.
_LOOSE_ATTRIBUTION = re.compile(r".{1,300}\s(wrote|a\s+[ée]crit|schrieb)\s?:", re.I)
_ATTRIBUTION_START = re.compile(r"(on|le|am)\s", re.I)

_ORIGINAL = re.compile(
    r"-{2,}\s*(original message|message d'origine|ursprüngliche nachricht)\s*-{2,}"
    r"|-{2,}\s*(forwarded message|message transféré|weitergeleitete nachricht)\s*-{2,}"
    r"|(begin forwarded message|début du message réexpédié|anfang der weitergeleiteten"
    r" nachricht)\s?:",
    re.I,
)
_HEADER = re.compile(
    r"\*?(from|de|von|sent|envoyé|gesendet|date|datum|to|à|a|an|cc|subject|objet|betreff)"
    r"\s?:\*?(\s|$)",
    re.I,
)
_FROM = re.compile(r"\*?(from|de|von)\s?:\*?\s+\S", re.I)
_RULE = re.compile(r"[_\-=*]{8,}")
_SIGNATURE = re.compile(r"--\s?")
_MOBILE = re.compile(
    r"(sent from my |sent from (outlook|mail|yahoo)|sent with |get outlook for "
    r"|envoyé de mon |envoyé depuis |envoyé à partir de |t[ée]l[ée]charge[rz] outlook"
    r"|obtenir outlook pour |holen sie sich outlook |von meinem .{1,40} gesendet"
    r"|gesendet von )",
    re.I,
)


def _clean(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_SPACES)
    return _INVISIBLE.sub("", text)


def _is_quote(line: str) -> bool:
    return line.lstrip().startswith(">")


def _attribution_size(lines: list[str], at: int) -> tuple[int, bool]:
    """How many lines the attribution starting at ``at`` spans (0: none), and whether it is
    a strict one. Gmail and Thunderbird wrap long attributions over two or three lines."""
    first = lines[at].strip()
    if _ATTRIBUTION_START.match(first):
        joined = ""
        for size in range(1, 4):
            if at + size > len(lines) or (size > 1 and not lines[at + size - 1].strip()):
                break
            joined = f"{joined} {lines[at + size - 1].strip()}".strip()
            if joined.endswith(":") and any(p.fullmatch(joined) for p in _ATTRIBUTION):
                return size, True
    if _LOOSE_ATTRIBUTION.fullmatch(first):
        return 1, False
    return 0, False


def _next_filled(lines: list[str], at: int) -> int:
    while at < len(lines) and not lines[at].strip():
        at += 1
    return at


def _is_header_block(lines: list[str], at: int) -> bool:
    """An Outlook-style header block: a From: line with two more header lines under it."""
    if not _FROM.match(lines[at].strip()):
        return False
    # Wrapped From: or To: fields put other lines between the headers.
    headers = sum(1 for line in lines[at + 1 : at + 8] if _HEADER.match(line.strip()))
    return headers >= 2


def _is_cut(lines: list[str], at: int) -> bool:
    line = lines[at].strip()
    if _ORIGINAL.fullmatch(line) or _is_header_block(lines, at):
        return True
    # Outlook puts a rule of underscores above its header block.
    return bool(_RULE.fullmatch(line)) and (
        (after := _next_filled(lines, at + 1)) < len(lines) and _is_header_block(lines, after)
    )


def fresh_text(text: str) -> str:
    """What the writer typed: ``text`` without quotes, attributions, forwarded or
    original-message history, and signatures. Whitespace at either end is dropped."""
    lines = [line.rstrip() for line in _clean(text).split("\n")]
    kept: list[str] = []
    at = 0
    while at < len(lines):
        line = lines[at]
        if _is_quote(line):
            at += 1
            continue
        size, strict = _attribution_size(lines, at)
        if size:
            after = _next_filled(lines, at + size)
            if after < len(lines) and _is_quote(lines[after]):
                at = after
                continue
            if strict:
                break
        if _is_cut(lines, at) or _SIGNATURE.fullmatch(line) or _MOBILE.match(line.strip()):
            break
        kept.append(line)
        at += 1
    return _trim(kept)


def _trim(lines: list[str]) -> str:
    text = "\n".join(lines).strip()
    # Runs of blank lines left where quotes were cut out read as one.
    return re.sub(r"\n{3,}", "\n\n", text)


# -- format=flowed (RFC 3676) ---------------------------------------------------------


def unflow(text: str, *, delsp: bool = False) -> str:
    """Joins the soft line breaks of a format=flowed body. Quoted lines keep their '>'
    marks (one '>' per level, then a space) so that quote stripping still sees them."""
    out: list[str] = []
    pending: str | None = None
    pending_depth = 0
    for raw in text.replace("\r\n", "\n").split("\n"):
        depth = len(raw) - len(raw.lstrip(">"))
        line = raw[depth:]
        if line.startswith(" "):
            line = line[1:]  # space-stuffing
        flowed = line.endswith(" ") and line != "-- "
        if pending is not None and depth != pending_depth:
            # A flowed line followed by another quote depth ends its paragraph (3676 4.5).
            out.append(_quoted(pending_depth, pending))
            pending = None
        if flowed and delsp:
            line = line[:-1]
        pending = line if pending is None else pending + line
        pending_depth = depth
        if not flowed:
            out.append(_quoted(depth, pending))
            pending = None
    if pending is not None:
        out.append(_quoted(pending_depth, pending))
    return "\n".join(out)


def _quoted(depth: int, line: str) -> str:
    return f"{'>' * depth} {line}" if depth else line


# -- HTML -------------------------------------------------------------------------------

_BLOCKS = frozenset(
    {
        *("address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt"),
        *("figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr"),
        *("li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "td"),
        *("tfoot", "th", "thead", "tr", "ul"),
    }
)
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param"}
    | {"source", "track", "wbr"}
)
_HIDDEN = frozenset({"head", "style", "script", "title", "template", "noscript"})
# Classes and ids whose whole element is history or a signature.
_QUOTE_CLASSES = frozenset(
    {
        "gmail_quote",
        "gmail_extra",
        "gmail_signature",
        "moz-cite-prefix",
        "moz-signature",
        "yahoo_quoted",
        "protonmail_quote",
        "protonmail_signature_block",
        "x_gmail_quote",
    }
)
_QUOTE_IDS = frozenset(
    {
        "signature",
        "mail-editor-reference-message-container",
        "appendonsend",
        "ms-outlook-mobile-signature",
        "applemailsignature",
    }
)
# Outlook: the history is not inside these but after them, to the end of the body.
_HISTORY_IDS = frozenset({"divrplyfwdmsg", "x_divrplyfwdmsg", "ms-outlook-ios-reply"})


_PARAGRAPHS = frozenset({"p", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol", "dl"})


class _TextOf(HTMLParser):
    """Collects visible text line by line: a block boundary ends a non-empty line, a <br>
    always ends one, and a paragraph is set off by a blank line."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.blank_before = False
        self.after_space = True  # at the start of a line, a space is dropped
        self.skipping: str | None = None
        self.skip_depth = 0
        self.pre = 0
        self.done = False

    def _break(self, *, force: bool = False) -> None:
        line = "".join(self.current).strip(" ")
        if line or force:
            self.lines.append(line)
        self.current = []

    def _boundary(self, tag: str) -> None:
        if tag == "br":
            self._break(force=True)
        elif tag in _BLOCKS:
            self._break()
            if tag in _PARAGRAPHS:
                self.blank_before = True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.done:
            return
        if self.skipping is not None:
            if tag == self.skipping and tag not in _VOID:
                self.skip_depth += 1
            return
        values = {name.lower(): (value or "") for name, value in attrs}
        ident = values.get("id", "").strip().lower()
        if ident in _HISTORY_IDS:
            self.done = True
            return
        classes = set(values.get("class", "").lower().split())
        if tag in _HIDDEN or tag == "blockquote" or classes & _QUOTE_CLASSES or ident in _QUOTE_IDS:
            if tag not in _VOID:
                self.skipping, self.skip_depth = tag, 1
            return
        self._boundary(tag)
        if tag == "pre":
            self.pre += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.done and self.skipping is None:
            self._boundary(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.done:
            return
        if self.skipping is not None:
            if tag == self.skipping:
                self.skip_depth -= 1
                if self.skip_depth == 0:
                    self.skipping = None
            return
        if tag != "br":  # '</br>' is a browser quirk, not a second break
            self._boundary(tag)
        if tag == "pre" and self.pre:
            self.pre -= 1

    def handle_data(self, data: str) -> None:
        if self.done or self.skipping is not None:
            return
        if not self.pre:
            text = re.sub(r"\s+", " ", data)
            # Spaces on both sides of a tag ('c <b> </b> d') read as one.
            if text.startswith(" ") and self.after_space:
                text = text[1:]
            if text:
                self.after_space = text.endswith(" ")
            self._text(text)
            return
        *ended, rest = data.split("\n")
        for piece in ended:
            self._text(piece)
            self._break(force=True)
        self._text(rest)

    def _text(self, data: str) -> None:
        if data.strip() and self.blank_before:
            if self.lines and self.lines[-1] and not "".join(self.current).strip():
                self.lines.append("")
            self.blank_before = False
        self.current.append(data)


def html_to_text(html: str) -> str:
    """The visible text of an HTML body, without the quoted history and signature blocks
    clients mark in their HTML."""
    parser = _TextOf()
    try:
        parser.feed(html)
        parser.close()
    except (AssertionError, ValueError):  # pragma: no cover - html.parser is lenient
        pass
    parser._break()
    return _trim(parser.lines)
