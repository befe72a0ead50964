"""Use-cases of takebacks by consent: ask, accept, decline.

On the opponent's turn right after your dot, you may ask to take it back; the opponent answers.
Accepted, the dot is taken back with the engine's journal (``Game.pop``, as /undo does against
the computer) and the clock restarts for you. The request is stored (table ``takebacks``, one
per game: the latest), guarded by the game's number of actions, so an answer after a move, or
after the request expired, changes nothing, and the buttons still work after a restart.

Allowed only when the game allows them: rated games only if the challenge enabled them,
unrated games by default. Against the computer, /undo stays (this refuses and says so).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.games import convert
from bot.games.computer import is_computer
from bot.games.convert import to_dt, to_ts
from bot.games.core import GameCore
from bot.games.errors import GameChanged, NotAgainstComputer, Refusal
from bot.games.models import GameView
from bot.i18n import N_
from bot.storage.rows import TakebackRow, TakebackStatus
from bot.storage.timer_repository import TimerKind
from bot.storage.timers import PostKind, current_claim
from engine import Action, ActionKind, Player, Point

TAKEBACK_TTL = timedelta(minutes=5)
"""How long a takeback request can be answered (the opponent's move ends it earlier)."""

POINT_BASE = 1000
"""An answer's post keeps its point as ``x * POINT_BASE + y`` (its outbox row's ``seq``):
an accepted one is gone from the game's actions."""


class TakebacksOff(Refusal):
    """This game does not allow takebacks (a rated game whose challenge did not enable them)."""


class NothingToTakeBack(Refusal):
    """A takeback is asked only on the opponent's turn, right after your own dot."""


class AlreadyAsked(Refusal):
    """This move's takeback was asked already (and is waiting, or was declined)."""


class NotYourTakeback(Refusal):
    """Only the asker's opponent answers a takeback request."""


class TakebackClosed(Refusal):
    """The request was answered, has expired, or the game moved on since."""


@dataclass(frozen=True, slots=True)
class TakebackRequest:
    """A takeback request as stored, with the game it is for."""

    game_id: int
    asker_id: int
    opponent_id: int
    moves: int
    point: str
    status: str
    asked: datetime
    expires: datetime
    message_id: int | None = None

    @property
    def asked_key(self) -> int:
        """The instant asked, in whole unix seconds: with ``moves``, what a button names."""
        return int(to_ts(self.asked))


@dataclass(frozen=True, slots=True)
class TakebackAnswer:
    """What an answer did: the request, the game after it, and the action taken back (None
    when declined)."""

    request: TakebackRequest
    view: GameView
    taken: Action | None


class Takebacks:
    """Takebacks by consent, each under the game's lock, committed before returning."""

    def __init__(self, core: GameCore) -> None:
        self.core = core

    async def ask_takeback(self, *, game_id: int, user_id: int) -> TakebackRequest:
        """``user_id`` asks their opponent to take back their last dot.

        Raises:
            NoSuchGame, NotYourGame, GameOver, NotAgainstComputer (use /undo), TakebacksOff,
            NothingToTakeBack (not right after your dot), AlreadyAsked.
        """
        async with self.core.lock(game_id):
            live = await self.core.running(game_id)
            colour = self.core.colour(live, user_id)
            row = live.row
            opponent = row.blue_id if colour is Player.PINK else row.pink_id
            if is_computer(opponent):
                raise NotAgainstComputer(
                    N_("against the computer, use /undo to take back your move and its reply")
                )
            if not row.takebacks:
                raise TakebacksOff(
                    "takebacks are off in this game: a rated game allows them only when the "
                    "challenge turned them on"
                )
            actions = live.game.actions
            last = actions[-1] if actions else None
            if (
                last is None
                or (last.kind, last.player) != (ActionKind.DOT, colour)
                or live.game.to_move is not colour.opponent
            ):
                raise NothingToTakeBack(
                    "you can ask for a takeback only right after your move, while your "
                    "opponent is to move"
                )
            now = self.core.now()
            earlier = await self.core.store.takebacks.takeback(game_id)
            if earlier is not None and earlier.moves == row.moves:
                if earlier.status == TakebackStatus.DECLINED:
                    raise AlreadyAsked(N_("your opponent already declined to take this move back"))
                if earlier.status == TakebackStatus.PENDING and earlier.expires > to_ts(now):
                    raise AlreadyAsked(
                        N_("you already asked to take this move back: wait for the answer")
                    )
            stored = await self.core.store.takebacks.ask_takeback(
                TakebackRow(
                    game_id=game_id,
                    asker_id=user_id,
                    moves=row.moves,
                    status=TakebackStatus.PENDING,
                    asked=to_ts(now),
                    expires=to_ts(now + TAKEBACK_TTL),
                )
            )
            return _request(stored, live.row.pink_id, live.row.blue_id, last)

    async def set_takeback_message(self, *, game_id: int, message_id: int) -> None:
        """Remember the message that shows a game's takeback request."""
        await self.core.store.takebacks.set_takeback_message(game_id, message_id)

    async def answer_takeback(
        self, *, game_id: int, user_id: int, moves: int, accept: bool, asked: int | None = None
    ) -> TakebackAnswer:
        """The asker's opponent accepts or declines the request made at ``moves`` actions
        (and, when given, ``asked``: its ``asked_key``, so an older request's buttons never
        answer a newer one). Accepted, the asker's last dot is taken back and their clock
        restarts.

        Raises:
            NoSuchGame, GameOver, NotYourTakeback (the asker, or a bystander), TakebackClosed
            (answered, expired, or the game moved on), GameChanged.
        """
        async with self.core.lock(game_id):
            live = await self.core.running(game_id)
            row = live.row
            request = await self.core.store.takebacks.takeback(game_id)
            if request is None or request.moves != moves:
                raise TakebackClosed(N_("this takeback request is over: the game moved on"))
            if asked is not None and int(request.asked) != asked:
                raise TakebackClosed(N_("this takeback request is over: a newer one replaced it"))
            if user_id == request.asker_id:
                raise NotYourTakeback(N_("your opponent answers your takeback request, not you"))
            if user_id not in {row.pink_id, row.blue_id}:
                raise NotYourTakeback(N_("only the players' opponent can answer this request"))
            if request.status != TakebackStatus.PENDING:
                raise TakebackClosed(f"this takeback request was already {request.status}")
            if row.moves != moves or len(live.game.actions) != moves:
                raise TakebackClosed(N_("this takeback request is over: the game moved on"))
            now = self.core.now()
            if request.expires <= to_ts(now):
                raise TakebackClosed(N_("this takeback request has expired"))
            last = live.game.actions[-1]
            _owe_point(game_id, last.point)
            if not accept:
                declined = await self.core.store.takebacks.decline_takeback(game_id, moves=moves)
                if declined is None:
                    raise TakebackClosed(N_("this takeback request is over"))
                view = convert.game_view(row, live.game)
                return TakebackAnswer(
                    _request(declined, row.pink_id, row.blue_id, last), view, None
                )
            deadline, clock = self.core.clock_taken_back(live, (last,), now)
            stored = await self.core.store.takebacks.accept_takeback(
                game_id,
                moves=moves,
                keep=moves - 1,
                deadline=deadline,
                clock=clock,
                mover=convert.user_of(row, last.player),
            )
            if stored is None:
                self.core.forget(game_id)
                raise GameChanged(N_("the game changed meanwhile: look at it again and retry"))
            live.game.pop()  # the engine's journal, no replay of the game
            live.row = stored
            await self.core.clock_changed(stored)
            accepted = TakebackRow(
                request.game_id,
                request.asker_id,
                request.moves,
                TakebackStatus.ACCEPTED,
                request.asked,
                request.expires,
                request.message_id,
            )
            view = convert.game_view(stored, live.game)
            return TakebackAnswer(_request(accepted, row.pink_id, row.blue_id, last), view, last)


def _owe_point(game_id: int, point: Point | None) -> None:
    """The post an answer of game ``game_id``'s request owes (``bot.games.deadlines``) keeps
    the point asked back."""
    claim = current_claim()
    if (
        point is not None
        and claim is not None
        and claim.post == PostKind.TAKEBACK
        and claim.matches(TimerKind.GAME, game_id)
    ):
        claim.seq = point.x * POINT_BASE + point.y


def point_of(seq: int) -> Point:
    """The point an answer's post kept (``POINT_BASE``)."""
    return Point(seq // POINT_BASE, seq % POINT_BASE)


def _request(row: TakebackRow, pink_id: int, blue_id: int, last: Action) -> TakebackRequest:
    return request_of(row, pink_id, blue_id, last.point.name if last.point is not None else "")


def request_of(row: TakebackRow, pink_id: int, blue_id: int, point: str) -> TakebackRequest:
    """A stored request of a game of ``pink_id`` and ``blue_id`` for ``point``."""
    return TakebackRequest(
        game_id=row.game_id,
        asker_id=row.asker_id,
        opponent_id=blue_id if row.asker_id == pink_id else pink_id,
        moves=row.moves,
        point=point,
        status=row.status,
        asked=to_dt(row.asked),
        expires=to_dt(row.expires),
        message_id=row.message_id,
    )
