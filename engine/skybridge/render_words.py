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

LEGEND = "h = storeys. Triangle: roof. Plank: bridge (arrow: to that foundation). Frame: last move."

FRENCH: dict[str, str] = {
    LEGEND: "h = étages. Triangle : toit. Planche : pont (flèche : vers cette fondation). "
            "Cadre : dernier coup.",
    "move {n} - game over": "coup {n} - partie finie",
    "move {n} - {who} to play:": "coup {n} - à {who} de jouer :",
    "h {n}": "h {n}",
    "roof {c}": "toit {c}",
    " (out)": " (éliminé)",
    "{name}{out} has {b3} x 3-storey, {b2} x 2-storey, {bridge} bridge, {roof} roof":
        "{name}{out} a {b3} x 3 étages, {b2} x 2 étages, {bridge} pont, {roof} toit",
    "{name} has {b3} x 3-storey, {b2} x 2-storey of the fourth colour (x3@, x2@)":
        "{name} a {b3} x 3 étages, {b2} x 2 étages de la quatrième couleur (x3@, x2@)",
    "Final score": "Score final",
    "Score if the game ended now": "Score si la partie finissait maintenant",
    "Final scores": "Scores finaux",
    "Scores if the game ended now": "Scores si la partie finissait maintenant",
    "{n} storeys": "{n} étages",
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
