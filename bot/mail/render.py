"""Mail as players read it: the words (templates ``<locale>/mail/``, and the same
notification templates as Discord and the console), times in the reader's own time
zone, and the MIME message itself (plain text, an HTML alternative, the image inline).

Message-IDs are derived from what a mail carries (the outbox row, the recipient), so a
resend after a crash has the same id as the first send: the recipient's client, and the
bot's own record of what went out (``mail_sent``), recognise it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import jinja2
from markupsafe import Markup, escape

from bot import images
from bot.text import TEMPLATES, Renderer

DISPLAY_NAME = "Urbanist"
MAX_NUMBERED = 60  # options listed by number; beyond, the player types the move itself


def zone(name: str | None) -> ZoneInfo | None:
    """The IANA zone ``name`` (``Europe/Paris``), or None when unknown or not given."""
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def zoned_time(name: str | None) -> Callable[[float], str]:
    """A time as a reader in zone ``name`` reads it (UTC when none): digits only, so the
    same in every language."""
    where = zone(name)

    def show(timestamp: float) -> str:
        moment = datetime.fromtimestamp(timestamp, tz=where or UTC)
        text = moment.strftime("%Y-%m-%d %H:%M")
        return f"{text} {moment.tzname()}" + (f" ({name})" if where is not None else "")
    return show


@lru_cache(maxsize=64)
def renderer_for(timezone: str | None) -> Renderer:
    """A Renderer whose ``when`` filter speaks the time zone ``timezone``."""
    return Renderer(time_format=zoned_time(timezone))


def _html_env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                              undefined=jinja2.StrictUndefined, autoescape=True,
                              trim_blocks=True, lstrip_blocks=True)


_HTML = _html_env()


def domain_of(address: str) -> str:
    return address.rpartition("@")[2] or "localhost"


def message_id(kind: str, key: str | int, recipient: str, address: str) -> str:
    """A stable Message-ID: the same mail (its kind and key, e.g. an outbox row) to the
    same recipient always gets the same one."""
    digest = hashlib.sha256(f"{kind}:{key}:{recipient}".encode()).hexdigest()[:20]
    return f"<urbanist.{kind}.{key}.{digest}@{domain_of(address)}>"


def thread_id(table_id: int, address: str) -> str:
    """Every mail of a table refers to this id, so a mail client shows them together."""
    return f"<urbanist.table.{table_id}@{domain_of(address)}>"


@dataclass(frozen=True)
class Letter:
    """One mail to write. ``paragraphs``: the text, in order; ``choices``: the moves
    listed by number (plain texts), also shown as a list in the HTML."""

    to: str
    subject: str
    text: str
    message_id: str
    locale: str = "en"
    image: images.Image | None = None
    extra_images: tuple[images.Image, ...] = ()  # e.g. the public board beside a hand
    attachments: tuple[images.Image, ...] = ()  # not inline: the final timelapse
    reply_to: str | None = None
    unsubscribe: str | None = None  # where a one-line stop goes (List-Unsubscribe)
    thread: str | None = None
    in_reply_to: str | None = None
    auto: str = "auto-generated"  # Auto-Submitted: never answered by auto-responders
    link: str | None = None  # the table's page, which the text names: a link in the HTML


    @property
    def images(self) -> list[images.Image]:
        return ([self.image] if self.image is not None else []) + list(self.extra_images)


def linked(paragraph: str, link: str | None) -> Markup:
    """``paragraph`` escaped for HTML, the table's page made a link where the text names
    it. Only that one address: nothing a player wrote (a name) ever becomes a link."""
    escaped = escape(paragraph)
    if not link:
        return escaped
    anchor = Markup('<a href="{0}">{0}</a>').format(link)
    return Markup(str(escaped).replace(str(escape(link)), str(anchor)))


def html_of(letter: Letter, pictures: Sequence[tuple[str, str]]) -> str:
    """The HTML alternative; ``pictures``: (cid without brackets, alt text) of each image."""
    return _HTML.get_template("_shared/mail/page.html").render(
        lang=letter.locale, subject=letter.subject,
        paragraphs=[linked(p, letter.link) for p in letter.text.split("\n\n") if p.strip()],
        pictures=pictures)


def build(letter: Letter, sender: str) -> EmailMessage:
    """The MIME message: text/plain, text/html with the images inline (cid), headers that
    keep auto-responders quiet and say how to stop."""
    msg = EmailMessage()
    msg["From"] = formataddr((DISPLAY_NAME, sender))
    msg["To"] = letter.to
    msg["Subject"] = letter.subject
    msg["Date"] = formatdate(usegmt=True)
    msg["Message-ID"] = letter.message_id
    if letter.reply_to:
        msg["Reply-To"] = letter.reply_to
    refs = [r for r in (letter.in_reply_to, letter.thread) if r]
    if letter.in_reply_to:
        msg["In-Reply-To"] = letter.in_reply_to
    if refs:
        msg["References"] = " ".join(refs)
    msg["Auto-Submitted"] = letter.auto
    msg["X-Auto-Response-Suppress"] = "All"  # Outlook's out-of-office stays quiet
    if letter.unsubscribe:
        msg["List-Unsubscribe"] = f"<mailto:{letter.unsubscribe}?subject=stop>"
    msg.set_content(letter.text)
    cids = [make_msgid(domain=domain_of(sender)) for _ in letter.images]
    msg.add_alternative(html_of(letter, [(cid[1:-1], image.alt) for cid, image
                                         in zip(cids, letter.images, strict=True)]),
                        subtype="html")
    if cids:
        part = msg.get_payload()[1]  # type: ignore[index]  # multipart: a list of parts
        assert isinstance(part, EmailMessage)
        for cid, image in zip(cids, letter.images, strict=True):
            part.add_related(image.data, maintype="image", subtype="png", cid=cid,
                             filename=image.filename, disposition="inline")
    for item in letter.attachments:
        subtype = item.filename.rpartition(".")[2].lower() or "octet-stream"
        msg.add_attachment(item.data, maintype="image", subtype=subtype,
                           filename=item.filename)
    return msg


def say(renderer: Renderer, name: str, context: Mapping[str, Any], *, locale: str,
        game: str | None = None) -> str:
    """``templates/<locale>/mail/<name>.txt`` (a game may word its own)."""
    return renderer.render_template(f"mail/{name}", context, locale=locale, game=game)
