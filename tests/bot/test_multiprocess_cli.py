"""The command line of the multi-process setup: ``urbanist run`` takes a PostgreSQL URL
and Discord shards; the terminal commands refuse a URL in one line without its password."""

from __future__ import annotations

import argparse

import discord
import pytest

from bot.cli import main, shard_ids
from bot.discord.bot import ShardedUrbanistBot, UrbanistBot, create_bot, shares_database

URL = "postgresql://urbanist:s3cret@db.example.org/urbanist"


@pytest.mark.parametrize("argv", [["tables", "--db", URL], ["local", "--db", URL],
                                  ["local", "skybridge", "--db", URL]])
def test_terminal_commands_refuse_a_url_in_one_line_without_the_password(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "SQLite" in err and "s3cret" not in err and "db.example.org" not in err


def test_a_url_in_the_environment_is_refused_too(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("URBANIST_DB", URL)
    assert main(["tables"]) == 2
    err = capsys.readouterr().err
    assert "$URBANIST_DB" in err and "s3cret" not in err


@pytest.mark.parametrize(("text", "ids"), [("0", [0]), ("0,1", [0, 1]), ("2-4", [2, 3, 4]),
                                            ("5,0-1,1", [0, 1, 5])])
def test_shard_ids(text: str, ids: list[int]) -> None:
    assert shard_ids(text) == ids


@pytest.mark.parametrize("text", ["", "a", "3-1", "-1", "1,,2"])
def test_bad_shard_ids(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        shard_ids(text)


@pytest.mark.parametrize(("argv", "said"), [
    (["run", "--shard-ids", "0,1"], "--shard-ids needs --shard-count"),
    (["run", "--shard-count", "2", "--shard-ids", "1-2"], "from 0 to 1"),
])
def test_run_refuses_shards_that_do_not_fit(
        argv: list[str], said: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    assert main([*argv, "--db", URL]) == 2
    assert said in capsys.readouterr().err


async def test_create_bot_shards_and_shares_a_postgres_database() -> None:
    sharded = create_bot(URL, shard_count=4, shard_ids=[2, 3], sync_commands=False)
    plain = create_bot("urbanist.sqlite3", sync_commands=False)
    try:
        assert isinstance(sharded, ShardedUrbanistBot)
        assert isinstance(sharded, discord.AutoShardedClient)
        assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])
        assert shares_database(sharded.config)
        assert type(plain) is UrbanistBot and not shares_database(plain.config)
    finally:
        await sharded.http.close()
        await plain.http.close()
