"""Skybridge (Gigamic 2006): stack blocks, lay bridges, claim towers with roofs."""

from engine.core.registry import register
from engine.skybridge.game import SkybridgeGame

GAME = SkybridgeGame()
register(GAME)

__all__ = ["GAME", "SkybridgeGame"]
