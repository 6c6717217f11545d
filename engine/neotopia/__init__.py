"""Neotopia (MEBO Games 2023): move elements out of the manufactures, complete project
patterns in three regions, balance your scores. Data-driven: ships a documented house set."""

from engine.core.registry import register
from engine.neotopia.game import NeotopiaGame

GAME = NeotopiaGame()
register(GAME)

__all__ = ["GAME", "NeotopiaGame"]
