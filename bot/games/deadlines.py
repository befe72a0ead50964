"""The kinds of timer and of post, in one registry: what fires each timer, and what each
post of the outbox publishes.

A timer (``bot.storage.timer_repository.TimerKind``) is fired by ``bot.clocks.Clocks``
through its entry in ``TIMERS``: the entry reads what is due now and names the use-case that
does it and the post (``PostKind``) that must follow it. A post left in the outbox by a crash is
published again by ``bot.outbox.Outbox`` through its entry in ``POSTS``: the event, rebuilt
from the database. A new kind of timer is its ``TimerKind`` member (with when it is due and
the write that sets it, in ``bot.storage.timer_repository``), one entry here, and its use-case.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from bot.games.convert import challenge_value, to_ts
from bot.games.core import SAME_INSTANT
from bot.games.errors import NoSuchChallenge, NoSuchGame
from bot.games.models import (
    ActionTaken,
    ChallengeCalledOff,
    ChallengeExpired,
    ComputerMoved,
    Event,
    MoveOutcome,
    RematchOffered,
    Reminder,
    TakebackAnswered,
    TakebackAsked,
    TimedOut,
)
from bot.games.puzzles import DailyPuzzle
from bot.games.service import GameService
from bot.games.takebacks import point_of, request_of
from bot.games.tournament_models import TournamentNews
from bot.games.tournaments import NoSuchTournament
from bot.storage.rows import ChallengeStatus, GameStatus, PostRow, TakebackStatus, TimerRow
from bot.storage.timer_repository import TimerKind
from bot.storage.timers import PostKind, owing


@dataclass(frozen=True, slots=True)
class Firing:
    """What a due timer does now: the use-case to run (``run``) and the post it owes."""

    post: PostKind
    run: Callable[[], Awaitable[object]]


Fire = Callable[[GameService, TimerRow, datetime], Awaitable[Firing | None]]
Rebuild = Callable[[GameService, PostRow], Awaitable[Event | None]]


async def _fire_game(service: GameService, timer: TimerRow, now: datetime) -> Firing | None:
    """A game's clock: its time-out once the deadline has passed, else its reminder; nothing
    when the game is over or its timer is out of step with it."""
    game_id = timer.ref_id
    deadline = await service.running_deadline(game_id=game_id)
    if deadline is None:
        return None
    if to_ts(now) >= to_ts(deadline):
        return Firing(
            PostKind.TIME_OUT, lambda: service.time_out(game_id=game_id, deadline=deadline)
        )
    if timer.due < to_ts(deadline) - SAME_INSTANT:
        return Firing(PostKind.REMINDER, lambda: service.remind(game_id=game_id, deadline=deadline))
    return None  # not due: the row moved on since the timer was read


async def _fire_challenge(service: GameService, timer: TimerRow, now: datetime) -> Firing | None:
    """A challenge's expiry."""
    return Firing(PostKind.EXPIRED, lambda: service.expire(challenge_id=timer.ref_id))


async def _fire_tournament(service: GameService, timer: TimerRow, now: datetime) -> Firing | None:
    """A tournament's next step: registration closing, or its round's end or deadline."""
    return Firing(
        PostKind.TOURNAMENT, lambda: service.advance_tournament(tournament_id=timer.ref_id)
    )


async def _fire_daily(service: GameService, timer: TimerRow, now: datetime) -> Firing | None:
    """A server's puzzle of the day."""
    return Firing(PostKind.DAILY, lambda: service.post_daily_puzzle(guild_id=timer.ref_id))


TIMERS: dict[str, Fire] = {
    TimerKind.GAME: _fire_game,
    TimerKind.CHALLENGE: _fire_challenge,
    TimerKind.TOURNAMENT: _fire_tournament,
    TimerKind.DAILY: _fire_daily,
}
"""What fires each kind of timer."""


async def _expired(service: GameService, row: PostRow) -> Event | None:
    challenge = await service.get_challenge(row.ref_id)
    return ChallengeExpired(challenge) if challenge.status == ChallengeStatus.EXPIRED else None


async def _reminder(service: GameService, row: PostRow) -> Event | None:
    view = await service.game(row.ref_id)
    user_id = view.to_move_id
    now = service.now()
    if len(view.game.actions) != row.seq or user_id is None or view.deadline is None:
        return None  # that turn is over
    if view.deadline <= now:
        return None
    return Reminder(view, user_id, view.deadline, view.deadline - now)


async def _action(service: GameService, row: PostRow) -> MoveOutcome:
    """The outcome of the action a post shows (``row.seq``), as the game is now."""
    view = await service.game(row.ref_id)
    actions = view.game.actions
    seq = row.seq or 0
    return MoveOutcome(
        view=view,
        action=actions[seq - 1] if 0 < seq <= len(actions) else None,
        placement=None,
        is_over=not view.is_running,
        result=view.result,
        next_user_id=view.to_move_id,
        deadline=view.deadline,
        aborted=view.status == GameStatus.ABORTED,
    )


async def _time_out(service: GameService, row: PostRow) -> Event | None:
    return TimedOut(await _action(service, row))


async def _computer(service: GameService, row: PostRow) -> Event | None:
    # The computer's first move of its turn (the dots it played on alone after it are in the
    # picture, not listed).
    outcome = await _action(service, row)
    return ComputerMoved((outcome,)) if outcome.action is not None else None


async def _action_taken(service: GameService, row: PostRow) -> Event | None:
    outcome = await _action(service, row)
    return ActionTaken(outcome, row.token) if outcome.action is not None else None


@contextmanager
def owing_post(game_id: int, *, token: str | None) -> Iterator[None]:
    """The first write of game ``game_id`` in the block (a player's move, end or resign) also
    stores its post in the outbox, in the same transaction, with ``token`` (the interaction it
    answers); the adapter delivers it inside ``bot.outbox.delivering(..., PostKind.ACTION)``,
    and a crash before that leaves it for the next start (``ActionTaken``)."""
    with owing(TimerKind.GAME, game_id, post=PostKind.ACTION, token=token):
        yield


async def _closed(service: GameService, row: PostRow) -> Event | None:
    challenge = await service.get_challenge(row.ref_id)
    closed = (ChallengeStatus.DECLINED, ChallengeStatus.CANCELLED)
    return ChallengeCalledOff(challenge, row.token) if challenge.status in closed else None


@contextmanager
def owing_close(challenge_id: int, *, token: str | None) -> Iterator[None]:
    """The decline or withdrawal of challenge ``challenge_id`` in the block also stores its
    post in the outbox, in the same transaction, with ``token`` (the click it answers); the
    adapter delivers it inside ``bot.outbox.delivering(..., PostKind.CLOSED)``, and a crash
    before that leaves it for the next start (``ChallengeCalledOff``)."""
    with owing(TimerKind.CHALLENGE, challenge_id, post=PostKind.CLOSED, token=token):
        yield


async def _takeback(service: GameService, row: PostRow) -> Event | None:
    stored = await service.core.store.takebacks.takeback(row.ref_id)
    answered = (TakebackStatus.ACCEPTED, TakebackStatus.DECLINED)
    if stored is None or stored.status not in answered or row.seq is None:
        return None  # a newer request replaced it
    view = await service.game(row.ref_id)
    request = request_of(stored, view.pink_id, view.blue_id, point_of(row.seq).name)
    return TakebackAnswered(request, view, row.token)


async def _asked(service: GameService, row: PostRow) -> Event | None:
    stored = await service.core.store.takebacks.takeback(row.ref_id)
    if stored is None or stored.status != TakebackStatus.PENDING or stored.message_id is not None:
        return None  # answered, replaced, or already shown
    view = await service.game(row.ref_id)
    actions = view.game.actions
    if stored.expires <= to_ts(service.now()) or len(actions) != stored.moves or not actions:
        return None  # it can no longer be answered
    point = actions[-1].point
    request = request_of(stored, view.pink_id, view.blue_id, point.name if point else "")
    return TakebackAsked(request, view, row.token)


@contextmanager
def owing_ask(game_id: int, *, token: str | None) -> Iterator[None]:
    """A takeback request of game ``game_id`` in the block also stores its post in the outbox,
    in the same transaction, with ``token`` (the /takeback it answers); the adapter delivers it
    inside ``bot.outbox.delivering(..., PostKind.ASKED)``, and a crash before that leaves it for
    the next start (``TakebackAsked``)."""
    with owing(TimerKind.GAME, game_id, post=PostKind.ASKED, token=token):
        yield


@contextmanager
def owing_takeback(game_id: int, *, token: str | None) -> Iterator[None]:
    """The answer (accepted or declined) to game ``game_id``'s takeback request in the block
    also stores its post in the outbox, in the same transaction, with ``token`` (the click it
    answers); the adapter delivers it inside ``bot.outbox.delivering(..., PostKind.TAKEBACK)``,
    and a crash before that leaves it for the next start (``TakebackAnswered``)."""
    with owing(TimerKind.GAME, game_id, post=PostKind.TAKEBACK, token=token):
        yield


async def _offered(service: GameService, row: PostRow) -> Event | None:
    stored = await service.core.store.challenges.rematch_of(row.ref_id)
    if stored is None or stored.status != ChallengeStatus.OPEN:
        return None  # answered, withdrawn or expired
    if stored.expires <= to_ts(service.now()):
        return None  # it can no longer be answered
    return RematchOffered(challenge_value(stored), row.token)


@contextmanager
def owing_offer(game_id: int, *, token: str | None) -> Iterator[None]:
    """A rematch offer of the finished game ``game_id`` to a player, in the block, also stores
    its post in the outbox, in the same transaction, with ``token`` (the Rematch click it
    answers); the adapter delivers it inside ``bot.outbox.delivering(..., PostKind.OFFERED)``,
    and a crash before that leaves it for the next start (``RematchOffered``). A rematch
    against the computer owes no such post (its start is repaired by ``bot.cogs.start_repair``)."""
    with owing(TimerKind.GAME, game_id, post=PostKind.OFFERED, token=token):
        yield


@dataclass(frozen=True, slots=True)
class PostEntry:
    """A kind of post: the event it delivers, and that event rebuilt from the database (None
    once it means nothing)."""

    event: type
    rebuild: Rebuild


async def _tournament(service: GameService, row: PostRow) -> Event | None:
    """A tournament's step (``seq``: the round it paired; the last round or 0 when it paired
    none), read back as it is now."""
    tournament = await service.tournament(tournament_id=row.ref_id)
    seq = row.seq or 0
    if seq == 0 or (seq == tournament.round and not tournament.is_open):
        closed, paired = seq, 0
    else:
        closed, paired = seq - 1, seq
    news = await service.tournament_news(row.ref_id, closed=closed, paired=paired)
    return news  # type: ignore[return-value]


async def _daily(service: GameService, row: PostRow) -> Event | None:
    posted = await service.daily_puzzle_posted(guild_id=row.ref_id, day=row.seq or 0)
    return posted  # type: ignore[return-value]


POSTS: dict[str, PostEntry] = {
    PostKind.TIME_OUT: PostEntry(TimedOut, _time_out),
    PostKind.REMINDER: PostEntry(Reminder, _reminder),
    PostKind.EXPIRED: PostEntry(ChallengeExpired, _expired),
    PostKind.COMPUTER: PostEntry(ComputerMoved, _computer),
    PostKind.ACTION: PostEntry(ActionTaken, _action_taken),
    PostKind.TOURNAMENT: PostEntry(TournamentNews, _tournament),
    PostKind.CLOSED: PostEntry(ChallengeCalledOff, _closed),
    PostKind.TAKEBACK: PostEntry(TakebackAnswered, _takeback),
    PostKind.ASKED: PostEntry(TakebackAsked, _asked),
    PostKind.OFFERED: PostEntry(RematchOffered, _offered),
    PostKind.DAILY: PostEntry(DailyPuzzle, _daily),
}
"""What each kind of post publishes."""


async def rebuilt_event(service: GameService, row: PostRow) -> Event | None:
    """The event of an outbox row, rebuilt from the database; None if it is moot (or of a
    kind this version does not know).

    Raises:
        KeyError: an unknown kind.
    """
    entry = POSTS[row.kind]
    try:
        return await entry.rebuild(service, row)
    except (NoSuchGame, NoSuchChallenge, NoSuchTournament):
        return None
