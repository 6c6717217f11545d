"""An export's final state digest is checked by the replay (bot/history/export.py,
``urbanist replay``): the actions and outcome may be right and the digest still wrong,
and such a document is refused, by the function and by the command."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from test_export import GAMES, _cli, _finished_table_in, played

from bot.history.export import ExportError, export_table, replay
from bot.store.records import canonical
from engine.core import get_game


def finished_document(name: str) -> dict[str, Any]:
    table, seats, actions = played(name, 2, seed=11)
    document: dict[str, Any] = json.loads(json.dumps(export_table(table, seats, actions)))
    return document


def flipped(hex_digest: str) -> str:
    """The digest with its last hex digit changed."""
    last = hex_digest[-1]
    return hex_digest[:-1] + ("0" if last != "0" else "1")


@pytest.mark.parametrize("name", GAMES)
def test_the_export_digest_is_the_sha256_of_the_final_state(name: str) -> None:
    table, seats, actions = played(name, 2, seed=11)
    document = export_table(table, seats, actions)
    assert table.snapshot is not None
    assert document["final_state_sha256"] == hashlib.sha256(
        table.snapshot.encode("utf-8")).hexdigest()
    assert replay(document, get_game).digest == document["final_state_sha256"]


@pytest.mark.parametrize("name", GAMES)
def test_a_tampered_final_digest_is_refused(name: str) -> None:
    document = finished_document(name)
    good = document["final_state_sha256"]
    other = finished_document("fakepicks")["final_state_sha256"]
    for digest in (flipped(good), good.upper(), other, "", None):
        tampered = copy.deepcopy(document)
        tampered["final_state_sha256"] = digest
        with pytest.raises(ExportError, match="final state differs"):
            replay(tampered, get_game)
    missing = copy.deepcopy(document)
    del missing["final_state_sha256"]
    with pytest.raises(ExportError, match="final state differs"):
        replay(missing, get_game)


def test_a_digest_of_another_state_of_the_same_game_is_refused() -> None:
    """The digest of the state one action before the end: a real state, not the last."""
    table, seats, actions = played("skybridge", 2, seed=11)
    game = get_game("skybridge")
    state = game.setup(2, {}, 11)
    for a in actions[:-1]:
        game.apply(state, a.seat, game.action_from_json(a.action))
    document = export_table(table, seats, actions)
    document["final_state_sha256"] = hashlib.sha256(
        canonical(game.state_to_json(state)).encode("utf-8")).hexdigest()
    with pytest.raises(ExportError, match="final state differs"):
        replay(document, get_game)


async def test_urbanist_replay_refuses_a_tampered_digest_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "u.sqlite3"
    table = await _finished_table_in(db)
    out = tmp_path / "t.json"
    assert await _cli(["export", str(table), "--db", str(db), "-o", str(out)]) == 0
    document = json.loads(out.read_text("utf-8"))
    assert await _cli(["replay", str(out)]) == 0
    capsys.readouterr()
    document["final_state_sha256"] = flipped(document["final_state_sha256"])
    out.write_text(json.dumps(document), "utf-8")
    assert await _cli(["replay", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"urbanist replay: {out} does not replay: the replayed final "
                            "state differs from the exported one\n")
