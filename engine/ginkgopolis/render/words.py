"""The words drawn on the public images, in the table's language.

``render_board``, ``render_final`` and ``render_timelapse`` take a ``locale`` and draw
within ``language(locale)``; every label goes through ``tr`` (players' names never do).
A label without a French entry stays English. The private image is English for now.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_LOCALE: ContextVar[str] = ContextVar("ginkgopolis_render_locale", default="en")

FRENCH: dict[str, str] = {
    "Round {n}": "Tour {n}",
    "Final city - round {n}": "Ville finale - tour {n}",
    "Character draft": "Choix des personnages",
    "Deck {n} cards": "Pioche {n} cartes",
    "Tile supply {n}": "Réserve de tuiles {n}",
    "Tile supply {n} (ran out {k}x)": "Réserve de tuiles {n} (épuisée {k} fois)",
    "First:": "1er :",
    "LAST ROUND": "DERNIER TOUR",
    "Red 7 (its card: R7)": "Rouge 7 (sa carte : R7)",
    "floors (height)": "étages (hauteur)",
    "owner: 1 cube/floor": "propriétaire : 1 cube/étage",
    "construction site": "chantier",
    "token: may build here": "jeton : on peut bâtir ici",
    "district: 2+ touching": "quartier : 2+ voisins",
    "1st player": "1er joueur",
    "SP": "PS",
    "screen": "paravent",
    "city": "ville",
    "new hand": "nouvelle main",
    "Drafting characters ({n} kept so far)": "Choix des personnages ({n} gardés)",
    "Exploit": "Exploiter",
    "Urbanize": "Urbaniser",
    "Build": "Construire",
    "End-game": "Fin de partie",
    "Ginkgopolis - final scores": "Ginkgopolis - scores finaux",
    "Final scoring": "Décompte final",
    "numbered circles = districts": "cercles numérotés = quartiers",
    "  - winner": "  - gagnant",
    "SP tokens": "jetons PS",
    "cards": "cartes",
    "New Hand": "Nouvelle Main",
    "districts": "quartiers",
    "district {n} ({colour}) {place} +{points}": "quartier {n} ({colour}) {place} +{points}",
    "1st": "1er",
    "2nd": "2e",
    "red": "rouge",
    "blue": "bleu",
    "yellow": "jaune",
    "Final scores": "Scores finaux",
    "Final city": "Ville finale",
}


@contextmanager
def language(locale: str) -> Iterator[None]:
    token = _LOCALE.set(locale)
    try:
        yield
    finally:
        _LOCALE.reset(token)


def tr(text: str, **params: Any) -> str:
    """``text`` (a format string) in the current language, filled with ``params``."""
    if _LOCALE.get() == "fr":
        text = FRENCH.get(text, text)
    return text.format(**params) if params else text
