"""The game service: every use-case of a game, from challenge to rating, over the Store.

Each use-case checks who may act, writes to the database in one transaction, and only returns
once that transaction is committed. A refusal (``bot.games.errors.Refusal``) changes nothing.
Knows nothing of Discord: the Discord adapter and the terminal are thin layers over it.

``GameService`` is a facade: it builds one ``GameCore`` (bot/games/core.py: the running games,
their locks, the commit and its hooks, the event bus) and the collaborators that take it, and
names their use-cases as its own:

- ``Settings`` (bot/games/settings.py): server settings, languages, direct-message wishes;
- ``Challenges`` (bot/games/challenges.py): challenge to start, and the per-user limits;
- ``Play`` (bot/games/play.py): place, end, resign, time-outs, reminders, aborts;
- ``Takebacks`` (bot/games/takebacks.py): takebacks by consent;
- ``ComputerGames`` (bot/games/computer_games.py): games against the computer, its moves, undo;
- ``Rematches`` (bot/games/rematch.py): rematches;
- ``Stickers`` (bot/games/sticker_cases.py): the stickers each action earns; the sticker book;
- ``Queries`` (bot/games/queries.py): games, leaderboards, stats, history, replays;
- ``Reviews`` (bot/games/reviews.py): the computer's review of a finished game;
- ``Puzzles`` (bot/games/puzzles.py): puzzles given, answered and mined, streaks.
- ``Tournaments`` (bot/games/tournaments.py, its rounds in bot/games/tournament_rounds.py):
  Swiss and round-robin tournaments, whose games end their rounds (a commit hook).

What follows the commit of an action is the core's ordered list of commit hooks, set here:
before the write, the stickers it earned (stored in its transaction); after it, the clocks
woken (``ClockChange``) and the computer's turn (``ComputerToMove``), both on the event bus.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Self, Unpack

from bot.games.challenges import Challenges
from bot.games.computer import Thinker
from bot.games.computer_games import ComputerGames
from bot.games.core import CoreOptions, GameCore, utc_now
from bot.games.events import EventBus
from bot.games.models import GameAborted
from bot.games.play import Play
from bot.games.puzzles import Puzzles
from bot.games.queries import Queries
from bot.games.rematch import Rematches
from bot.games.reviews import Reviewer, Reviews
from bot.games.settings import Settings
from bot.games.sticker_cases import Stickers
from bot.games.takebacks import Takebacks
from bot.games.tournaments import Tournaments
from bot.storage import Store
from bot.storage.timer_repository import TimerRepository


class GameService:
    """The use-cases of Dots games, stored in a database, one asyncio lock per game.

    ``now`` is the clock (aware UTC); ``rng`` draws random colours and four-crosses seeds;
    ``max_cached`` bounds the running games kept in memory; ``owns`` says whether this process
    owns a server's games (its shard); ``thinker`` runs the computer's search off the event
    loop, ``reviewer`` the reviews' search (bot/games/reviews.py). Running games are rebuilt
    lazily (replaying their actions) on first use after a restart, or after being dropped
    from the cache.
    """

    def __init__(
        self,
        store: Store,
        *,
        thinker: Thinker | None = None,
        reviewer: Reviewer | None = None,
        **options: Unpack[CoreOptions],
    ) -> None:
        core = GameCore(store, **options)
        self.core = core
        self.events: EventBus = core.events
        self.now = core.now
        self.owns = core.owns
        self.settings = Settings(core)
        self.challenges = Challenges(core, self.settings)
        self.play = Play(core)
        self.takebacks = Takebacks(core)
        self.computer = ComputerGames(core, self.challenges, self.settings, thinker=thinker)
        self.queries = Queries(core)
        self.rematches = Rematches(core, self.challenges, self.computer, self.queries)
        self.stickers = Stickers(core)
        self.puzzles = Puzzles(core)
        self.reviews = Reviews(core, self.queries, self.puzzles, reviewer=reviewer)
        core.before_commit[:] = [self.stickers.earn]
        self.tournaments = Tournaments(core, self.challenges)
        core.after_commit[:] = [
            core.wake_clocks,
            self.computer.take_turn,
            self.tournaments.rounds.game_ended,
        ]
        core.events.subscribe(self.tournaments.rounds.on_aborted, GameAborted)

        # The use-cases, by collaborator (the adapters call them on the service).
        self.subscribe = core.events.subscribe
        self.publish = core.events.publish

        self.set_notify = self.settings.set_notify
        self.wants_notify = self.settings.wants_notify
        self.set_reminders = self.settings.set_reminders
        self.reminders = self.settings.reminders
        self.guild_settings = self.settings.guild_settings
        self.set_guild_settings = self.settings.set_guild_settings
        self.guild_locale = self.settings.guild_locale
        self.set_guild_locale = self.settings.set_guild_locale
        self.player_locale = self.settings.player_locale
        self.remember_locale = self.settings.remember_locale

        self.challenge = self.challenges.challenge
        self.get_challenge = self.challenges.get_challenge
        self.accept = self.challenges.accept
        self.start_game = self.challenges.start_game
        self.decline = self.challenges.decline
        self.cancel = self.challenges.cancel
        self.expire = self.challenges.expire
        self.unshown_accepts = self.challenges.unshown_accepts
        self.unrecorded_challenges = self.challenges.unrecorded_challenges
        self.mark_answer_shown = self.challenges.mark_answer_shown
        self.user_limits = self.challenges.user_limits
        self.set_user_limits = self.challenges.set_user_limits
        self.set_challenge_message = self.challenges.set_challenge_message
        self.open_challenges = self.challenges.open_challenges

        self.place = self.play.place
        self.end = self.play.end
        self.resign = self.play.resign
        self.agree_draw = self.play.agree_draw
        self.time_out = self.play.time_out
        self.remind = self.play.remind
        self.abort = self.play.abort
        self.admin_cancel = self.play.admin_cancel
        self.set_game_thread = self.play.set_game_thread

        self.ask_takeback = self.takebacks.ask_takeback
        self.set_takeback_message = self.takebacks.set_takeback_message
        self.answer_takeback = self.takebacks.answer_takeback

        self.start_computer_game = self.computer.start_computer_game
        self.computer_move = self.computer.computer_move
        self.computer_turns = self.computer.computer_turns
        self.undo = self.computer.undo

        self.rematch = self.rematches.rematch

        self.sticker_book = self.stickers.sticker_book
        self.game_stickers = self.stickers.game_stickers

        self.game = self.queries.game
        self.running_deadline = self.queries.running_deadline
        self.game_in_thread = self.queries.game_in_thread
        self.running_games = self.queries.running_games
        self.unstarted_games = self.queries.unstarted_games
        self.stored_replay = self.queries.stored_replay
        self.store_replay = self.queries.store_replay
        self.leaderboard = self.queries.leaderboard
        self.month_leaderboard = self.queries.month_leaderboard
        self.month_standing = self.queries.month_standing
        self.stats = self.queries.stats
        self.history = self.queries.history

        self.review = self.reviews.review
        self.stored_review = self.reviews.stored_review
        self.reviewable = self.reviews.reviewable

        self.give_puzzle = self.puzzles.give
        self.answer_puzzle = self.puzzles.answer
        self.replay_mistake = self.reviews.replay_mistake
        self.set_daily_puzzle = self.puzzles.set_daily
        self.daily_puzzle = self.puzzles.daily
        self.post_daily_puzzle = self.puzzles.post_daily
        self.daily_puzzle_posted = self.puzzles.daily_posted
        self.give_daily_puzzle = self.puzzles.give_daily
        self.puzzle_streak = self.puzzles.streak

        self.create_tournament = self.tournaments.create
        self.join_tournament = self.tournaments.join
        self.leave_tournament = self.tournaments.leave
        self.start_tournament = self.tournaments.start
        self.withdraw_from_tournament = self.tournaments.withdraw
        self.tournament = self.tournaments.tournament
        self.list_tournaments = self.tournaments.tournaments
        self.tournament_pairings = self.tournaments.tournament_pairings
        self.tournament_standings = self.tournaments.tournament_standings
        self.set_tournament_messages = self.tournaments.set_tournament_messages
        self.is_tournament_game = self.tournaments.is_tournament_game
        self.tournament_rule = self.tournaments.rule
        self.set_tournament_rule = self.tournaments.set_rule
        self.advance_tournament = self.tournaments.rounds.advance
        self.tournament_news = self.tournaments.rounds.news
        self.repair_tournaments = self.tournaments.rounds.repair

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        now: Callable[[], datetime] = utc_now,
        rng: random.Random | None = None,
        owns: Callable[[int | None], bool] | None = None,
    ) -> Self:
        """Open (creating and migrating as needed) the database at ``path`` and a service on it
        (``owns``: whether this process owns a server's games; default all)."""
        return cls(await Store.open(path), now=now, rng=rng, owns=owns)

    async def close(self) -> None:
        """Stop the computer's, the reviews' and the pairing's workers, then close the database
        (after stopping the clocks)."""
        self.computer.close()
        self.reviews.close()
        self.tournaments.rounds.pairer.close()
        await self.core.store.close()

    async def claim_one_off_jobs(self) -> bool:
        """Whether this process, of all sharing the database, runs the one-off jobs (the
        command sync); see ``Store.claim_one_off_jobs``."""
        return await self.core.store.claim_one_off_jobs()

    @property
    def store(self) -> Store:
        """The database the service writes to."""
        return self.core.store

    @property
    def timers(self) -> TimerRepository:
        """The timers and the outbox (what ``bot.clocks`` and ``bot.outbox`` read)."""
        return self.core.store.timers

    @property
    def cached(self) -> int:
        """How many running games are in memory."""
        return self.core.cached

    @property
    def max_cached(self) -> int:
        """The most running games kept in memory."""
        return self.core.max_cached

    @max_cached.setter
    def max_cached(self, value: int) -> None:
        self.core.max_cached = value

    @property
    def thinker(self) -> Thinker:
        """What searches the computer's moves."""
        return self.computer.thinker

    @thinker.setter
    def thinker(self, value: Thinker) -> None:
        self.computer.thinker = value


__all__ = ["GameService", "utc_now"]
