"""The words drawn on the Neotopia images, in the table's language.

Every ``render_*`` function takes a ``locale`` and draws within ``language(locale)``;
each label goes through ``tr`` (players' names never do). A label without a French entry
stays English. The bonus, region and project names are those of the game's data
(``name_fr``); a project card's type comes in the view in both languages (``named``).
"""

from __future__ import annotations

from typing import Any

from engine.fonts.labels import Labels

_LABELS = Labels("neotopia")
language = _LABELS.language

FRENCH: dict[str, str] = {
    # header
    "Game over": "Partie finie",
    "Starting elements": "Éléments de départ",
    "Round {n}": "Manche {n}",
    "{who} to play": "à {who} de jouer",
    ", {n} action left": ", {n} action restante",
    ", {n} actions left": ", {n} actions restantes",
    ", placing {what} from {where}": ", place {what} depuis {where}",
    ", choosing a project to build": ", choisit un projet à bâtir",
    ", using {bonus}": ", utilise {bonus}",
    "LAST ROUND": "DERNIÈRE MANCHE",
    "Neotopia - final scores": "Neotopia - scores finaux",
    # board
    "Project offer": "Projets proposés",
    "Deck {n}": "Pioche {n}",
    "{n} tiles": "{n} tuiles",
    "1 tile": "1 tuile",
    "pile empty": "pile vide",
    "last {card}": "dernier {card}",
    "1st": "1er",
    "turn": "joue",
    "hand {h}  built {b}": "main {h}  bâtis {b}",
    "bonus": "bonus",
    "Bonus tokens": "Jetons bonus",
    "Reserve": "Réserve",
    "Deck {d}   Stack {s}": "Pioche {d}   Pile {s}",
    "Subsidy: 2 projects": "Subvention : 2 projets",
    "Automation: 1 action": "Automatisation : 1 action",
    "Initiative: from reserve": "Initiative : de la réserve",
    "Permits: outer cell": "Permis : case extérieure",
    # names: regions, elements (a seat without a name), bonus tokens
    "Desert": "Désert",
    "Aquatic": "Aquatique",
    "Forest": "Forêt",
    "Red": "Rouge",
    "Green": "Vert",
    "Purple": "Violet",
    "Blue": "Bleu",
    "Seat {n}": "Place {n}",
    "Subsidy": "Subvention gouvernementale",
    "Automation": "Automatisation",
    "Private Initiative": "Initiative privée",
    "New Building Permits": "Nouveaux permis de construire",
    "draw 2 projects": "piocher 2 projets",
    "1 more action": "1 action de plus",
    "element from reserve": "élément de la réserve",
    "on an outer cell": "sur une case extérieure",
    # final image
    "Final scoring": "Décompte final",
    "shaded: each largest group; best + second + 3 x worst + 3 per token":
        "ombré : chaque plus grand groupe ; meilleure + deuxième + 3 x pire + 3 par jeton",
    "points": "points",
    "  - winner": "  - gagnant",
    "track": "piste",
    "+ group": "+ groupe",
    "= region": "= région",
    "best region": "meilleure région",
    "second region": "deuxième région",
    "worst x3": "pire x3",
    "tokens x3": "jetons x3",
    "{label}: {region} {total}": "{label} : {region} {total}",
    "worst: {region} {total} x 3": "pire : {region} {total} x 3",
    "{n} unused token x 3": "{n} jeton inutilisé x 3",
    "{n} unused tokens x 3": "{n} jetons inutilisés x 3",
    # private image
    "Projects in hand: {n}": "Projets en main : {n}",
    "patterns may be turned to any of 6 orientations":
        "les motifs se tournent dans les 6 orientations",
    "No project yet: draw from the offer or the deck.":
        "Aucun projet : piochez dans l'offre ou la pioche.",
    "Offer: {n}": "Offre : {n}",
    "draw one by its id, or draw deck ({n} cards left)":
        "piochez-en un par son numéro, ou la pioche ({n} cartes restantes)",
    "game over": "partie finie",
    "your turn": "à vous",
    "round {n}": "manche {n}",
    "Bonus tokens: {n}": "Jetons bonus : {n}",
    "No bonus token": "Aucun jeton bonus",
    "one bonus per turn, free; +3 points each if unused at the end":
        "un bonus par tour, gratuit ; +3 points chacun s'il reste inutilisé à la fin",
    "a bonus was used this turn: the next one waits for your next turn":
        "un bonus a servi ce tour-ci : le suivant attend votre prochain tour",
    # timelapse
    "Final city": "Ville finale",
}


def tr(text: str, **params: Any) -> str:
    """``text`` (a format string) in the current language, filled with ``params``."""
    return _LABELS.tr(FRENCH, text, **params)


def named(en: str, fr: str) -> str:
    """A name the data gives in both languages (a project card's type)."""
    return fr if _LABELS.locale == "fr" and fr else en
