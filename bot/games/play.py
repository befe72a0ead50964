"""Use-cases of playing: place, end, resign, time out, remind, abort, admin cancel."""

from __future__ import annotations

from datetime import datetime

from bot.games import convert
from bot.games.convert import to_ts
from bot.games.core import SAME_INSTANT, Live, ServiceCore
from bot.games.errors import (
    GameChanged,
    GameOver,
    IllegalMove,
    NoSuchGame,
    NotYourTurn,
    TooLateToAbort,
    refusal_of,
)
from bot.games.game_clock import ClockState, TimeUpError
from bot.games.models import GameView, MoveOutcome, Reminder, TimedOut
from bot.games.stickers import StickerNews
from bot.i18n import N_, _
from bot.ratings import rate_stored
from bot.storage.rows import ActionRow, Finish, StickerRow
from bot.storage.store import StaleWriteError
from engine import Action, DotsError, Placement, Player


class PlayCases(ServiceCore):
    """Actions in running games, each under the game's lock, committed before returning."""

    async def _commit(self, live: Live, action: Action, placement: Placement | None) -> MoveOutcome:
        """Store the action the cached game just applied; on failure forget the cached game."""
        row, game = live.row, live.game
        instant = self.now()
        now = to_ts(instant)
        seq = row.moves
        finish = None
        deadline: float | None = None
        clock = self._clock_after(live, action, instant)
        if game.is_over:
            result = game.result
            assert result is not None
            finish = Finish(
                "over",
                int(result.winner) if result.winner else None,
                result.pink,
                result.blue,
                result.reason,
            )
        elif clock is not None:
            due = clock.deadline()
            assert due is not None
            deadline = to_ts(due)
        else:
            deadline = now + row.clock
        stored = ActionRow(
            seq, action.kind, int(action.player), action.point.name if action.point else None, now
        )
        try:
            earned, news = await self._stickers_earned(live, at=now)
            row, rating_changes = await self.store.record_action(
                row.game_id,
                stored,
                deadline=deadline,
                finish=finish,
                rate=rate_stored,
                clock=convert.clock_columns(clock),
                earned=earned,
            )
        except StaleWriteError:
            # Another process wrote to this game (e.g. the terminal mode on the same file).
            self._forget(row.game_id)
            raise GameChanged(
                N_("the game changed meanwhile: look at it again and retry")
            ) from None
        except BaseException:
            # The cached position is ahead of the database: rebuild it on next use.
            self._forget(row.game_id)
            raise
        live.row = row
        if finish is not None:
            self._forget(row.game_id)
        self._game_clock(row)
        view = convert.game_view(row, game)
        return MoveOutcome(
            view=view,
            action=action,
            placement=placement,
            is_over=finish is not None,
            result=game.result,
            rating_changes=rating_changes,
            next_user_id=view.to_move_id,
            deadline=view.deadline,
            stickers=news,
        )

    def _clock_after(self, live: Live, action: Action, now: datetime) -> ClockState | None:
        """The game clock's state after ``action``, which the cached game just applied (None
        without a game clock): the mover's time spent taken off and the increment added, the
        clock of the player to move next running (rule 7.1: the same player when playing
        alone), none once the game is over; a time-out leaves the one who ran out at zero.

        Raises:
            IllegalMove: the mover's time had run out (the clocks time them out at once); the
                cached game is dropped, so the action is not kept.
        """
        state = convert.clock_state(live.row)
        if state is None:
            return None
        game = live.game
        next_runner = game.to_move if not game.is_over else None
        if action.kind in {"time", "resign"} or next_runner is None:
            return state.resumed(next_runner, now)
        try:
            return state.after_move(now, next_runner=next_runner)
        except TimeUpError as error:
            self._forget(live.row.game_id)
            raise IllegalMove(str(error)) from None

    def _clock_taken_back(
        self, live: Live, taken: tuple[Action, ...], now: datetime
    ) -> tuple[float, dict[str, int | None] | None]:
        """The deadline and game clock columns once ``taken`` (the game's last actions) are
        taken back: the clock restarts for the player to move then; on a game clock, time
        spent stays spent and each dot taken back returns its increment."""
        state = convert.clock_state(live.row)
        runner = taken[0].player
        if state is None:
            return to_ts(now) + live.row.clock, None
        state = state.taken_back(now, [a.player for a in taken if a.kind == "dot"], runner)
        due = state.deadline()
        assert due is not None
        return to_ts(due), convert.clock_columns(state)

    async def _stickers_earned(
        self, live: Live, *, at: float
    ) -> tuple[list[StickerRow], tuple[StickerNews, ...]]:
        """The stickers the cached game's last action earned, to store with it and to
        announce (``bot.games.sticker_cases`` finds them; none here)."""
        return [], ()

    async def place(self, *, game_id: int, user_id: int, point: str) -> MoveOutcome:
        """Place a dot at ``point`` (a name like ``"B7"``) for ``user_id``.

        Raises:
            NoSuchGame, NotYourGame, GameOver, NotYourTurn, IllegalMove (engine's message),
            GameChanged (another process played in this game meanwhile).
        """
        async with self._lock(game_id):
            live = await self._running(game_id)
            colour = self._colour(live, user_id)
            self._check_turn(live, colour)
            try:
                placement = live.game.place(point, colour)
            except DotsError as error:
                raise refusal_of(error) from None
            return await self._commit(live, live.game.actions[-1], placement)

    async def end(self, *, game_id: int, user_id: int, moves: int | None = None) -> MoveOutcome:
        """End for ``user_id`` (rule 6.1; a stop under grounding rules, rule 8.2); with
        ``moves``, only if the game still has that many actions (the position confirmed).

        Raises:
            NoSuchGame, NotYourGame, GameOver, NotYourTurn, IllegalMove (a stop too early),
            GameChanged (also when the game moved on from ``moves``).
        """
        async with self._lock(game_id):
            live = await self._running(game_id)
            colour = self._colour(live, user_id)
            _check_moves(live, moves)
            self._check_turn(live, colour)
            try:
                live.game.end(colour)
            except DotsError as error:
                raise refusal_of(error) from None
            return await self._commit(live, live.game.actions[-1], None)

    async def resign(self, *, game_id: int, user_id: int, moves: int | None = None) -> MoveOutcome:
        """``user_id`` resigns (rule 6.4), on their turn or not; with ``moves``, only if the
        game still has that many actions.

        Raises:
            NoSuchGame, NotYourGame, GameOver, GameChanged (also when the game moved on).
        """
        async with self._lock(game_id):
            live = await self._running(game_id)
            colour = self._colour(live, user_id)
            _check_moves(live, moves)
            try:
                live.game.resign(colour)
            except DotsError as error:
                raise refusal_of(error) from None
            return await self._commit(live, live.game.actions[-1], None)

    @staticmethod
    def _check_turn(live: Live, colour: Player) -> None:
        to_move = live.game.to_move
        if to_move is None:
            raise GameOver(N_("the game is over"))
        if to_move is not colour:
            raise NotYourTurn(
                _("it is not your turn: {colour} is to move", colour=_(to_move.label))
            )

    async def time_out(self, *, game_id: int, deadline: datetime) -> MoveOutcome | None:
        """The clock of the player to move ran out at ``deadline`` (rule 7.2).

        Does nothing and returns None unless the game is running and its deadline is still
        ``deadline`` and has passed (a move that beat the clock wins the race). A game in which
        no action was ever made is aborted instead. Publishes TimedOut when it acts.
        """
        async with self._lock(game_id):
            try:
                live = await self._running(game_id)
            except (NoSuchGame, GameOver):
                return None
            row = live.row
            due = to_ts(deadline)
            if row.deadline is None or abs(row.deadline - due) > SAME_INSTANT:
                return None
            if to_ts(self.now()) < row.deadline - SAME_INSTANT:
                return None
            if row.moves == 0:
                view = await self._abort(live)
                outcome = MoveOutcome(view, None, None, True, None, aborted=True)
            else:
                live.game.time_out()
                outcome = await self._commit(live, live.game.actions[-1], None)
        await self._publish(TimedOut(outcome))
        return outcome

    async def remind(self, *, game_id: int, deadline: datetime) -> bool:
        """Publish a Reminder for the player to move, once per turn; False if already sent,
        the deadline moved or has passed, or the game is over."""
        async with self._lock(game_id):
            try:
                live = await self._running(game_id)
            except (NoSuchGame, GameOver):
                return False
            row = live.row
            if row.deadline is None or abs(row.deadline - to_ts(deadline)) > SAME_INSTANT:
                return False
            if to_ts(self.now()) >= row.deadline:
                return False
            if row.reminder_sent:
                return False
            stored = await self.store.mark_reminded(game_id, row.deadline)
            if stored is None:
                return False
            live.row = stored
            view = convert.game_view(stored, live.game)
        user_id = view.to_move_id
        assert user_id is not None and view.deadline is not None
        await self._publish(Reminder(view, user_id, view.deadline, view.deadline - self.now()))
        return True

    async def _abort(self, live: Live) -> GameView:
        """Abort a running game (call under its lock): no result, no rating change."""
        game_id = live.row.game_id
        stored = await self.store.finish_game(game_id, Finish("aborted"), at=to_ts(self.now()))
        self._forget(game_id)
        if stored is None:
            raise GameChanged(N_("the game changed meanwhile: look at it again and retry"))
        live.row = stored
        self._game_clock(stored)
        return convert.game_view(stored, live.game)

    async def abort(self, *, game_id: int, user_id: int) -> GameView:
        """Either player aborts a game before its first move: no result, no rating change.

        Raises:
            NoSuchGame, NotYourGame, GameOver, TooLateToAbort.
        """
        async with self._lock(game_id):
            live = await self._running(game_id)
            self._colour(live, user_id)
            if live.row.moves > 0:
                raise TooLateToAbort(N_("a game can be aborted only before its first move"))
            return await self._abort(live)

    async def admin_cancel(self, *, game_id: int, guild_id: int) -> GameView:
        """A server admin aborts a running game of that server (the adapter checks the
        permission): no result, no rating change.

        Raises:
            NoSuchGame (also for a game of another server), GameOver.
        """
        async with self._lock(game_id):
            live = await self._running(game_id)
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
        async with self._lock(game_id):
            stored = await self.store.set_game_thread(
                game_id, thread_id=thread_id, message_id=message_id
            )
            if stored is None:
                raise NoSuchGame(_("there is no game #{game_id}", game_id=game_id))
            live = self._cache.get(game_id)
            if live is not None:
                live.row = stored
                self._remember(live)  # found by its thread from now on


def _check_moves(live: Live, moves: int | None) -> None:
    """Refuse an action confirmed for an earlier position.

    Raises:
        GameChanged: the game has more (or fewer, after an undo) actions than ``moves``.
    """
    if moves is not None and len(live.game.actions) != moves:
        raise GameChanged(N_("the game moved on since you were asked"))
