"""Reviews: the computer's review of a finished game (ai/review.py), made once and stored.

The search is CPU-bound pure Python, so it runs in ``Reviewer``'s pool of worker processes
(one worker by default: a review is long and must not take the computer's players' core),
never on the event loop. The positions are searched in ranges of about a tenth of the game,
one call each, so the adapter is told the progress between ranges. Two players asking for the
same game's review at once share one computation. The review's pictures are rendered in the
same pool (``Reviewer.run``). Once a review is made, the game's puzzles are mined there too
and kept (``bot.games.puzzles``).

Limits: a running game, an aborted game and a game of no move are refused; each player may
have ``REVIEWS_PER_HOUR`` reviews made an hour (a stored review is shown to anyone, free).

A player replays their own turning points as puzzles (``replay_mistake``, given and answered
through ``Puzzles``); an answer is judged in the pool by ``ai.review.judge_replay``: the move
the review preferred is right, the move played is refused (nothing changes), a move after
which the opponent could capture more at once than after the preferred one is wrong, and any
other is right when the search leaves its player a chance within ``REPLAY_MARGIN`` (0.1, the
review's line between a move and a mistake) of what the preferred move leaves.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from datetime import timedelta
from functools import partial
from typing import TypeVar

from ai.review import Estimate, Review, Verdict, assemble, estimate, iterations_for, judge_replay
from bot.games.convert import to_ts
from bot.games.core import GameCore
from bot.games.errors import Refusal
from bot.games.models import GameView
from bot.games.puzzles import GivenPuzzle, NoPuzzle, Puzzles, Replay, mine_game
from bot.games.queries import Queries
from bot.games.workers import new_pool
from bot.i18n import _, ngettext
from bot.storage.rows import GameStatus
from engine import Player, Point, Record

log = logging.getLogger(__name__)

T = TypeVar("T")

REVIEWS_PER_HOUR = 3
HOUR = timedelta(hours=1)
# The positions are searched in this many ranges (the progress is told after each).
STEPS = 10

Progress = Callable[[int, int], Awaitable[None]]


class NotReviewable(Refusal):
    """The game cannot be reviewed: it is running, was aborted, or has no move."""


class TooManyReviews(Refusal):
    """The player asked for more reviews this hour than the limit."""


class NoReplay(Refusal):
    """No turning point to replay: the game has no review, the caller did not play it (or
    not that side), or they have replayed every one of theirs."""


# A review worker runs this much nicer than the bot: on a busy machine the bot's own answers
# (and the computer's moves) get the processor first (bench/review.py measures them).
NICENESS = 10


def _start_worker() -> None:
    """In a worker: ignore Ctrl-C (the parent decides what it means) and yield the processor
    to the bot."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(NICENESS)
    except OSError:  # pragma: no cover - a system that refuses: the worker runs as it is
        log.info("a review worker could not lower its priority")


class Reviewer:
    """Runs reviews (and their pictures) off the event loop: a pool of ``workers`` processes
    ('spawn', as the computer's Thinker), started on first use, or threads
    (``processes=False``: tests, where a process costs more than the tiny searches).
    ``iterations`` overrides the review's budget per position (tests and the bench)."""

    def __init__(
        self, *, processes: bool = True, workers: int = 1, iterations: int | None = None
    ) -> None:
        self.iterations = iterations
        self._new_pool = partial(
            new_pool, processes=processes, workers=workers, name="review", initializer=_start_worker
        )
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = self._new_pool()
        return self._pool

    async def run(self, call: Callable[[], T]) -> T:
        """``call`` (picklable) in a worker; a worker that died is replaced once."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), call)
        except BrokenProcessPool:
            log.warning("a review worker died; starting a new one")
            self.close()
            return await loop.run_in_executor(self._executor(), call)

    async def review(self, record: Record, *, seed: int, progress: Progress) -> Review:
        """The review of ``record``'s game, searched range by range (``progress(done, total)``
        after each)."""
        per = self.iterations or iterations_for(record)
        total = len(record.actions) + 1
        size = max(1, -(-total // STEPS))
        found: list[Estimate] = []
        for start in range(0, total, size):
            stop = min(total, start + size)
            found.extend(
                await self.run(partial(estimate, record, start, stop, seed=seed, iterations=per))
            )
            await progress(stop, total)
        return await self.run(partial(assemble, record, found, seed=seed, iterations=per))

    def close(self) -> None:
        """Stop the workers (a review under way is abandoned)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


async def _nothing(done: int, total: int) -> None:
    """No progress to show."""


class Reviews:
    """The use-cases of reviews."""

    def __init__(
        self,
        core: GameCore,
        queries: Queries,
        puzzles: Puzzles,
        *,
        reviewer: Reviewer | None = None,
    ) -> None:
        self.core = core
        self.queries = queries
        self.puzzles = puzzles
        self.reviewer = reviewer or Reviewer()
        self._running: dict[int, asyncio.Future[Review]] = {}
        self._mining: set[asyncio.Task[None]] = set()
        puzzles.replays = self

    async def stored_review(self, *, game_id: int) -> Review | None:
        """A game's stored review, or None."""
        data = await self.core.store.reviews.review(game_id)
        return None if data is None else Review.from_json(json.loads(data))

    async def reviewable(self, *, game_id: int) -> GameView:
        """The game to review, checked.

        Raises:
            NoSuchGame: no game has that id.
            NotReviewable: the game is running, was aborted or has no move.
        """
        view = await self.queries.game(game_id)
        if view.status is GameStatus.RUNNING:
            raise NotReviewable(
                _("game #{game_id} is still being played: review it once it is over",
                  game_id=game_id)
            )  # fmt: skip
        if view.status is GameStatus.ABORTED or not any(a.kind == "dot" for a in view.game.actions):
            raise NotReviewable(_("game #{game_id} has no move to review", game_id=game_id))
        return view

    async def review(self, *, game_id: int, user_id: int, progress: Progress = _nothing) -> Review:
        """The game's review: the stored one, or one made now (in the worker pool) and stored.

        Raises:
            NoSuchGame, NotReviewable: see ``reviewable``.
            TooManyReviews: ``user_id`` had ``REVIEWS_PER_HOUR`` reviews made this hour.
        """
        view = await self.reviewable(game_id=game_id)
        stored = await self.stored_review(game_id=game_id)
        if stored is not None:
            return stored
        running = self._running.get(game_id)
        if running is not None:
            return await asyncio.shield(running)
        await self.check_limit(user_id=user_id)
        future: asyncio.Future[Review] = asyncio.get_running_loop().create_future()
        self._running[game_id] = future
        try:
            made = await self.reviewer.review(view.game.record, seed=game_id, progress=progress)
            data = await self.core.store.reviews.save_review(
                game_id=game_id,
                requested_by=user_id,
                data=json.dumps(made.to_json()),
                created=to_ts(self.core.now()),
            )
            result = Review.from_json(json.loads(data))
        except BaseException as error:
            if isinstance(error, Exception):
                future.set_exception(error)
                future.exception()  # retrieved: nobody else may be waiting
            else:
                future.cancel()
            raise
        finally:
            self._running.pop(game_id, None)
        future.set_result(result)
        task = asyncio.ensure_future(self._mine(game_id, view.game.record))
        self._mining.add(task)
        task.add_done_callback(self._mining.discard)
        return result

    async def _mine(self, game_id: int, record: Record) -> None:
        """Keep the puzzles of a game just reviewed (in the worker pool, after the review)."""
        found = await self.reviewer.run(partial(mine_game, record))
        await self.puzzles.store_mined(game_id=game_id, found=found)

    async def mined(self) -> None:
        """Wait for the puzzles of the reviews made so far to be kept (tests, closing)."""
        while self._mining:
            await asyncio.gather(*self._mining, return_exceptions=True)

    async def check_limit(self, *, user_id: int) -> None:
        """Refuse a new review beyond the hourly limit.

        Raises:
            TooManyReviews.
        """
        since = to_ts(self.core.now() - HOUR)
        made = await self.core.store.reviews.reviews_since(user_id=user_id, since=since)
        if made >= REVIEWS_PER_HOUR:
            raise TooManyReviews(
                ngettext(
                    "you can have {n} review made an hour: try again later"
                    " (reviews made already are shown at once)",
                    "you can have {n} reviews made an hour: try again later"
                    " (reviews made already are shown at once)",
                    REVIEWS_PER_HOUR,
                )
            )

    async def replay_mistake(
        self, *, game_id: int, user_id: int, player: Player | None = None
    ) -> GivenPuzzle:
        """The next of ``user_id``'s own turning points in game ``game_id``'s stored review
        (of side ``player``, when given), given to them as a puzzle (``Puzzles.give_replay``:
        a puzzle still waiting for their answer is given again instead).

        Raises:
            NoSuchGame: no game has that id.
            NoReplay: no review is stored, ``user_id`` did not play (that side of) the game,
                or every one of their turning points was given to them already.
        """
        view = await self.queries.game(game_id)
        review = await self.stored_review(game_id=game_id)
        if review is None:
            raise NoReplay(
                _("game #{game_id} has no review yet: ask for it with /review", game_id=game_id)
            )
        sides = [p for p, uid in ((Player.PINK, view.pink_id), (Player.BLUE, view.blue_id))
                 if uid == user_id and player in (None, p)]  # fmt: skip
        if not sides:
            raise NoReplay(
                _("only the player who made these moves in game #{game_id} can replay them",
                  game_id=game_id)
            )  # fmt: skip
        given = await self.puzzles.given_keys(user_id=user_id)
        for side in sides:
            for turning in review.turning_of(side):
                replay = Replay(game_id, view.game.record, turning, review.seed, review.iterations)
                if turning.preferred is not None and replay.key not in given:
                    return await self.puzzles.give_replay(replay, user_id=user_id)
        raise NoReplay(
            _("you have replayed every turning point of yours in game #{game_id}",
              game_id=game_id)
        )  # fmt: skip

    async def replay_of(self, *, game_id: int, move: int) -> Replay:
        """Turning point ``move`` of game ``game_id``'s stored review, as a puzzle.

        Raises:
            NoPuzzle: the review or that turning point is not stored.
        """
        view = await self.queries.game(game_id)
        review = await self.stored_review(game_id=game_id)
        found = [t for t in review.turning if t.move == move] if review is not None else []
        if review is None or not found:
            raise NoPuzzle(_("that turning point is no longer stored"))
        return Replay(game_id, view.game.record, found[0], review.seed, review.iterations)

    async def judge(self, replay: Replay, point: Point) -> Verdict:
        """``point`` as the answer to ``replay`` (``ai.review.judge_replay``), in a worker."""
        preferred = replay.turning.preferred
        assert preferred is not None  # only turning points with a preferred move are replayed
        return await self.reviewer.run(
            partial(
                judge_replay,
                replay.record,
                replay.turning.move,
                point,
                preferred=preferred,
                seed=replay.seed,
                iterations=self.reviewer.iterations or replay.iterations,
            )
        )

    def is_reviewing(self, game_id: int) -> bool:
        """Whether this process is making the game's review now."""
        return game_id in self._running

    def close(self) -> None:
        """Stop the review workers and the mining under way."""
        for task in self._mining:
            task.cancel()
        self.reviewer.close()
