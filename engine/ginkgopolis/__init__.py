"""Ginkgopolis (Xavier Georges, Pearl Games 2012): rules, views, scoring and AI players."""

from engine.core.registry import register
from engine.ginkgopolis.game import GinkgopolisGame

GAME = GinkgopolisGame()
register(GAME)

__all__ = ["GAME", "GinkgopolisGame"]
