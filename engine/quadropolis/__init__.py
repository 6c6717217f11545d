"""Quadropolis (Days of Wonder 2016): classic and expert modes, with the Squares option."""

from engine.core.registry import register
from engine.quadropolis.game import QuadropolisGame

GAME = QuadropolisGame()
register(GAME)

__all__ = ["GAME", "QuadropolisGame"]
