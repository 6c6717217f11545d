"""The table's page in its mails (issue 26, item 4): with ``URBANIST_PUBLIC_URL`` set,
every mail the notifier sends about a table (decisions, reminders, digests, the final
scores) names the table's page in its text and links it in its HTML, in the table's
language; a private table's mails carry its token's address, never its number's; without
the setting, no mail names a page."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from bot.mail.render import linked
from bot.service import Actor
from bot.store import pages
from bot.web import links
from tests.mail.front_helpers import Rig, command_mail, html_of, rig, text_of

ANN, BOB, FAN = "ann@example.net", "bob@example.net", "fan@example.com"
SITE = "https://tables.example.org"


@pytest.fixture
async def r(tmp_path: Path) -> AsyncIterator[Rig]:
    async with rig(tmp_path / "mail.sqlite3") as made:
        yield made


async def open_table(r: Rig, *, locale: str = "en") -> int:
    """A Skybridge table of Ann, Bob and a bot, opened, followed and started by mail."""
    r.clock.advance(3601)
    await r.mail(command_mail(ANN, f"new skybridge players=3 bots=1 level=easy "
                              f"locale={locale}"))
    await r.mail(command_mail(BOB, "join 1"))
    info = await r.service.info(1)
    await r.service.configure(1, Actor("mail:" + ANN),
                              settings=dataclasses.replace(info.settings, seat_order="join"))
    await r.mail(command_mail(FAN, "follow 1"))
    r.sender.clear()
    await r.mail(command_mail(ANN, "start 1"))
    return 1


async def play_to_the_end(r: Rig, table: int) -> None:
    """Every human seat plays its first move through the service (the mails that the
    moves cause are the notifier's) until the game is over."""
    while (info := await r.service.info(table)).status == "running":
        seat = min(s for s in info.waiting if not info.seats[s].is_bot)
        actor = Actor(str(info.seats[seat].user_id))
        prompt = await r.service.prompt(table, actor)
        await r.service.act(table, actor, prompt.options[0].json, version=prompt.version)
        await r.settle()


def decision(m: EmailMessage) -> bool:
    return "+t" in str(m["Reply-To"] or "")


def mails_of_the_table(r: Rig) -> list[EmailMessage]:
    """What the notifier sent since the table started (decisions, digests, final)."""
    return [m for m in r.sender.history if "#1" in str(m["Subject"])]


async def test_every_mail_of_a_table_carries_its_page(r: Rig,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("URBANIST_PUBLIC_URL", SITE + "/")
    await open_table(r)
    link = f"{SITE}/t/1"
    info = await r.service.info(1)
    # A reminder, then the game to its end.
    r.clock.advance(info.deadline_seconds // 2 + 1)
    await r.service.on_reminder(1, info.version)
    await r.settle()
    await play_to_the_end(r, 1)
    sent = list(r.sender.sent)
    assert any(decision(m) for m in sent)
    assert any(str(m["Subject"]).startswith("Reminder:") for m in sent)
    assert any(str(m["To"]) == FAN for m in sent)  # the follower's digests
    for m in sent:
        text, html = text_of(m), html_of(m)
        if str(m["To"]) == FAN or decision(m):
            assert link in text, m["Subject"]
            assert f'<a href="{link}">{link}</a>' in html, m["Subject"]
    finals = [text_of(m) for m in sent if "is over" in text_of(m)]
    assert finals  # each reader's final digest offers the replay
    assert all(f"Replay the game move by move: {link}" in t for t in finals)
    running = [text_of(m) for m in sent if decision(m)]
    assert all(f"Follow the table on the web: {link}" in t for t in running)


async def test_without_a_public_url_no_mail_names_a_page(r: Rig,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("URBANIST_PUBLIC_URL", raising=False)
    await open_table(r)
    await play_to_the_end(r, 1)
    sent = mails_of_the_table(r)
    assert any(decision(m) for m in sent) and any(str(m["To"]) == FAN for m in sent)
    for m in sent:
        for part in (text_of(m), html_of(m)):
            assert "/t/1" not in part and "on the web" not in part and "<a " not in part
            assert "Replay the game" not in part


async def test_a_private_tables_mails_carry_its_token_never_its_number(
        r: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("URBANIST_PUBLIC_URL", SITE)
    await open_table(r, locale="fr")
    access = await pages.set_public(r.store, 1, False)
    assert access.token
    secret = f"{SITE}/p/{access.token}"
    r.sender.clear()
    await play_to_the_end(r, 1)
    sent = r.sender.sent
    assert any(decision(m) for m in sent) and any(str(m["To"]) == FAN for m in sent)
    for m in sent:
        text, html = text_of(m), html_of(m)
        assert "/t/1" not in text and "/t/1" not in html
        assert secret in text and f'href="{secret}"' in html
    # In the table's language.
    assert any(f"Suivre la table sur le web : {secret}" in text_of(m)
               for m in sent if decision(m))
    assert any(f"Revoir la partie coup par coup : {secret}" in text_of(m) for m in sent)


async def test_the_page_is_read_once_per_delivery_not_once_per_mail(
        r: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("URBANIST_PUBLIC_URL", SITE)
    await open_table(r)
    reads: list[int] = []
    deliveries: list[int] = []
    access = links.pages.access

    async def counted_access(store: Any, table_id: int) -> pages.PageAccess:
        reads.append(table_id)
        return await access(store, table_id)

    deliver = r.front.notifier.deliver

    async def counted_deliver(notes: Any) -> Any:
        deliveries.append(len(notes))
        return await deliver(notes)

    monkeypatch.setattr(links.pages, "access", counted_access)
    monkeypatch.setattr(r.front.notifier, "deliver", counted_deliver)
    r.sender.clear()
    await play_to_the_end(r, 1)
    assert reads and len(reads) <= len(deliveries)
    assert len(r.sender.sent) > len(reads)  # several mails share one read


def test_only_the_tables_page_becomes_a_link_in_the_html() -> None:
    link = f"{SITE}/p/a-b_c"
    html = str(linked(f'Ann <script> "https://evil.test" & Follow: {link}', link))
    assert f'<a href="{link}">{link}</a>' in html
    assert "&lt;script&gt;" in html and "<script>" not in html
    assert 'href="https://evil.test"' not in html
    assert str(linked("no page here", None)) == "no page here"


async def test_an_answer_about_a_table_carries_its_page(
        r: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("URBANIST_PUBLIC_URL", SITE + "/")
    r.clock.advance(3601)
    await r.mail(command_mail(ANN, "new skybridge players=3 bots=1 level=easy"))
    r.sender.clear()
    await r.mail(command_mail(BOB, "join 1"))
    answers = [m for m in r.sender.sent if BOB in str(m["To"])]
    assert answers and all(f"{SITE}/t/1" in text_of(m) for m in answers)
    # An answer that names no table names no page.
    r.sender.clear()
    await r.mail(command_mail(FAN, "help"))
    assert r.sender.sent and all(SITE not in text_of(m) for m in r.sender.sent)
