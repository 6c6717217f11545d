"""A table's page address, for the messages that carry it (the Discord status message,
``/table status``, the game-over post, mail): ``$URBANIST_PUBLIC_URL/t/<table>``, or
``/p/<token>`` for a private table; None when no public URL is set."""

from __future__ import annotations

import logging

from bot.store import pages
from bot.store.interface import Store
from bot.web.server import public_url

log = logging.getLogger(__name__)


def page_path(access: pages.PageAccess) -> str:
    if access.public or access.token is None:
        return f"/t/{access.table_id}"
    return f"/p/{access.token}"


async def table_link(store: Store, table_id: int) -> str | None:
    """The table's link, or None (no public URL, or the database could not say: a
    message goes without its link rather than not at all)."""
    base = public_url()
    if base is None:
        return None
    try:
        access = await pages.access(store, table_id)
    except Exception:
        log.warning("table %d: no link (its page flags could not be read)", table_id,
                    exc_info=True)
        return None
    return base + page_path(access)
