"""Puzzles: one given privately to a player at their level, answered once, judged by the exact
search's solutions (ai/puzzles.py), with a solving streak.

The puzzles are the ones shipped with the project (``ai.puzzles.shipped``) and the ones mined
from the server's finished games when they are reviewed (``mine_game``). A player's level
picks the kind: captures at once (depth 1) on 10x10 until they have solved ``LEVEL_STEP``,
then the two-move puzzles on 10x10, then 20x20. A puzzle given is kept (its JSON) with its
answer, so a puzzle answered twice, or someone else's, is refused whatever happens to the
pool.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Protocol

from ai.puzzles import Puzzle, mine, shipped
from ai.review import TurningPoint, Verdict, position_of
from bot.games.convert import to_dt, to_ts
from bot.games.core import GameCore
from bot.games.errors import Refusal, refusal_of
from bot.games.models import ClockChange
from bot.i18n import Message, _
from bot.storage.puzzles import AttemptRow, DailyRow, StreakRow
from engine import Board, DotsError, Game, Point, Record

LEVEL_STEP = 5
# The kinds in the order a player meets them: (width, height, depth).
KINDS = ((10, 10, 1), (10, 10, 2), (20, 20, 1), (20, 20, 2))
# Games mined for puzzles when reviewed: at most this many points (mining costs about a
# second per position on 20x20).
MINE_POINTS = 400


class NoPuzzle(Refusal):
    """No puzzle to answer: none given, or that number is unknown."""


class NotYourPuzzle(Refusal):
    """The puzzle was given to someone else."""


class PuzzleAnswered(Refusal):
    """The puzzle was answered already."""


class NoPointThere(Refusal):
    """The answer is no free point of the puzzle's board."""


class PlayedAgain(Refusal):
    """A replayed turning point answered with the very move played in the game."""


@dataclass(frozen=True, slots=True)
class Replay:
    """One of a player's own turning points replayed as a puzzle: the game, its record (the
    position is the one before ``turning.move``), the turning point, and the review's seed and
    budget that judge an answer."""

    game_id: int
    record: Record
    turning: TurningPoint
    seed: int
    iterations: int

    @property
    def key(self) -> str:
        """The name it is given by (one replay of a turning point per player)."""
        return f"replay:{self.game_id}:{self.turning.move}"

    def game(self) -> Game:
        """The position before the turning point.

        Raises:
            DotsError: the record holds an illegal action.
        """
        return position_of(self.record, self.turning.move - 1)


class Replays(Protocol):
    """What rebuilds and judges replayed turning points (``bot.games.reviews.Reviews``: it has
    the stored reviews and the workers that search)."""

    async def replay_of(self, *, game_id: int, move: int) -> Replay:
        """Turning point ``move`` of game ``game_id``'s stored review, as a puzzle."""
        ...

    async def judge(self, replay: Replay, point: Point) -> Verdict:
        """``point`` as the answer to ``replay`` (ai.review.judge_replay), in a worker."""
        ...


@dataclass(frozen=True, slots=True)
class DailyPuzzle:
    """A server's puzzle of ``day``, to post in its channel (an event: the adapter posts it,
    inside ``bot.outbox.delivering(..., PostKind.DAILY)``)."""

    guild_id: int
    channel_id: int
    day: int
    puzzle: Puzzle


@dataclass(frozen=True, slots=True)
class GivenPuzzle:
    """A puzzle given: its number, the puzzle (a proved one, or a replayed turning point), the
    player's streak, and whether it was given before and still waits for its answer
    (``again``)."""

    attempt_id: int
    puzzle: Puzzle | Replay
    streak: StreakRow
    again: bool = False


@dataclass(frozen=True, slots=True)
class Judged:
    """An answer judged: the point, whether it solves the puzzle, the puzzle (its solutions and
    line; or the replayed turning point, with the ``verdict`` on it) and the streak after it."""

    point: Point
    solved: bool
    puzzle: Puzzle | Replay
    streak: StreakRow
    verdict: Verdict | None = None


def kind_for(streak: StreakRow) -> tuple[int, int, int]:
    """The kind of puzzle for a player who has solved ``streak.solved``."""
    return KINDS[min(len(KINDS) - 1, streak.solved // LEVEL_STEP)]


def mine_game(record: Record) -> list[tuple[str, int, int, int, str]]:
    """In a worker: the puzzles of a finished game, as the rows the store keeps."""
    if record.width * record.height > MINE_POINTS or record.rules != "standard":
        return []
    return [
        (p.key, p.record.width, p.record.height, p.depth, json.dumps(p.to_json()))
        for p in mine(record)
    ]


class Puzzles:
    """The use-cases of puzzles."""

    def __init__(self, core: GameCore) -> None:
        self.core = core
        # Set by the collaborator that judges replayed turning points (Reviews).
        self.replays: Replays | None = None

    async def give(self, *, user_id: int) -> GivenPuzzle:
        """The player's unanswered puzzle again, or a new one at their level (one they were
        never given, while any is left)."""
        store = self.core.store.puzzles
        streak = await store.streak(user_id)
        waiting = await store.open_attempt(user_id)
        if waiting is not None:
            return GivenPuzzle(waiting.attempt_id, await self._given(waiting), streak, again=True)
        given = await store.given_keys(user_id)
        want = kind_for(streak)
        order = [want, *(kind for kind in KINDS if kind != want)]
        rng = random.Random(user_id * 7919 + len(given))
        chosen: Puzzle | None = None
        for width, height, depth in order:
            pool = [p for p in await self._pool(width, height, depth) if p.key not in given]
            if pool:
                chosen = rng.choice(pool)
                break
        if chosen is None:
            width, height, depth = want
            chosen = rng.choice(await self._pool(width, height, depth) or list(shipped()))
        row = await store.give(
            user_id=user_id,
            puzzle_key=chosen.key,
            data=json.dumps(chosen.to_json()),
            given=to_ts(self.core.now()),
        )
        return GivenPuzzle(row.attempt_id, chosen, streak)

    async def give_replay(self, replay: Replay, *, user_id: int) -> GivenPuzzle:
        """Give ``user_id`` the turning point ``replay`` to solve, unless a puzzle still waits
        for their answer (that one is given again)."""
        store = self.core.store.puzzles
        streak = await store.streak(user_id)
        waiting = await store.open_attempt(user_id)
        if waiting is not None:
            return GivenPuzzle(waiting.attempt_id, await self._given(waiting), streak, again=True)
        data = {"replay": {"game_id": replay.game_id, "move": replay.turning.move}}
        row = await store.give(
            user_id=user_id,
            puzzle_key=replay.key,
            data=json.dumps(data),
            given=to_ts(self.core.now()),
        )
        return GivenPuzzle(row.attempt_id, replay, streak)

    async def given_keys(self, *, user_id: int) -> set[str]:
        """The keys of every puzzle and replay ever given to ``user_id``."""
        return await self.core.store.puzzles.given_keys(user_id)

    async def _given(self, attempt: AttemptRow) -> Puzzle | Replay:
        data = json.loads(attempt.data)
        if "replay" not in data:
            return Puzzle.from_json(data)
        if self.replays is None:  # pragma: no cover - the service always sets it
            raise NoPuzzle(_("there is no puzzle #{number}", number=attempt.attempt_id))
        return await self.replays.replay_of(
            game_id=data["replay"]["game_id"], move=data["replay"]["move"]
        )

    async def _pool(self, width: int, height: int, depth: int) -> list[Puzzle]:
        found = [
            p
            for p in shipped()
            if (p.record.width, p.record.height, p.depth) == (width, height, depth)
        ]
        mined = await self.core.store.puzzles.mined(width=width, height=height, depth=depth)
        return found + [Puzzle.from_json(json.loads(data)) for _, data in mined]

    async def answer(self, *, user_id: int, point: str, attempt_id: int | None = None) -> Judged:
        """Judge ``point`` as the answer to the player's open puzzle (or to puzzle
        ``attempt_id``): right when it is one of the first moves the exact search proved; for
        a replayed turning point, when ``Replays.judge`` finds it good (it does not count in
        the streak).

        Raises:
            NoPuzzle: no puzzle is waiting (or none has that number).
            NotYourPuzzle: puzzle ``attempt_id`` was given to someone else.
            PuzzleAnswered: it was answered already.
            NoPointThere: ``point`` is no free point of its board (nothing changes).
            PlayedAgain: a replay answered with the move played in the game (nothing changes).
        """
        store = self.core.store.puzzles
        if attempt_id is None:
            attempt = await store.open_attempt(user_id)
            if attempt is None:
                raise NoPuzzle(_("you have no puzzle to answer: ask for one with /puzzle"))
        else:
            attempt = await store.attempt(attempt_id)
            if attempt is None:
                raise NoPuzzle(_("there is no puzzle #{number}", number=attempt_id))
        if attempt.user_id != user_id:
            raise NotYourPuzzle(
                _("puzzle #{number} is someone else's: ask for your own with /puzzle",
                  number=attempt.attempt_id)
            )  # fmt: skip
        if attempt.answered is not None:
            raise PuzzleAnswered(_puzzle_answered(attempt))
        puzzle = await self._given(attempt)
        verdict = None
        if isinstance(puzzle, Replay):
            where = _free_point(puzzle.game().board, point)
            if where == puzzle.turning.played:
                raise PlayedAgain(
                    _("{point} is the move you played in the game: find a better one",
                      point=where.name)
                )  # fmt: skip
            assert self.replays is not None  # _given found the replay through it
            verdict = await self.replays.judge(puzzle, where)
            solved = verdict.good
        else:
            where = _free_point(puzzle.game().board, point)
            solved = puzzle.is_solution(where)
        streak = await store.answer(
            attempt,
            answer=where.name,
            solved=solved,
            answered=to_ts(self.core.now()),
            counts=verdict is None,
        )
        if streak is None:  # answered meanwhile (another click)
            raise PuzzleAnswered(_puzzle_answered(attempt))
        return Judged(where, solved, puzzle, streak, verdict)

    # -- a server's daily puzzle -------------------------------------------------------------

    async def set_daily(self, *, guild_id: int, channel_id: int | None) -> DailyRow | None:
        """Post a puzzle a day in ``channel_id`` (None: stop); the first at once, when the server
        had none; the daily puzzle as it is now."""
        row = await self.core.store.puzzles.set_daily(
            guild_id=guild_id, channel_id=channel_id, now=to_ts(self.core.now())
        )
        if row is not None:
            due = self.core.now() if row.next_due is None else to_dt(row.next_due)
            await self.core.events.publish(ClockChange(None, None, due))
        return row

    async def daily(self, *, guild_id: int) -> DailyRow | None:
        """A server's daily puzzle, if it has one."""
        return await self.core.store.puzzles.daily(guild_id)

    async def post_daily(self, *, guild_id: int) -> DailyPuzzle | None:
        """The server's next day (fired by its timer): its puzzle chosen (``daily_choice``),
        stored with the post it owes, and published; None when the server has none now.

        Raises:
            StaleWriteError: another process posted that day meanwhile (nothing changes).
        """
        store = self.core.store.puzzles
        row = await store.daily(guild_id)
        if row is None:
            return None
        day = row.day + 1
        puzzle = daily_choice(await self._all(), guild_id=guild_id, day=day)
        stored = await store.post_daily(
            guild_id=guild_id,
            day=day,
            puzzle_key=puzzle.key,
            data=json.dumps(puzzle.to_json()),
            posted=to_ts(self.core.now()),
        )
        if stored.next_due is not None:
            await self.core.events.publish(ClockChange(None, None, to_dt(stored.next_due)))
        posted = DailyPuzzle(guild_id, stored.channel_id, day, puzzle)
        await self.core.events.publish(posted)
        return posted

    async def daily_posted(self, *, guild_id: int, day: int) -> DailyPuzzle | None:
        """The post of the server's ``day``, as stored (None: a later day was posted, or the
        daily puzzle was stopped)."""
        row = await self.core.store.puzzles.daily(guild_id)
        if row is None or row.day != day or row.data is None:
            return None
        return DailyPuzzle(guild_id, row.channel_id, day, Puzzle.from_json(json.loads(row.data)))

    async def give_daily(self, *, guild_id: int, user_id: int, day: int) -> GivenPuzzle:
        """The server's puzzle of ``day`` given to ``user_id`` (again, if they have not answered
        it yet); it counts in their streak like any puzzle.

        Raises:
            NoPuzzle: it is not the server's puzzle of the day any more (or there is none).
            PuzzleAnswered: they answered it already.
        """
        store = self.core.store.puzzles
        row = await store.daily(guild_id)
        if row is None or row.day != day or row.data is None:
            raise NoPuzzle(
                _("this is no longer the puzzle of the day: the newest is in its channel")
            )
        key = f"daily:{guild_id}:{day}"
        streak = await store.streak(user_id)
        attempt = await store.attempt_of(user_id=user_id, puzzle_key=key)
        if attempt is not None and attempt.answered is not None:
            raise PuzzleAnswered(
                _("you answered the puzzle of the day already: a new one comes tomorrow")
            )
        puzzle = Puzzle.from_json(json.loads(row.data))
        if attempt is not None:
            return GivenPuzzle(attempt.attempt_id, puzzle, streak, again=True)
        given = await store.give(
            user_id=user_id, puzzle_key=key, data=row.data, given=to_ts(self.core.now())
        )
        return GivenPuzzle(given.attempt_id, puzzle, streak)

    async def _all(self) -> list[Puzzle]:
        found: list[Puzzle] = []
        for width, height, depth in KINDS:
            found.extend(await self._pool(width, height, depth))
        return found

    async def streak(self, *, user_id: int) -> StreakRow:
        """A player's solving streak."""
        return await self.core.store.puzzles.streak(user_id)

    async def store_mined(
        self, *, game_id: int, found: list[tuple[str, int, int, int, str]]
    ) -> None:
        """Keep the puzzles mined from game ``game_id`` (``mine_game``'s rows)."""
        await self.core.store.puzzles.add_puzzles(
            found, game_id=game_id, created=to_ts(self.core.now())
        )


def daily_choice(pool: list[Puzzle], *, guild_id: int, day: int) -> Puzzle:
    """The puzzle of a server's ``day``: the pool (the shipped puzzles and the mined ones) in
    an order of the server's own, one a day, round again once all were posted."""
    ordered = sorted(pool, key=lambda p: p.key)
    random.Random(guild_id).shuffle(ordered)
    return ordered[(day - 1) % len(ordered)]


def _free_point(board: Board, point: str) -> Point:
    """The free point of ``board`` that ``point`` names.

    Raises:
        Refusal: it names no point of the board (an engine error, worded), or a taken one.
    """
    try:
        where = board.point(point)
    except DotsError as error:
        raise refusal_of(error) from None
    if not board.is_free(where):
        raise NoPointThere(
            _("{point} is not free in this puzzle: choose an empty point", point=where.name)
        )
    return where


def _puzzle_answered(attempt: AttemptRow) -> Message:
    return _("you answered puzzle #{number} already: ask for a new one with /puzzle",
             number=attempt.attempt_id)  # fmt: skip
