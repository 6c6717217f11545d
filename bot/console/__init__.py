"""Local play in a terminal on the same service as Discord: ``urbanist local GAME``."""

from bot.console.app import run_local

__all__ = ["run_local"]
