"""A connection lost during the commit: the bot finds out whether the write landed.

PostgreSQL may commit a transaction whose client never hears back. The service then
reads the table's row again: a write that landed is a move made (the player is answered
and what it owes is sent, never "nothing changed"); one that did not is refused as
before; and when the database cannot be read either, the player is told the truth:
nobody knows yet, look at the log before trying again. On both backends.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import HOST, PLAYERS, RenderingNotifier, new_table

from bot.service import Refused, TableService
from bot.store import Store
from bot.store.health import StorageError
from bot.text import Renderer

BACKENDS = ("sqlite", "postgres")


def lost(message: str = "connection reset by peer") -> StorageError:
    return StorageError("io_error", f"the connection to the database was lost ({message})",
                        path="db")


def break_saves(store: Store, *, commit_first: bool) -> None:
    """The next save fails with a lost connection, after committing or before."""
    real = store.save

    async def save(table: Any, **kwargs: Any) -> None:
        setattr(store, "save", real)  # noqa: B010  (one failure only)
        if commit_first:
            await real(table, **kwargs)
            table.rev -= 1  # the store counts its write only once it hears the commit
        raise lost()

    setattr(store, "save", save)  # noqa: B010


async def test_a_commit_that_landed_is_a_move_made_and_its_news_is_sent(
        service: TableService, store: Store, notifier: RenderingNotifier) -> None:
    table = await new_table(service, humans=2)
    prompt = await service.prompt(table, HOST)
    notifier.clear()
    break_saves(store, commit_first=True)
    result = await service.act(table, HOST, prompt.options[0].json, version=prompt.version)
    assert result.version == prompt.version + 1
    assert [a.version for a in await store.load_actions(table)] == [prompt.version + 1]
    assert notifier.notes  # what the move owes went out
    # The live copy knows the row moved on: the next move is no "busy" conflict.
    other = await service.prompt(table, PLAYERS[1])
    after = await service.act(table, PLAYERS[1], other.options[0].json, version=other.version)
    assert after.version == result.version + 1
    assert (await service.verify(table)).ok


async def test_a_write_lost_with_the_connection_changes_nothing_and_says_so(
        service: TableService, store: Store) -> None:
    table = await new_table(service, humans=2)
    before = await store.load_table(table)
    prompt = await service.prompt(table, HOST)
    break_saves(store, commit_first=False)
    with pytest.raises(Refused) as refused:
        await service.act(table, HOST, prompt.options[0].json, version=prompt.version)
    assert (refused.value.code, refused.value.context["fault"]) == ("storage", "io_error")
    text = Renderer().refusal(refused.value, locale="en")
    assert "nothing was changed" in text
    after = await store.load_table(table)
    assert after == before and await store.load_actions(table) == []
    result = await service.act(table, HOST, prompt.options[0].json, version=prompt.version)
    assert result.version == prompt.version + 1


async def test_when_the_database_cannot_say_the_player_is_told_it_is_unknown(
        service: TableService, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    table = await new_table(service, humans=2)
    prompt = await service.prompt(table, HOST)
    break_saves(store, commit_first=False)

    async def load_table(table_id: int) -> Any:
        raise lost("server closed the connection")

    with monkeypatch.context() as patch:
        patch.setattr(store, "load_table", load_table)
        with pytest.raises(Refused) as refused:
            await service.act(table, HOST, prompt.options[0].json, version=prompt.version)
    assert (refused.value.code, refused.value.context["fault"]) == ("storage", "unconfirmed")
    en = Renderer().refusal(refused.value, locale="en")
    fr = Renderer().refusal(refused.value, locale="fr")
    assert "cannot tell whether this was saved" in en and "nothing was changed" not in en
    assert "je ne peux pas dire si cela a été enregistré" in fr and "rien n'a changé" not in fr
    result = await service.act(table, HOST, prompt.options[0].json, version=prompt.version)
    assert result.version == prompt.version + 1


async def test_a_refusal_by_the_database_is_not_read_back(
        service: TableService, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk is the database saying no: the transaction is rolled back, and the
    row is not read again to find out."""
    table = await new_table(service, humans=2)
    prompt = await service.prompt(table, HOST)
    real_load = store.load_table
    reads: list[int] = []

    async def save(table_record: Any, **kwargs: Any) -> None:
        raise StorageError("disk_full", "the disk is full", path="db")

    async def load_table(table_id: int) -> Any:
        reads.append(table_id)
        return await real_load(table_id)

    monkeypatch.setattr(store, "save", save)
    monkeypatch.setattr(store, "load_table", load_table)
    with pytest.raises(Refused) as refused:
        await service.act(table, HOST, prompt.options[0].json, version=prompt.version)
    assert refused.value.context["fault"] == "disk_full"
    assert reads == []


async def test_a_bot_replies_at_once_after_a_commit_that_landed(
        service: TableService, store: Store) -> None:
    """The same live copy writes the bot's reply next: it must know the rev moved."""
    table = await new_table(service, humans=1, bots=1)
    prompt = await service.prompt(table, HOST)
    break_saves(store, commit_first=True)
    await service.act(table, HOST, prompt.options[0].json, version=prompt.version)
    await service.settle(table)
    sources = [a.source for a in await store.load_actions(table)]
    assert "bot" in sources[sources.index("player"):], sources  # the next round's pick
    assert (await service.verify(table)).ok
