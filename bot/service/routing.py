"""A Notifier that sends each notification where its reader plays: a table may seat
Discord members, mail players and console players side by side.

Private notes go to the front end of the seat's user (``mail:<address>`` to the mail
transport, anything else to the other one: Discord or the console); public notes go to
every front end: the table's home (its Discord channel) and the mail transport (the
round's digest for the mail seats and followers). What became of a note sent by two is
the least settled answer: a retry or a hold wins over sent (each transport keeps its own
record of what it sent, so a retry does not repeat it).

A router hides the transports it wraps; a front end that needs its own transport's parts
(Discord's status board, to edit the status message from a command) finds them with
``transports``, however the notifier it was given is wrapped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from bot.service.notifications import HELD, SENT, Delivery, Failed, Notification, Notifier, Retry

MAIL_PREFIX = "mail:"


def is_mail(user_id: str | None) -> bool:
    return bool(user_id) and str(user_id).startswith(MAIL_PREFIX)


def transports(notifier: object) -> Iterator[object]:
    """``notifier`` and, behind each router, the transports it routes to (depth first,
    the home first): any object with ``parts`` is a router of those."""
    yield notifier
    for part in getattr(notifier, "parts", ()):
        yield from transports(part)


def _rank(outcome: Delivery) -> int:
    if isinstance(outcome, Failed):
        return 3
    if isinstance(outcome, Retry):
        return 2
    if outcome == HELD:
        return 1
    return 0


def merge(first: Delivery, second: Delivery) -> Delivery:
    """The answer of a note two transports sent: the least settled one."""
    if isinstance(first, Retry) and isinstance(second, Retry):
        return first if first.after >= second.after else second
    return first if _rank(first) >= _rank(second) else second


class RoutingNotifier:
    """``home``: the front end of the table's channel and non-mail seats (Discord, the
    console); ``mail``: the mail transport. ``public_to_mail``: which tables' public news
    the mail transport reads (by default every table: it mails only the table's mail
    seats and followers, so a table with none costs one lookup)."""

    def __init__(self, home: Notifier, mail: Notifier, *,
                 public_to_mail: Callable[[int], bool] | None = None) -> None:
        self.home = home
        self.mail = mail
        self.public_to_mail = public_to_mail or (lambda table_id: True)
        # Called at once after each commit only when both are (tests).
        self.inline = bool(getattr(home, "inline", False) and getattr(mail, "inline", False))

    @property
    def parts(self) -> tuple[Notifier, Notifier]:
        """The transports this router hands notes to (see ``transports``)."""
        return (self.home, self.mail)

    async def idle(self) -> None:
        """Wait until what each transport queued is sent (shutdown, tests)."""
        for transport in self.parts:
            idle = getattr(transport, "idle", None)
            if idle is not None:
                await idle()

    async def deliver(self, notes: Sequence[Notification]) -> Mapping[int, Delivery]:
        if not notes:
            return {}
        to_mail = [n for n in notes
                   if is_mail(n.user_id) or (n.seat is None and self.public_to_mail(n.table_id))]
        to_home = [n for n in notes if n.seat is None or not is_mail(n.user_id)]
        results: dict[int, Delivery] = {}
        if to_home:
            results.update(await self.home.deliver(to_home) or {})
        if to_mail:
            mailed = await self.mail.deliver(to_mail) or {}
            for n in to_mail:
                mine = mailed.get(n.outbox_id, SENT)
                results[n.outbox_id] = (merge(results.get(n.outbox_id, SENT), mine)
                                        if n.seat is None else mine)
        # A public note's failure is a transport's own matter (a digest to one reader):
        # the worker's Failed is meant for a private message, which marks its seat.
        for n in notes:
            if n.seat is None and isinstance(results.get(n.outbox_id), Failed):
                results[n.outbox_id] = SENT
        return results
