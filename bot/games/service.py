"""The game service: every use-case of a game, from challenge to rating, over the Store.

Each use-case checks who may act, writes to SQLite in one transaction, and only returns once
that transaction is committed. A refusal (``bot.games.errors.Refusal``) changes nothing.
Knows nothing of Discord: the Discord adapter and the terminal are thin layers over it.

Consistency: every action on a game runs under that game's asyncio lock. The move is applied
to the cached position, then committed; if the commit fails the cached game is dropped (to be
rebuilt from the database), so under the lock memory never differs from the database, and
every reader of a running game (``game``, ``running_games``) takes the lock too.
"""

from __future__ import annotations

from bot.games.challenges import ChallengeCases
from bot.games.computer_games import ComputerCases
from bot.games.core import Subscriber, utc_now
from bot.games.play import PlayCases
from bot.games.queries import QueryCases
from bot.games.rematch import RematchCases
from bot.games.sticker_cases import StickerCases
from bot.games.takebacks import TakebackCases


class GameService(
    RematchCases,
    StickerCases,
    ComputerCases,
    TakebackCases,
    ChallengeCases,
    PlayCases,
    QueryCases,
):
    """The use-cases of Dots games, stored in SQLite, one asyncio lock per game.

    ``now`` is the clock (aware UTC); ``rng`` draws random colours and four-crosses seeds;
    ``max_cached`` bounds the running games kept in memory. Running games are rebuilt lazily
    (replaying their actions) on first use after a restart, or after being dropped from the
    cache; the clocks need only the game rows (see ``bot.clocks.Clocks``).

    The use-cases live by kind in the classes it combines (each module's docstring says
    more): ``ChallengeCases`` (bot/games/challenges.py: challenge to start), ``PlayCases``
    (bot/games/play.py: place, end, resign, time-outs, reminders, aborts), ``ComputerCases``
    (bot/games/computer_games.py: games against the computer, its moves, undo; ``thinker``
    runs its search off the event loop), ``RematchCases`` (bot/games/rematch.py: rematches,
    issue 13), ``TakebackCases`` (bot/games/takebacks.py: takebacks by consent),
    ``StickerCases`` (bot/games/sticker_cases.py: the stickers each action earns, stored with
    it; the sticker book), ``QueryCases`` (bot/games/queries.py: games, leaderboard, stats,
    history) and ``ServiceCore`` (bot/games/core.py: lifecycle, events, clock and turn
    listeners, settings).
    """


__all__ = ["GameService", "Subscriber", "utc_now"]
