"""Use-cases of rematches: a finished game's players ask to play again.

A rematch keeps the game's size, rules, start, clocks, takebacks and rated setting, with the colours
swapped. Between two people it is an offer: a challenge row naming the game it replays
(``rematch_of``) from the player who asked to the other, with their colour fixed, so it
expires, survives restarts, counts for the limits and is accepted exactly like a challenge.
Against the computer it starts at once: its challenge row is stored accepted, with the game.
A game has at most one rematch (a unique index), so two clicks at once make one.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games import convert
from bot.games.challenges import (
    Challenges,
    LimitReached,
    board_columns,
    clock_and_takebacks,
    limit_message,
)
from bot.games.computer import LEVEL_OF, is_computer
from bot.games.computer_games import ComputerGames
from bot.games.convert import to_ts
from bot.games.core import GameCore
from bot.games.errors import ChallengeExists, NotYourGame, Refusal
from bot.games.models import CHALLENGE_TTL, Challenge, GameOptions, GameView
from bot.games.queries import Queries
from bot.i18n import N_, Message, _
from bot.storage.errors import OverLimitError, RematchExistsError
from bot.storage.rows import ChallengeRow, ChallengeStatus, GameStatus
from engine import Player

AGAIN = N_("challenge again with /challenge")


class NoRematch(Refusal):
    """The game cannot get a rematch (now): not over, not yours, or it has one already."""


def existing_message(existing: ChallengeRow, *, user_id: int, now: float) -> Message:
    """Why a second rematch of the same game is refused, for ``user_id``."""
    game_id = existing.rematch_of
    if existing.status == ChallengeStatus.ACCEPTED and existing.game_id is not None:
        return _(
            "game #{game_id} has its rematch already: game #{rematch_id}",
            game_id=game_id,
            rematch_id=existing.game_id,
        )
    if existing.status == ChallengeStatus.OPEN and existing.expires > now:
        if existing.challenger_id == user_id:
            return _(
                "you have asked for a rematch of game #{game_id} already: it waits for "
                "<@{opponent}>'s answer",
                game_id=game_id,
                opponent=existing.opponent_id,
            )
        return _(
            "<@{challenger}> has offered you a rematch of game #{game_id} already: answer it "
            "with the buttons of the offer",
            game_id=game_id,
            challenger=existing.challenger_id,
        )
    if existing.status == ChallengeStatus.DECLINED:
        return _("the rematch of game #{game_id} was declined: nothing changed", game_id=game_id)
    if existing.status == ChallengeStatus.CANCELLED:
        return _(
            "the rematch offer of game #{game_id} was withdrawn: {again}",
            game_id=game_id,
            again=Message(AGAIN),
        )
    return _(
        "the rematch offer of game #{game_id} has expired: {again}",
        game_id=game_id,
        again=Message(AGAIN),
    )


class Rematches:
    """Rematches: an offer between people, a new game at once against the computer."""

    def __init__(
        self, core: GameCore, challenges: Challenges, computer: ComputerGames, queries: Queries
    ) -> None:
        self.core = core
        self.challenges = challenges
        self.computer = computer
        self.queries = queries

    async def rematch(self, *, game_id: int, user_id: int) -> Challenge | GameView:
        """``user_id`` asks for a rematch of the finished game ``game_id``: the offer to the
        other player (a challenge, expiring like one), or against the computer the new game,
        started (``ComputerToMove`` published when the computer is Pink).

        Raises:
            NoSuchGame, NotYourGame (a bystander), NoRematch (the game is not over, or has
            its rematch already), ChallengeExists (the two have an open challenge),
            LimitReached.
        """
        old = await self.queries.game(game_id)
        colour = old.player_of(user_id)
        if colour is None:
            raise NotYourGame(
                _("only the players of game #{game_id} can ask for its rematch", game_id=game_id)
            )
        if old.status == GameStatus.RUNNING:
            raise NoRematch(_("game #{game_id} is still being played", game_id=game_id))
        if old.status != GameStatus.OVER:
            raise NoRematch(
                _("game #{game_id} was aborted: {again}", game_id=game_id, again=Message(AGAIN))
            )
        now = to_ts(self.core.now())
        existing = await self.core.store.challenges.rematch_of(game_id)
        if existing is not None:
            raise NoRematch(existing_message(existing, user_id=user_id, now=now))
        other = old.user_of(colour.opponent)
        mine = colour.opponent  # the colours swap
        options = replace(old.options, colour="pink" if mine is Player.PINK else "blue")
        row = ChallengeRow(
            challenge_id=0,
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            message_id=None,
            challenger_id=user_id,
            opponent_id=other,
            **board_columns(options),
            clock=convert.clock_seconds(old.clock),
            colour=options.colour,
            rated=options.rated,
            status=ChallengeStatus.OPEN,
            created=now,
            expires=now + CHALLENGE_TTL.total_seconds(),
            game_id=None,
            rematch_of=game_id,
            **clock_and_takebacks(options),
        )
        try:
            if is_computer(other):
                return await self._computer_rematch(row, options, user_id=user_id, now=now)
            limits = await self.challenges.user_limits(guild_id=old.guild_id)
            stored = await self.core.store.challenges.offer_rematch_within(
                row, now=now, max_challenges=limits.challenges, max_games=limits.games
            )
        except OverLimitError as over:
            raise LimitReached(limit_message(over, user_id)) from None
        except RematchExistsError as clash:  # the other player's click came first
            raise NoRematch(existing_message(clash.existing, user_id=user_id, now=now)) from None
        if stored is None:
            raise ChallengeExists(
                N_("there is already an open challenge between you two: answer that one first")
            )
        await self.core.challenge_clock(stored.challenge_id, stored.expires)
        return convert.challenge_value(stored)

    async def _computer_rematch(
        self, row: ChallengeRow, options: GameOptions, *, user_id: int, now: float
    ) -> GameView:
        """Start the rematch against the computer (see ``rematch``).

        Raises:
            OverLimitError, RematchExistsError.
        """
        assert row.clock is not None  # a rematch copies the game's clock
        pink, blue = (
            (user_id, row.opponent_id) if options.colour == "pink" else (row.opponent_id, user_id)
        )
        game = await self.challenges.game_row_of(
            row, pink_id=pink, blue_id=blue, options=options, now=now
        )
        limits = await self.challenges.user_limits(guild_id=row.guild_id)
        stored = await self.core.store.challenges.start_rematch_within(
            replace(row, expires=now),
            game,
            user_id=user_id,
            max_games=limits.games,
            max_computer=limits.computer,
            computer_ids=tuple(LEVEL_OF),
        )
        return await self.computer.started(await self.core.started(stored))
