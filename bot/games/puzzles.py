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

from ai.puzzles import Puzzle, mine, shipped
from bot.games.convert import to_ts
from bot.games.core import GameCore
from bot.games.errors import Refusal, refusal_of
from bot.i18n import Message, _
from bot.storage.puzzles import AttemptRow, StreakRow
from engine import DotsError, Point, Record

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


@dataclass(frozen=True, slots=True)
class GivenPuzzle:
    """A puzzle given: its number, the puzzle, the player's streak, and whether it was given
    before and is still waiting for its answer (``again``)."""

    attempt_id: int
    puzzle: Puzzle
    streak: StreakRow
    again: bool = False


@dataclass(frozen=True, slots=True)
class Judged:
    """An answer judged: the point, whether it solves the puzzle, the puzzle (its solutions and
    line) and the streak after it."""

    point: Point
    solved: bool
    puzzle: Puzzle
    streak: StreakRow


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

    async def give(self, *, user_id: int) -> GivenPuzzle:
        """The player's unanswered puzzle again, or a new one at their level (one they were
        never given, while any is left)."""
        store = self.core.store.puzzles
        streak = await store.streak(user_id)
        waiting = await store.open_attempt(user_id)
        if waiting is not None:
            return GivenPuzzle(waiting.attempt_id, _puzzle(waiting), streak, again=True)
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
        ``attempt_id``): right when it is one of the first moves the exact search proved.

        Raises:
            NoPuzzle: no puzzle is waiting (or none has that number).
            NotYourPuzzle: puzzle ``attempt_id`` was given to someone else.
            PuzzleAnswered: it was answered already.
            NoPointThere: ``point`` is no free point of its board (nothing changes).
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
        puzzle = _puzzle(attempt)
        board = puzzle.game().board
        try:
            where = board.point(point)
        except DotsError as error:
            raise refusal_of(error) from None
        if not board.is_free(where):
            raise NoPointThere(
                _("{point} is not free in this puzzle: choose an empty point", point=where.name)
            )
        solved = puzzle.is_solution(where)
        streak = await store.answer(
            attempt, answer=where.name, solved=solved, answered=to_ts(self.core.now())
        )
        if streak is None:  # answered meanwhile (another click)
            raise PuzzleAnswered(_puzzle_answered(attempt))
        return Judged(where, solved, puzzle, streak)

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


def _puzzle(attempt: AttemptRow) -> Puzzle:
    return Puzzle.from_json(json.loads(attempt.data))


def _puzzle_answered(attempt: AttemptRow) -> Message:
    return _("you answered puzzle #{number} already: ask for a new one with /puzzle",
             number=attempt.attempt_id)  # fmt: skip
