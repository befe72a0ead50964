"""The computer's turns: one asyncio task per game in which the computer is to move.

The service publishes ``ComputerToMove`` on its event bus after every committed action that
leaves the computer to move; a task then searches and plays the move
(``GameService.computer_move``), goes on while the computer plays on alone, and publishes one
``ComputerMoved`` event for the lot, which every adapter shows in its own way (Discord posts
it, the terminal prints it).
Nothing depends on an adapter's post succeeding. A failed search (the worker process died) is
retried after a backoff, and the last attempt is a cheap search in a thread, so the computer
always answers. At start every game waiting for the computer is re-armed from the database.
Built like ``bot.clocks.Clocks``; time is injected (``sleep``) so tests do not wait.

Several processes: each re-arms only the games of its own shards (``shards``). A
pending turn needs no timer row: that the computer is to move is a fact of the stored game, and
a move is applied at most once whoever plays it (each write is guarded by the game's move
count).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.games import ComputerMoved, GameService, MoveOutcome, is_computer
from bot.games.events import ComputerToMove
from bot.storage.timer_repository import TimerKind
from bot.storage.timers import ALL_SHARDS, PostKind, Shards, owing
from engine import DotsError

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]

# Searches in the pool before the cheap one, and the wait before the first retry (doubled
# after each failure): 1 s + 2 s, within any move clock (30 s at least).
POOL_ATTEMPTS = 3
FIRST_BACKOFF = 1.0


class ComputerTurns:
    """Arms and runs the computer's turns of a GameService.

    Usage: ``turns = ComputerTurns(service); await turns.start()`` ... ``await turns.stop()``.
    """

    def __init__(
        self,
        service: GameService,
        *,
        attempts: int = POOL_ATTEMPTS,
        backoff: float = FIRST_BACKOFF,
        sleep: Sleep = asyncio.sleep,
        shards: Shards = ALL_SHARDS,
        outbox: bool = False,
    ) -> None:
        self.service = service
        self.shards = shards
        # Whether the first move of each turn stores its post in the outbox (``bot.outbox``).
        self.outbox = outbox
        self.attempts = attempts
        self.backoff = backoff
        self._sleep = sleep
        self._tasks: dict[int, asyncio.Task[None]] = {}
        # Games asked for again while their task was still publishing: run once more after it.
        self._again: set[int] = set()
        self._stopped = False
        service.events.subscribe(self._to_move, ComputerToMove)

    async def start(self) -> int:
        """Arm every running game of this process's shards in which the computer is to move;
        how many."""
        self._stopped = False
        waiting = await self.service.computer_turns(
            owns=None if self.shards.is_all else self.shards.owns
        )
        for game_id in waiting:
            self.arm(game_id)
        return len(waiting)

    async def stop(self) -> None:
        """Cancel every turn under way and arm no more (a game waiting for the computer is
        re-armed at the next start)."""
        self._stopped = True
        tasks = list(self._tasks.values())
        self._tasks.clear()
        self._again.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _to_move(self, event: ComputerToMove) -> None:
        self.arm(event.game_id)

    def arm(self, game_id: int) -> None:
        """Play the computer's turn in this game (in the background); nothing once stopped."""
        if self._stopped:
            return
        task = self._tasks.get(game_id)
        if task is not None:
            # The task asking is the one playing on alone: its loop goes on by itself.
            if task is not asyncio.current_task():
                self._again.add(game_id)
            return
        self._tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id))

    @property
    def armed(self) -> int:
        """How many turns are under way."""
        return len(self._tasks)

    def is_armed(self, *, game_id: int) -> bool:
        """Whether the computer's turn in this game is under way."""
        return game_id in self._tasks

    async def _run(self, game_id: int) -> None:
        try:
            # The turn's first move commits its post (the adapter's delivery, see bot.outbox).
            with owing(TimerKind.GAME, game_id, post=PostKind.COMPUTER if self.outbox else None):
                played: list[MoveOutcome] = []
                while True:
                    outcome = await self._move(game_id)
                    if outcome is None:
                        break
                    played.append(outcome)
                    if outcome.is_over or not is_computer(outcome.next_user_id):
                        break
                if played:
                    await self.service.publish(ComputerMoved(tuple(played)))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer's turn in game %s failed", game_id)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]
                if game_id in self._again:
                    self._again.discard(game_id)
                    self.arm(game_id)

    async def _move(self, game_id: int) -> MoveOutcome | None:
        """One move, searched in the pool up to ``attempts`` times, then cheaply in a thread.

        Raises:
            DotsError: the computer chose an illegal move (a bug: not retried).
        """
        wait = self.backoff
        for attempt in range(1, self.attempts + 1):
            try:
                return await self.service.computer_move(game_id=game_id)
            except DotsError:
                raise
            except Exception as error:
                log.warning(
                    "the computer's search in game %s failed (attempt %d of %d): %r",
                    game_id,
                    attempt,
                    self.attempts,
                    error,
                )
            if attempt < self.attempts:
                await self._sleep(wait)
                wait *= 2
        log.warning("game %s: the computer falls back to a cheap search", game_id)
        return await self.service.computer_move(game_id=game_id, cheap=True)
