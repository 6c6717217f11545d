"""Hot seat: players sharing one terminal each see their own secrets only. Before a
player's private view the keyboard is passed, and the last player's secrets are
cleared off the screen (the table's news stays)."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import run_local
from bot.console.screen import CLEAR


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


async def hot_seat(tmp_path: Path, script: str, *, locale: str = "en", bots: int = 0,
                   players: int = 2) -> str:
    out = Terminal()
    await run_local("fakepicks", players, bots, db=tmp_path / "u.sqlite3", seed=4,
                    locale=locale, stdin=Terminal(script), out=out, names=["Zoé", "Ana"])
    return out.getvalue()


async def test_the_keyboard_is_passed_and_the_screen_cleared_between_players(
        tmp_path: Path) -> None:
    text = await hot_seat(tmp_path, "\n#1\n\n#1\nquit\n")
    screens = text.split(CLEAR)
    assert len(screens) >= 3, text  # cleared each time the keyboard left a player
    first, second = screens[:2]
    assert "Pass the keyboard to Zoé, then press Enter." in first
    assert "Pass the keyboard to Ana, then press Enter." in second
    for screen in screens:  # nothing private shows before the keyboard is passed
        assert "(private)" not in screen.split("press Enter.", 1)[0], screen
    hand = [ln for ln in first.splitlines() if ln.startswith("hand:")]
    assert len(hand) == 1 and hand[0] not in second  # Zoé's hand is gone
    # The table's news of Zoé's move is still on the cleared screen.
    news = first.split("Zoé> ", 1)[1].splitlines()[0]
    assert news.startswith("picked:") and second.startswith(news + "\n"), second


async def test_french_and_a_lone_player_is_never_asked(tmp_path: Path) -> None:
    text = await hot_seat(tmp_path, "\n#1\nquitter\n", locale="fr")
    assert "Passez le clavier à " in text and ", puis appuyez sur Entrée." in text
    (tmp_path / "one").mkdir()
    alone = await hot_seat(tmp_path / "one", "#1\nquit\n", bots=1)
    assert "Pass the keyboard" not in alone and CLEAR not in alone


async def test_end_of_input_while_waiting_for_the_keyboard_saves(tmp_path: Path) -> None:
    text = await hot_seat(tmp_path, "")
    db = tmp_path / "u.sqlite3"
    assert text.rstrip().endswith(f"Resume it with: urbanist local --resume 1 --db {db}")
    assert "(private)" not in text
