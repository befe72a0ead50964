"""The Discord adapter: slash commands, buttons and posts over the game service.

Only the bot factory (``bot.app``) imports this package; the import-linter contracts in
pyproject.toml hold every other module to that.
"""

from bot.cogs.admin import Admin
from bot.cogs.buttons import DYNAMIC_ITEMS, Starts
from bot.cogs.computer import Computer
from bot.cogs.events import EVENT_NAMES, Events
from bot.cogs.info import Info
from bot.cogs.play import Play
from bot.cogs.stickers import Stickers

COGS = (Play, Computer, Info, Admin, Events, Starts, Stickers)

__all__ = [
    "COGS",
    "DYNAMIC_ITEMS",
    "EVENT_NAMES",
    "Admin",
    "Computer",
    "Events",
    "Info",
    "Play",
    "Starts",
    "Stickers",
]
