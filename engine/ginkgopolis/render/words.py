"""The words drawn on the public images, in the table's language.

Every ``render_*`` function takes a ``locale`` and draws within ``language(locale)``;
every label goes through ``tr`` (players' names never do). A label without a French entry
stays English (tests/engine/ginkgopolis/render/test_readable.py checks there is none).
"""

from __future__ import annotations

from typing import Any

from engine.fonts.labels import Labels
from engine.ginkgopolis.cards import BUILDING_CARDS, CHARACTERS, is_urbanization
from engine.ginkgopolis.render.palette import BUILDING_NAME

_LABELS = Labels("ginkgopolis")
language = _LABELS.language

FRENCH: dict[str, str] = {
    "Round {n}": "Tour {n}",
    "Final city - round {n}": "Ville finale - tour {n}",
    "Character draft": "Choix des personnages",
    "Deck {n} cards": "Pioche {n} cartes",
    "Tile supply {n}": "Tuiles {n}",
    "Tile supply {n} (ran out {k}x)": "Tuiles {n} (épuisées {k} fois)",
    "First:": "1er :",
    "LAST ROUND": "DERNIER TOUR",
    "Red 7 (its card: R7)": "Rouge 7 (carte R7)",
    "floors (height)": "étages (hauteur)",
    "owner: 1 cube/floor": "à qui : 1 cube/étage",
    "construction site": "chantier",
    "token: build here": "jeton : bâtir ici",
    "district: 2+ touching": "quartier : 2+ voisins",
    "1st player": "1er joueur",
    "SP": "PS",
    "screen": "paravent",
    "city": "ville",
    "new hand": "nouvelle main",
    "NH": "NM",
    "1/res on {colour}": "1/rés. sur {colour}",
    "1/bldg 1-2F": "1/bât. 1-2 ét.",
    "3/bldg 3F+": "3/bât. 3 ét.+",
    "2/{trigger} card": "2/carte {trigger}",
    "2/{colour} card": "2/carte {colour}",
    "Drafting characters ({n} kept so far)": "Choix des personnages ({n} gardés)",
    "Exploit": "Exploiter",
    "Urbanize": "Urbaniser",
    "Build": "Construire",
    "End-game": "Fin de jeu",
    "Ginkgopolis - final scores": "Ginkgopolis - scores finaux",
    "Final scoring": "Décompte final",
    "numbered circles = districts": "cercles numérotés = quartiers",
    "winner": "gagnant",
    "{colour} {place} +{points}": "{colour} {place} +{points}",
    "SP tokens": "jetons PS",
    "cards": "cartes",
    "New Hand": "Nouvelle Main",
    "districts": "quartiers",
    "1st": "1er",
    "2nd": "2e",
    "red": "rouge",
    "blue": "bleu",
    "yellow": "jaune",
    "Final scores": "Scores finaux",
    "Green": "Vert",
    "Purple": "Violet",
    "Orange": "Orange",
    "White": "Blanc",
    "Black": "Noir",
    "Final city": "Ville finale",
    # the private image
    "Draft: keep one of these characters": "Choix : gardez l'un de ces personnages",
    "Your hand ({n} cards)": "Votre main ({n} cartes)",
    "Your hand is empty": "Votre main est vide",
    "- private: only you see this": "- privé : vous seul le voyez",
    "CHOSEN": "CHOISIE",
    "in city: {n} floor{who}": "en ville : {n} étage{who}",
    "in city: {n} floors{who}": "en ville : {n} étages{who}",
    ", owner {p}": ", à {p}",
    ", no owner": ", sans propriétaire",
    "not on top of a building": "au sommet d'aucun bâtiment",
    "Behind your screen": "Derrière votre paravent",
    "success points": "points de succès",
    "resources": "ressources",
    "tiles": "tuiles",
    "New Hand tokens left: {n}": "Jetons Nouvelle Main restants : {n}",
    "In the city: {a} of {b} resources": "En ville : {a} sur {b} ressources",
    "Tiles behind your screen ({n})": "Tuiles derrière votre paravent ({n})",
    "none": "aucune",
    "Played alone:": "Jouée seule :",
    "per floor": "par étage",
    "With a tile: build on it": "+ tuile : bâtir dessus",
    "and keep it as a bonus:": "et la garder en bonus :",
    "and keep it; at game end:": "et la garder ; en fin de partie :",
    "Urbanization": "Urbanisation",
    "With a tile: build on token {letter}": "Avec une tuile : bâtir au jeton {letter}",
    "or": "ou",
    "Start with": "Départ",
    "Bonus each time you": "Bonus quand vous",
    "exploit": "exploitez",
    "urbanize": "urbanisez",
    "build": "construisez",
    "Red": "Rouge",
    "Blue": "Bleu",
    "Yellow": "Jaune",
    "1 SP per resource of yours on {colour} buildings":
        "1 PS par ressource à vous sur les bâtiments {colour}s",
    "1 SP per building of 1 or 2 floors you own": "1 PS par bâtiment de 1 ou 2 étages à vous",
    "3 SP per building of 3 floors or more you own": "3 PS par bâtiment de 3 étages ou plus à vous",
    "2 SP per {trigger} bonus card in front of you":
        "2 PS par carte bonus {trigger} devant vous",
    "2 SP per red card in front of you": "2 PS par carte rouge devant vous",
    "2 SP per blue card in front of you": "2 PS par carte bleue devant vous",
    "2 SP per yellow card in front of you": "2 PS par carte jaune devant vous",
    "{n} SP": "{n} PS",
}


def tr(text: str, **params: Any) -> str:
    """``text`` (a format string) in the current language, filled with ``params``."""
    return _LABELS.tr(FRENCH, text, **params)


# -- cards and characters in words, for the text a player reads (bot templates)

_ITEMS = {
    "en": {"res": ("resource", "resources"), "tile": ("tile", "tiles"),
           "sp": ("point", "points")},
    "fr": {"res": ("ressource", "ressources"), "tile": ("tuile", "tuiles"),
           "sp": ("point", "points")},
}
_EACH = {
    "en": {"exploit": "each time you exploit", "urbanize": "each time you urbanize",
           "construct": "each time you build a floor"},
    "fr": {"exploit": "à chaque exploitation", "urbanize": "à chaque urbanisation",
           "construct": "à chaque étage construit"},
}
_ALONE = {
    "en": {"R": "resources", "B": "tiles", "Y": "points"},
    "fr": {"R": "ressources", "B": "tuiles", "Y": "points"},
}


def _amounts(reward: Any, locale: str) -> str:
    words = _ITEMS.get(locale, _ITEMS["en"])
    parts = [f"{n} {words[k][0 if n == 1 else 1]}"
             for k, n in (("res", reward.res), ("tile", reward.tile), ("sp", reward.sp)) if n]
    return ", ".join(parts) or "-"


def character_text(character: int, locale: str = "en") -> str:
    """``13: start with 1 resource, 1 tile, 1 point; +1 resource each time you exploit``."""
    ch = CHARACTERS.get(int(character))
    if ch is None:
        return str(character)
    loc = locale if locale in _EACH else "en"
    start = "départ" if loc == "fr" else "start with"
    sep = " : " if loc == "fr" else ": "
    return (f"{ch.id}{sep}{start} {_amounts(ch.start, loc)} ; "
            if loc == "fr" else f"{ch.id}{sep}{start} {_amounts(ch.start, loc)}; ") + \
        f"+{_amounts(ch.reward, loc)} {_EACH[loc][ch.trigger]}"


def card_text(card: str, locale: str = "en") -> str:
    """What a card in hand does: alone, and (Building cards) kept as a bonus."""
    loc = locale if locale in _EACH else "en"
    if is_urbanization(card):
        return (f"{card} : seule, 1 ressource ou 1 tuile ; avec une tuile, bâtir au jeton "
                f"{card}") if loc == "fr" else \
            f"{card}: alone 1 resource or 1 tile; with a tile, build at token {card}"
    info = BUILDING_CARDS.get(card)
    if info is None:
        return card
    alone = _ALONE[loc][info.color]
    if loc == "fr":
        text = f"{card} : seule, 1 {alone[:-1]} par étage de {card}"
        if info.trigger:
            text += f" ; gardée, +{_amounts(info.reward, loc)} {_EACH[loc][info.trigger]}"
        elif info.endgame:
            text += " ; gardée, des points en fin de partie"
        return text
    text = f"{card}: alone, 1 {alone[:-1]} per floor of {card}"
    if info.trigger:
        text += f"; kept, +{_amounts(info.reward, loc)} {_EACH[loc][info.trigger]}"
    elif info.endgame:
        text += f"; kept, at game end: {endgame_long(card)}"
    return text


TRIGGER_NAME = {"exploit": "Exploit", "urbanize": "Urbanize", "construct": "Build"}


def endgame_long(card: str) -> str:
    info = BUILDING_CARDS[card].endgame or {}
    kind = info.get("type")
    if kind == "resources_on_color":
        return tr("1 SP per resource of yours on {colour} buildings",
                  colour=tr(BUILDING_NAME[info["color"]]).lower())
    if kind == "buildings_low":
        return tr("1 SP per building of 1 or 2 floors you own")
    if kind == "buildings_high":
        return tr("3 SP per building of 3 floors or more you own")
    if kind == "cards_with_trigger":
        return tr("2 SP per {trigger} bonus card in front of you",
                  trigger=tr(TRIGGER_NAME[info["trigger"]]))
    if kind == "cards_of_color":
        return tr(f"2 SP per {BUILDING_NAME[info['color']].lower()} card in front of you")
    if kind == "flat":
        return tr("{n} SP", n=info["sp"])
    return "?"


def player_name(color: str, hal: bool, name: str | None = None) -> str:
    """The player's own name when the table gave one, else their colour."""
    if hal:
        return "Hal"
    # A seat without a name is called by its colour, in the table's language.
    return name.strip() if name and name.strip() else tr(color.capitalize())


def name_of(p: dict[str, object], names: list[str] | None) -> str:
    """``player_name`` of a view's player, with ``names`` given by seat (may be short)."""
    seat = p.get("seat")
    given = names[seat] if names and isinstance(seat, int) and 0 <= seat < len(names) else None
    return player_name(str(p["color"]), bool(p.get("hal")), given)
