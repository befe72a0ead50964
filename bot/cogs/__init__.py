"""The Discord adapter: slash commands, buttons and posts over the game service."""

from bot.cogs.admin import Admin
from bot.cogs.computer import Computer
from bot.cogs.events import Events
from bot.cogs.info import Info
from bot.cogs.play import DYNAMIC_ITEMS, Play

COGS = (Play, Computer, Info, Admin, Events)

__all__ = ["COGS", "DYNAMIC_ITEMS", "Admin", "Computer", "Events", "Info", "Play"]
