"""What the mail front end's modules share, below all of them: who is a mail user, and
the front end as the notifier and the commands see it (``MailFront`` is one)."""

from __future__ import annotations

from email.message import EmailMessage
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from bot.clock import Clock
    from bot.mail.incoming import Incoming
    from bot.mail.render import Letter
    from bot.mail.store import MailStore
    from bot.service import TableService
    from bot.text import Renderer

MAIL_PREFIX = "mail:"


def is_mail_user(user_id: str | None) -> bool:
    return bool(user_id) and str(user_id).startswith(MAIL_PREFIX)


def address_of(user_id: str) -> str:
    return user_id[len(MAIL_PREFIX):]


def mail_user(address: str) -> str:
    return MAIL_PREFIX + address.lower()


class Sender(Protocol):
    async def send(self, message: EmailMessage) -> None: ...


class Front(Protocol):
    address: str
    sender: Sender
    clock: Clock

    @property
    def service(self) -> TableService: ...

    @property
    def mail_store(self) -> MailStore: ...

    def build(self, letter: Letter) -> EmailMessage: ...

    def reply_address(self, table_id: int, seat: int, version: int) -> str: ...

    def stop_address(self, table_id: int, address: str) -> str: ...

    def personal_address(self, address: str) -> str: ...

    def line(self, mail: Incoming) -> str: ...

    async def renderer_of(self, address: str) -> Renderer: ...

    async def locale_of(self, address: str, default: str = "en") -> str: ...

    async def done(self, mail: Incoming, uid: int | None, uidvalidity: int | None,
                   table_id: int | None = None) -> bool: ...

    async def move_at(self, mail: Incoming, table_id: int, seat: int, uid: int | None,
                      uidvalidity: int | None) -> bool: ...

    async def reply(self, mail: Incoming, template: str, context: dict[str, Any],
                    locale: str, *, reply_to: str | None = None,
                    table_id: int | None = None) -> bool: ...
