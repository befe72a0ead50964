"""The Discord adapter: slash commands, buttons and posts over the game service.

Only the bot factory (``bot.app``) imports this package; the import-linter contracts in
pyproject.toml hold every other module to that.
"""

from bot.cogs.admin import Admin
from bot.cogs.buttons import DYNAMIC_ITEMS as BUTTONS
from bot.cogs.buttons import Starts
from bot.cogs.computer import Computer
from bot.cogs.events import EVENT_NAMES, Events
from bot.cogs.info import Info
from bot.cogs.play import Play
from bot.cogs.rematch import DYNAMIC_ITEMS as REMATCH_BUTTONS
from bot.cogs.stickers import Stickers
from bot.cogs.takebacks import DYNAMIC_ITEMS as TAKEBACK_BUTTONS
from bot.cogs.takebacks import Takebacks

COGS = (Play, Computer, Info, Admin, Events, Starts, Takebacks, Stickers)
DYNAMIC_ITEMS = (*BUTTONS, *REMATCH_BUTTONS, *TAKEBACK_BUTTONS)

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
    "Takebacks",
]
