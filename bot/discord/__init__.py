"""The Discord front end: slash commands, buttons, selects and DMs over the table service."""

from bot.discord.bot import BotConfig, UrbanistBot, create_bot

__all__ = ["BotConfig", "UrbanistBot", "create_bot"]
