"""Use-cases of playing: place, end, resign, time out, remind, abort, admin cancel."""

from __future__ import annotations

from datetime import datetime

from bot.games import convert
from bot.games.convert import to_ts
from bot.games.core import SAME_INSTANT, GameCore, Live
from bot.games.errors import (
    GameChanged,
    GameOver,
    NoSuchGame,
    NotYourGame,
    NotYourTurn,
    TooLateToAbort,
    refusal_of,
)
from bot.games.models import GameAborted, GameView, MoveOutcome, Reminder, TimedOut
from bot.i18n import N_, _
from bot.storage.rows import Finish, GameStatus
from engine import DotsError, Player


class Play:
    """Actions in running games, each under the game's lock, committed before returning."""

    def __init__(self, core: GameCore) -> None:
        self.core = core

    async def place(self, *, game_id: int, user_id: int, point: str) -> MoveOutcome:
        """Place a dot at ``point`` (a name like ``"B7"``) for ``user_id``.

        Raises:
            NoSuchGame, NotYourGame, GameOver, NotYourTurn, IllegalMove (engine's message),
            GameChanged (another process played in this game meanwhile).
        """
        async with self.core.lock(game_id):
            live = await self.core.running(game_id)
            colour = self.core.colour(live, user_id)
            check_turn(live, colour)
            try:
                placement = live.game.place(point, colour)
            except DotsError as error:
                raise refusal_of(error) from None
            return await self.core.commit(live, live.game.actions[-1], placement)

    async def end(self, *, game_id: int, user_id: int, moves: int | None = None) -> MoveOutcome:
        """End for ``user_id`` (rule 6.1; a stop under grounding rules, rule 8.2); with
        ``moves``, only if the game still has that many actions (the position confirmed).

        Raises:
            NoSuchGame, NotYourGame, GameOver, NotYourTurn, IllegalMove (a stop too early),
            GameChanged (also when the game moved on from ``moves``).
        """
        async with self.core.lock(game_id):
            live = await self.core.running(game_id)
            colour = self.core.colour(live, user_id)
            _check_moves(live, moves)
            check_turn(live, colour)
            try:
                live.game.end(colour)
            except DotsError as error:
                raise refusal_of(error) from None
            return await self.core.commit(live, live.game.actions[-1], None)

    async def resign(self, *, game_id: int, user_id: int, moves: int | None = None) -> MoveOutcome:
        """``user_id`` resigns (rule 6.4), on their turn or not; with ``moves``, only if the
        game still has that many actions.

        Raises:
            NoSuchGame, NotYourGame, GameOver, GameChanged (also when the game moved on).
        """
        async with self.core.lock(game_id):
            live = await self.core.running(game_id)
            colour = self.core.colour(live, user_id)
            _check_moves(live, moves)
            try:
                live.game.resign(colour)
            except DotsError as error:
                raise refusal_of(error) from None
            return await self.core.commit(live, live.game.actions[-1], None)

    async def agree_draw(
        self, *, game_id: int, user_id: int, offered_by: int, moves: int
    ) -> MoveOutcome:
        """``user_id`` accepts the draw ``offered_by`` their opponent offered when the game had
        ``moves`` actions: the game ends drawn, rated as a draw. The offer lapses once the game
        moved on.

        Raises:
            NoSuchGame, NotYourGame (also for the player who offered it), GameOver,
            GameChanged (the game moved on since the offer).
        """
        async with self.core.lock(game_id):
            live = await self.core.running(game_id)
            colour = self.core.colour(live, user_id)
            if self.core.colour(live, offered_by) is not colour.opponent:
                raise NotYourGame(N_("only your opponent can accept your offer of a draw"))
            _check_moves(live, moves)
            live.game.agree_draw(colour)
            return await self.core.commit(live, live.game.actions[-1], None)

    async def time_out(self, *, game_id: int, deadline: datetime) -> MoveOutcome | None:
        """The clock of the player to move ran out at ``deadline`` (rule 7.2).

        Does nothing and returns None unless the game is running and its deadline is still
        ``deadline`` and has passed (a move that beat the clock wins the race). A game in which
        no action was ever made is aborted instead. Publishes TimedOut when it acts.
        """
        async with self.core.lock(game_id):
            try:
                live = await self.core.running(game_id)
            except (NoSuchGame, GameOver):
                return None
            row = live.row
            due = to_ts(deadline)
            if row.deadline is None or abs(row.deadline - due) > SAME_INSTANT:
                return None
            if to_ts(self.core.now()) < row.deadline - SAME_INSTANT:
                return None
            if row.moves == 0:
                view = await self._abort(live)
                outcome = MoveOutcome(view, None, None, True, None, aborted=True)
            else:
                live.game.time_out()
                outcome = await self.core.commit(live, live.game.actions[-1], None)
        await self.core.events.publish(TimedOut(outcome))
        return outcome

    async def remind(self, *, game_id: int, deadline: datetime) -> bool:
        """Publish a Reminder for the player to move, when this turn's next one is due (at
        the frequency the game row took from them, ``convert.remind_at``), each once; False if
        none is due now, it was sent already, the deadline moved or has passed, or the game is
        over."""
        async with self.core.lock(game_id):
            try:
                live = await self.core.running(game_id)
            except (NoSuchGame, GameOver):
                return False
            row = live.row
            if row.deadline is None or abs(row.deadline - to_ts(deadline)) > SAME_INSTANT:
                return False
            now = to_ts(self.core.now())
            due = convert.remind_at(row)
            if now >= row.deadline or due is None or now < to_ts(due) - SAME_INSTANT:
                return False
            stored = await self.core.store.games.mark_reminded(
                game_id, row.deadline, at=now, after=row.reminded_at
            )
            if stored is None:  # sent by another process: read the game afresh next time
                self.core.forget(game_id)
                return False
            live.row = stored
            view = convert.game_view(stored, live.game)
        user_id = view.to_move_id
        assert user_id is not None and view.deadline is not None
        await self.core.events.publish(
            Reminder(view, user_id, view.deadline, view.deadline - self.core.now())
        )
        return True

    async def _abort(self, live: Live) -> GameView:
        """Abort a running game (call under its lock): no result, no rating change."""
        game_id = live.row.game_id
        stored = await self.core.store.games.finish_game(
            game_id, Finish(GameStatus.ABORTED), at=to_ts(self.core.now())
        )
        self.core.forget(game_id)
        if stored is None:
            raise GameChanged(N_("the game changed meanwhile: look at it again and retry"))
        live.row = stored
        await self.core.clock_changed(stored)
        view = convert.game_view(stored, live.game)
        await self.core.events.publish(GameAborted(view))
        return view

    async def abort(self, *, game_id: int, user_id: int) -> GameView:
        """Either player aborts a game before its first move: no result, no rating change.

        Raises:
            NoSuchGame, NotYourGame, GameOver, TooLateToAbort.
        """
        async with self.core.lock(game_id):
            live = await self.core.running(game_id)
            self.core.colour(live, user_id)
            if live.row.moves > 0:
                raise TooLateToAbort(N_("a game can be aborted only before its first move"))
            return await self._abort(live)

    async def admin_cancel(self, *, game_id: int, guild_id: int) -> GameView:
        """A server admin aborts a running game of that server (the adapter checks the
        permission): no result, no rating change.

        Raises:
            NoSuchGame (also for a game of another server), GameOver.
        """
        async with self.core.lock(game_id):
            live = await self.core.running(game_id)
            if live.row.guild_id != guild_id:
                raise NoSuchGame(_("there is no game #{game_id} in this server", game_id=game_id))
            return await self._abort(live)

    async def set_game_thread(
        self, *, game_id: int, thread_id: int | None = None, message_id: int | None = None
    ) -> None:
        """Remember the thread a game is played in and/or the message showing its picture.

        Raises:
            NoSuchGame.
        """
        async with self.core.lock(game_id):
            stored = await self.core.store.games.set_game_thread(
                game_id, thread_id=thread_id, message_id=message_id
            )
            if stored is None:
                raise NoSuchGame(_("there is no game #{game_id}", game_id=game_id))
            live = self.core.cached_game(game_id)
            if live is not None:
                live.row = stored
                self.core.remember(live)  # found by its thread from now on


def _check_moves(live: Live, moves: int | None) -> None:
    """Refuse an action confirmed for an earlier position.

    Raises:
        GameChanged: the game has more (or fewer, after an undo) actions than ``moves``.
    """
    if moves is not None and len(live.game.actions) != moves:
        raise GameChanged(N_("the game moved on since you were asked"))


def check_turn(live: Live, colour: Player) -> None:
    """Refuse an action out of turn.

    Raises:
        GameOver, NotYourTurn.
    """
    to_move = live.game.to_move
    if to_move is None:
        raise GameOver(N_("the game is over"))
    if to_move is not colour:
        raise NotYourTurn(_("it is not your turn: {colour} is to move", colour=_(to_move.label)))
