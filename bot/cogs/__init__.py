"""The Discord adapter: slash commands, buttons and posts over the game service.

One module per feature, each with its cog, its buttons and the words only it uses:
``play`` (/move, /end, /resign, /board, /games and their confirmations), ``challenges``
(/challenge and its buttons), ``computer`` (/play-computer, /undo), ``rematch``,
``takebacks``, ``draws`` (/draw and its Accept/Decline), ``stickers``, ``review`` (/review,
/puzzle), ``info`` (reading commands),
``admin`` (/dots-admin), ``events`` (what the service publishes), ``start_repair`` (the starts a
kill interrupted) and ``tournaments`` (/tournament, its buttons and posts).
What they share are small modules named for their job: ``client`` (the bot as the cogs see
it), ``locales`` (the languages), ``interactions`` (deferral, answers, refusals),
``card`` (the game card), ``picker`` (the point picker),
``in_game`` (the table of in-game actions, finding a game, the "which game?" menu),
``persistent`` (buttons that outlive a restart), ``names``, ``posting`` (pictures and posts
in a game), ``outcomes`` (announcing an outcome), ``starts`` (a game's thread and first
picture), ``post_order`` and ``posts`` (Discord's limits).

Only the bot factory (``bot.app``) imports this package; the import-linter contracts in
pyproject.toml hold every other module to that.
"""

from typing import get_args

from bot.cogs.admin import Admin
from bot.cogs.card import CardButton, post_card
from bot.cogs.challenges import ChallengeButton, Challenges
from bot.cogs.computer import Computer
from bot.cogs.draws import DrawButton, Draws
from bot.cogs.events import Events, event_name
from bot.cogs.in_game import GamePicker
from bot.cogs.info import Info
from bot.cogs.picker import PickerMove, PickPoint
from bot.cogs.play import ConfirmButton, Play
from bot.cogs.rematch import RematchButton, Rematches
from bot.cogs.review import DailyButton, ReplayButton, Review, ReviewButton
from bot.cogs.start_repair import StartRepair
from bot.cogs.stickers import Stickers
from bot.cogs.takebacks import TakebackButton, Takebacks
from bot.cogs.tournaments import EntryButton, Tournaments
from bot.games import Event
from bot.games.puzzles import DailyPuzzle
from bot.games.tournament_models import TournamentNews

COGS = (
    Challenges, Play, Computer, Info, Admin, Events, StartRepair, Takebacks, Stickers, Review,
    Tournaments, Draws, Rematches,
)  # fmt: skip
DYNAMIC_ITEMS = (
    CardButton, ChallengeButton, ConfirmButton, GamePicker, PickPoint, PickerMove, RematchButton,
    TakebackButton, ReviewButton, ReplayButton, DailyButton, EntryButton, DrawButton,
)  # fmt: skip
# The name each service event is dispatched under (a listener ``on_<name>`` receives it): the
# game's events (the ``Event`` union), a tournament's news and the puzzle of the day.
EVENT_NAMES: dict[type, str] = {
    event: event_name(event) for event in (*get_args(Event), TournamentNews, DailyPuzzle)
}

__all__ = [
    "COGS",
    "DYNAMIC_ITEMS",
    "EVENT_NAMES",
    "Admin",
    "Challenges",
    "Computer",
    "Draws",
    "Events",
    "Info",
    "Play",
    "Rematches",
    "Review",
    "StartRepair",
    "Stickers",
    "Takebacks",
    "Tournaments",
    "post_card",
]
