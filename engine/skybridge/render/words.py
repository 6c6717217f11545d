"""The words drawn on the Skybridge pictures, in the table's language.

``render_board`` and ``render_final`` take a ``locale`` and draw within
``language(locale)``; each label goes through ``tr`` (names never do). A label without a
French entry stays English.
"""

from __future__ import annotations

from typing import Any

from engine.fonts.labels import Labels

_LABELS = Labels("skybridge")
language = _LABELS.language

FRENCH: dict[str, str] = {
    "move {n} - game over": "coup {n} - partie finie",
    "move {n} - {who} to play:": "coup {n} - à {who} de jouer :",
    "h {n}": "h {n}",
    "roof {c}": "toit {c}",
    " (out)": " (éliminé)",
    "pieces in hand": "pièces en main",
    "score now": "score actuel",
    "final score": "score final",
    "+ fourth colour": "+ quatrième couleur",
    "h = storeys": "h = étages",
    "roof: its colour scores the tower": "toit : sa couleur marque la tour",
    "bridge": "pont",
    "bridge to that foundation": "pont vers cette fondation",
    "last move": "dernier coup",
    "score now: if the game ended now": "score actuel : si la partie finissait maintenant",
    "Final scores": "Scores finaux",
    "Scores if the game ended now": "Scores si la partie finissait maintenant",
    "{n} points": "{n} points",
    "winner": "gagnant",
    "no roof, nothing scored": "pas de toit, aucun point",
    "roof on {f}: tower of {n} storeys": "toit sur {f} : tour de {n} étages",
    "bridge {a}-{b} adds tower {b}": "pont {a}-{b} : la tour {b} compte",
    "bridge {a}-{b} between own roofs: both towers count twice":
        "pont {a}-{b} entre vos toits : les deux tours comptent double",
    "Seat {n}": "Place {n}",
}


def tr(text: str, **params: Any) -> str:
    """``text`` (a format string) in the current language, filled with ``params``."""
    return _LABELS.tr(FRENCH, text, **params)
