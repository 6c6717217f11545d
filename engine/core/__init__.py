"""The engine protocol, errors, random generator and registry shared by every game."""

from engine.core.errors import BadOptions, IllegalAction, NotYourTurn, ParseError, UrbanistError
from engine.core.protocol import (
    JSON,
    Action,
    AIPlayer,
    Event,
    Game,
    Outcome,
    Pending,
    ScoreLine,
    Standing,
    View,
    rank_totals,
    seat_name,
)
from engine.core.registry import game_names, get_game, register
from engine.core.rng import Rng
from engine.core.textinput import MAX_TYPED, check_typed, typed_int

__all__ = [
    "JSON",
    "MAX_TYPED",
    "AIPlayer",
    "Action",
    "BadOptions",
    "Event",
    "Game",
    "IllegalAction",
    "NotYourTurn",
    "Outcome",
    "ParseError",
    "Pending",
    "Rng",
    "ScoreLine",
    "Standing",
    "UrbanistError",
    "View",
    "check_typed",
    "game_names",
    "get_game",
    "rank_totals",
    "register",
    "seat_name",
    "typed_int",
]
