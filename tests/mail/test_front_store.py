"""The mail front end's store on SQLite and PostgreSQL: the secret kept, a mail marked
handled in the same transaction as the move it carries (and a duplicate rolling that
move back), the sent Message-IDs, the hourly answer, people and followers."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.mail.store import MailStore
from bot.service import Actor, MemoryNotifier, TableService, TableSettings
from bot.store import open_store
from bot.store.riders import riding

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bot"))

ANN, BOB = Actor("mail:ann@example.net", "ann"), Actor("mail:bob@example.net", "bob")


@pytest.fixture
async def store(target: str) -> AsyncIterator[Any]:
    opened = await open_store(target)
    try:
        yield opened
    finally:
        await opened.close()


async def test_the_secret_is_made_once_and_kept(store: Any) -> None:
    mail = MailStore(store)
    first = await mail.secret()
    assert len(first) == 32
    assert await MailStore(store).secret() == first


async def test_a_mail_is_handled_with_its_move_or_not_at_all(store: Any) -> None:
    service = TableService(store, MemoryNotifier())
    mail = MailStore(store)
    info = await service.create(ANN, "skybridge", settings=TableSettings(seat_order="join"))
    await service.join(info.id, BOB)
    await service.start(info.id, ANN)
    info = await service.info(info.id)
    seat = sorted(info.waiting)[0]
    actor = ANN if seat == 0 else BOB
    prompt = await service.prompt(info.id, actor)
    rider = mail.rider("<m1@x>", 1.0, table_id=info.id, actor_id=actor.user_id, uid=4,
                       uidvalidity=7)
    with riding(rider):
        await service.act(info.id, actor, prompt.options[0].json, version=prompt.version)
    assert rider.landed
    assert await mail.handled("<m1@x>") and await mail.seen(7, 4)
    assert not await mail.seen(8, 4)
    version = (await service.info(info.id)).version
    # The same Message-ID riding another move: the whole save is rolled back.
    info = await service.info(info.id)
    seat = sorted(info.waiting)[0]
    actor = ANN if seat == 0 else BOB
    prompt = await service.prompt(info.id, actor)
    again = mail.rider("<m1@x>", 2.0, table_id=info.id, actor_id=actor.user_id)
    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)), \
            riding(again):
        await service.act(info.id, actor, prompt.options[0].json, version=prompt.version)
    assert not again.landed
    fresh = TableService(store, MemoryNotifier())  # read from the database, not a cache
    assert (await fresh.info(info.id)).version == version
    await service.close()
    await fresh.close()


async def test_a_rider_rides_only_its_own_table_and_actor(store: Any) -> None:
    service = TableService(store, MemoryNotifier())
    mail = MailStore(store)
    info = await service.create(ANN, "skybridge")
    other = await service.create(BOB, "skybridge")
    rider = mail.rider("<m2@x>", 1.0, table_id=info.id, actor_id=None)
    with riding(rider):
        await service.join(other.id, ANN)  # another table's save: not carried
        assert not rider.landed
        await service.join(info.id, BOB)
    assert rider.landed and await mail.handled("<m2@x>")
    assert not await mail.mark_handled("<m2@x>", 3.0)  # known already
    assert await mail.mark_handled("<m3@x>", 3.0)
    await service.close()


async def test_sent_people_and_followers(store: Any) -> None:
    mail = MailStore(store)
    assert not await mail.was_sent("<s1@x>")
    await mail.record_sent("<s1@x>", 10.0)
    await mail.record_sent("<s1@x>", 11.0)
    assert await mail.was_sent("<s1@x>")
    assert await mail.prune(10.0 + 8 * 24 * 3600) == 1
    assert await mail.may_answer("x@y", 100.0)
    assert not await mail.may_answer("x@y", 100.0 + 3599)
    assert await mail.may_answer("x@y", 100.0 + 3601)
    await mail.set_timezone("x@y", "Europe/Paris")
    await mail.set_locale("x@y", "fr")
    person = await mail.person("x@y")
    assert (person.timezone, person.locale) == ("Europe/Paris", "fr")
    assert (await mail.person("nobody@y")).timezone is None
    assert await mail.follow(3, "a@b") and not await mail.follow(3, "a@b")
    await mail.follow(3, "c@d")
    assert await mail.followers(3) == ["a@b", "c@d"]
    assert await mail.unfollow(3, "a@b") and not await mail.unfollow(3, "a@b")
    assert await mail.followers(3) == ["c@d"]


def test_the_two_stores_keep_the_same_tables() -> None:
    from bot.store.migrations import MIGRATIONS_DIR
    from bot.store.pg_schema import PG_MIGRATIONS_DIR

    names = [p.read_text() for p in (*MIGRATIONS_DIR.glob("*_mail.sql"),
                                     *PG_MIGRATIONS_DIR.glob("*_mail.sql"))]
    assert len(names) == 2
    tables = [sorted(line.split()[2] for line in text.splitlines()
                     if line.startswith("CREATE TABLE")) for text in names]
    assert tables[0] == tables[1]
    assert asyncio.iscoroutinefunction(MailStore.secret)
