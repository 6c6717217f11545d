"""The words drawn on the Quadropolis images, in the table's language.

Every ``render_*`` function takes a ``locale`` and draws within ``language(locale)``;
each label goes through ``tr`` (players' names never do). A label without a French entry
stays English; the French words are those of the table's text (templates/fr/quadropolis).
"""

from __future__ import annotations

from typing import Any

from engine.fonts.labels import Labels

_LABELS = Labels("quadropolis")
language = _LABELS.language

FRENCH: dict[str, str] = {
    # header and side panel
    "Game over": "Partie finie",
    "Round {r}/{n} · turn {t}/4": "Manche {r}/{n} · tour {t}/4",
    "Quadropolis - final scores": "Quadropolis - scores finaux",
    "Expert": "Expert",
    "Classic": "Classique",
    " + Squares": " + Places",
    "To play": "À jouer",
    "taken with": "prise avec",
    "to place": "à placer",
    "Mayor: first next round": "Maire : joue en 1er",
    "Mayor": "Maire",
    "Architects in the pool": "Architectes en réserve",
    "Last move": "Dernier coup",
    "all architects played": "architectes tous joués",
    "Seat {n}": "Place {n}",
    # legend: the kinds of building and the other marks
    "tower block": "habitation",
    "shop": "commerce",
    "public service": "service public",
    "park": "parc",
    "factory": "usine",
    "harbor": "port",
    "office": "bureaux",
    "monument": "monument",
    "square (park)": "place (parc)",
    "face-down tile": "tuile face cachée",
    "Urbanist": "Urbaniste",
    # the final image
    "Tower blocks": "Habitations",
    "Shops": "Commerces",
    "Public serv.": "Serv. publics",
    "Parks": "Parcs",
    "Factories": "Usines",
    "Harbors": "Ports",
    "Offices": "Bureaux",
    "Monuments": "Monuments",
    "Idle people": "Oisifs",
    "Pollution": "Pollution",
    "unplaced: {i} inh., {e} energy": "non placés : {i} hab., {e} én.",
    " ({n} in parks)": " ({n} en parc)",
    "tie-breaks: {i} inh. placed, {e} empty": "départage : {i} hab. placés, {e} cases vides",
    "not activated: removed": "non activé : retiré",
    "inhabitant placed": "habitant placé",
    "energy placed": "énergie placée",
    # the private image
    "architects: the shared pool": "architectes : la réserve commune",
    "your architects:": "vos architectes :",
    "all your architects are played": "tous vos architectes sont joués",
    # the timelapse
    "Final cities": "Villes finales",
    "Start of round {r}/{n}": "Début de la manche {r}/{n}",
}


def tr(text: str, **params: Any) -> str:
    """``text`` (a format string) in the current language, filled with ``params``."""
    return _LABELS.tr(FRENCH, text, **params)
