"""Use-cases of games against the computer: start one, let the computer move, take back.

The computer is a pseudo user (``bot.games.computer``); its games are ordinary games, always
unrated, so everything else (clocks, queries, time-outs, the pictures) works unchanged. The
computer's move is searched off the event loop WITHOUT the game's lock (a hard search takes
up to ~2 s), then applied under the lock through the same committed path as a human's move,
only if the game did not change meanwhile (same number of actions).

After every committed action a commit hook (``ComputerGames.take_turn``) sees whether the
computer is to move: it then publishes ``ComputerToMove`` on the event bus, and
``bot.computer_turns.ComputerTurns`` arms a task that plays the turn and publishes
``ComputerMoved``. No adapter has to ask for it.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.games import convert
from bot.games.challenges import Challenges
from bot.games.computer import (
    COMPUTER_IDS,
    Thinker,
    computer_id,
    computer_level,
    is_computer,
    move_seed,
)
from bot.games.core import Commit, GameCore
from bot.games.errors import (
    GameChanged,
    NotAgainstComputer,
    NothingToUndo,
    OptionOutOfRange,
    Refusal,
)
from bot.games.events import ComputerToMove
from bot.games.models import GameOptions, GameView, MoveOutcome, Undone
from bot.games.play import check_turn
from bot.games.settings import Settings
from bot.i18n import N_
from engine import ActionKind, DotsError, Game, Placement, Player
from engine.game import Record

log = logging.getLogger(__name__)


class ComputerGames:
    """Games against the computer. ``thinker`` runs its search (a process pool by default;
    tests pass ``Thinker(processes=False, iterations=...)``)."""

    def __init__(
        self,
        core: GameCore,
        challenges: Challenges,
        settings: Settings,
        *,
        thinker: Thinker | None = None,
    ) -> None:
        self.core = core
        self.challenges = challenges
        self.settings = settings
        self.thinker = thinker or Thinker()
        # Games whose computer move is being searched: a second request for the same game
        # returns at once instead of searching the same position twice.
        self._thinking: set[int] = set()

    async def take_turn(self, commit: Commit) -> None:
        """Commit hook: when the committed action leaves the computer to move, publish
        ``ComputerToMove`` (``bot.computer_turns.ComputerTurns`` plays it)."""
        outcome = commit.outcome
        assert outcome is not None
        if outcome.is_over or not is_computer(outcome.next_user_id):
            return
        # The computer moves in the cached game at once, maybe before the adapter has shown
        # this action: give the caller a copy of the position as it is now (bench/snapshot.py:
        # under a millisecond, once per move against the computer).
        frozen = replace(outcome.view, game=snapshot(commit.live.game))
        commit.outcome = replace(outcome, view=frozen)
        await self.core.events.publish(ComputerToMove(commit.live.row.game_id))

    async def started(self, view: GameView) -> GameView:
        """A game just started: when the computer is Pink, publish ``ComputerToMove``; the
        start as the caller shows it (a copy, as the computer plays at once)."""
        if not is_computer(view.to_move_id):
            return view
        frozen = replace(view, game=snapshot(view.game))
        await self.core.events.publish(ComputerToMove(view.game_id))
        return frozen

    def close(self) -> None:
        """Stop the computer's worker."""
        self.thinker.close()

    async def start_computer_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        level: str = "medium",
        options: GameOptions | None = None,
    ) -> GameView:
        """Start an unrated game of ``user_id`` against the computer at ``level``;
        ``options.colour`` is the player's colour (random by default). When the computer is
        Pink, ``ComputerToMove`` is published.

        Raises:
            OptionOutOfRange (also for an unknown level), CannotChallengeSelf.
        """
        options = options or GameOptions()
        try:
            computer = computer_id(level)
        except ValueError as error:
            raise OptionOutOfRange(error) from None
        colour = options.colour
        if colour == "random":
            colour = "pink" if self.core.rng.random() < 0.5 else "blue"
        pink, blue = (user_id, computer) if colour == "pink" else (computer, user_id)
        options = GameOptions(
            width=options.width,
            height=options.height,
            rules=options.rules,
            start=options.start,
            clock=options.clock
            or (await self.settings.guild_settings(guild_id=guild_id)).default_clock,
            colour=colour,
            rated=False,
            game_clock=options.game_clock,
        )
        view = await self.challenges.start_game(
            guild_id=guild_id, channel_id=channel_id, pink_id=pink, blue_id=blue, options=options
        )
        return await self.started(view)

    async def computer_move(self, *, game_id: int, cheap: bool = False) -> MoveOutcome | None:
        """If the computer is to move in this running game, search its move off the event loop
        and play it (committed before returning); None when it is not the computer's turn,
        the game is over or unknown, it is already thinking here, or the game changed while
        it thought. ``cheap``: a short search in a thread (the last resort, see ``Thinker``).

        Raises:
            BrokenProcessPool: the search's worker process died (twice).
            DotsError: the computer chose an illegal move (a bug of the computer player; the
                cached position is dropped and nothing is stored).
        """
        if game_id in self._thinking:
            return None
        self._thinking.add(game_id)
        try:
            async with self.core.lock(game_id):
                asked = await self._computer_to_move(game_id)
                if asked is None:
                    return None
                record, moves, user_id = asked
            decision = await self.thinker.choose(
                record,
                computer_level(user_id),
                move_seed(game_id=game_id, moves=moves),
                cheap=cheap,
            )
            async with self.core.lock(game_id):
                if await self._computer_to_move(game_id) is None:
                    return None
                live = await self.core.running(game_id)
                if live.row.moves != moves:
                    return None  # someone acted (an undo, a resign) while it thought
                colour = live.game.to_move
                assert colour is not None
                placement: Placement | None = None
                try:
                    if decision.kind == ActionKind.DOT:
                        assert decision.point is not None
                        placement = live.game.place(decision.point, colour)
                    else:
                        live.game.end(colour)
                except DotsError:
                    # The search read this very position, so this is a bug of the computer:
                    # drop the position (rebuilt from the database on next use).
                    self.core.forget(game_id)
                    raise
                return await self.core.commit(live, live.game.actions[-1], placement)
        finally:
            self._thinking.discard(game_id)

    async def _computer_to_move(self, game_id: int) -> tuple[Record, int, int] | None:
        """(record, actions so far, computer's id) when the computer is to move; under the lock."""
        try:
            live = await self.core.running(game_id)
        except Refusal:
            return None
        to_move = live.game.to_move
        if to_move is None:
            return None
        user_id = live.row.pink_id if to_move is Player.PINK else live.row.blue_id
        if not is_computer(user_id):
            return None
        return live.game.record, live.row.moves, user_id

    async def computer_turns(
        self, *, owns: Callable[[int | None], bool] | None = None
    ) -> list[int]:
        """The running games (of servers this process owns, and with ``owns`` of those it
        says) in which the computer is to move (``ComputerTurns.start`` re-arms them after a
        restart)."""
        found = []
        for user_id in COMPUTER_IDS.values():
            for game_id in await self.core.store.games.running_game_ids(user_id, None):
                row = await self.core.store.games.game(game_id)
                if row is None or not self.core.owns(row.guild_id):
                    continue  # another process's shard (see ``owns``)
                if owns is not None and not owns(row.guild_id):
                    continue
                async with self.core.lock(game_id):
                    if await self._computer_to_move(game_id) is not None:
                        found.append(game_id)
        return sorted(set(found))

    async def undo(self, *, game_id: int, user_id: int) -> Undone:
        """Take back ``user_id``'s last dot and the computer's reply, in an unrated game
        against the computer, on the player's turn; their clock starts again.

        Raises:
            NoSuchGame, NotYourGame, GameOver, NotAgainstComputer, NotYourTurn, NothingToUndo,
            GameChanged.
        """
        async with self.core.lock(game_id):
            live = await self.core.running(game_id)
            colour = self.core.colour(live, user_id)
            row = live.row
            opponent = row.blue_id if colour is Player.PINK else row.pink_id
            if not is_computer(opponent) or row.rated:
                raise NotAgainstComputer(
                    N_("moves can be taken back only in unrated games against the computer")
                )
            check_turn(live, colour)
            actions = live.game.actions
            if (
                len(actions) < 2
                or (actions[-2].kind, actions[-2].player) != (ActionKind.DOT, colour)
                or (actions[-1].kind, actions[-1].player) != (ActionKind.DOT, colour.opponent)
            ):
                raise NothingToUndo(N_("nothing to undo: you have no move the computer answered"))
            keep = row.moves - 2
            deadline, clock = self.core.clock_taken_back(
                live, tuple(actions[keep:]), self.core.now()
            )
            stored = await self.core.store.games.take_back(
                game_id,
                moves=row.moves,
                keep=keep,
                deadline=deadline,
                clock=clock,
                mover=convert.user_of(row, colour),
            )
            if stored is None:
                self.core.forget(game_id)
                raise GameChanged(N_("the game changed meanwhile: look at it again and retry"))
            taken = tuple(actions[keep:])
            # The engine's journal takes both back (Game.pop), with no replay of the game.
            game = live.game
            for _ in taken:
                game.pop()
            live.row = stored
            await self.core.clock_changed(stored)
            return Undone(convert.game_view(stored, game), taken)


def snapshot(game: Game) -> Game:
    """An independent copy of ``game`` (the position as it is now, for an adapter to show).

    The actions are frozen values, so they are shared; the board is copied by its own
    ``copy``; the rest is small. (``copy.deepcopy`` alone costs 20 ms on a 39x32 board.)
    """
    memo: dict[int, Any] = {id(action): action for action in game.actions}
    memo[id(game.board)] = game.board.copy()
    return copy.deepcopy(game, memo)
