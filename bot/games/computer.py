"""The computer as a player: its pseudo user ids (one per level) and how it thinks off the loop.

The computer has no Discord account: each level is a reserved NEGATIVE user id. Discord
snowflakes are positive and the terminal's local players are 1 and 2, so these never clash
with a person, and games against the computer need no schema change. Adapters show such an id
as its name ("Computer (hard)") and never mention it or send it a direct message.

The search (``ai.choose_from_record``) is CPU-bound pure Python: in a thread it would hold the
GIL and stall the event loop for the whole think (up to ~2 s on hard; bench/think_lag.py
measures it), so ``Thinker`` runs it in a one-worker process pool, started on first use.
``bot.computer_turns.ComputerTurns`` decides when the computer moves and retries a failed
search; its last resort is ``Thinker.choose(..., cheap=True)``, a short search in a thread.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from functools import partial

import ai
from bot.games.workers import new_pool
from bot.i18n import LOCALES, SOURCE, Message, _, translate
from bot.option_words import words_of
from engine import Level, Record, UnknownOptionError

log = logging.getLogger(__name__)

# One pseudo user per level of the engine's ``Level``; these ids are stored in game rows.
# (A level's value, ``"hard"``, finds its member here too: ``Level`` is a ``StrEnum``.)
COMPUTER_IDS: dict[Level, int] = {Level.EASY: -1, Level.MEDIUM: -2, Level.HARD: -3}
LEVEL_OF: dict[int, Level] = {user_id: level for level, user_id in COMPUTER_IDS.items()}
DEFAULT_LEVEL = Level.MEDIUM
# The last-resort search (worker processes keep dying): a few playouts in a thread, which holds
# the GIL for at most CHEAP_SECONDS.
CHEAP_ITERATIONS = 30
CHEAP_SECONDS = 0.2


def computer_id(level: Level | str) -> int:
    """The pseudo user id of the computer at ``level`` (a ``Level`` or its name, any case).

    Raises:
        UnknownOptionError: no level has that name (a ValueError; the message lists them).
    """
    try:
        return COMPUTER_IDS[Level.parse(level)]
    except UnknownOptionError:
        # The computer's refusal has always listed its levels with commas.
        raise UnknownOptionError(Level, str(level), listed=", ".join(COMPUTER_IDS)) from None


def is_computer(user_id: int | None) -> bool:
    """Whether ``user_id`` is the computer (at any level)."""
    return user_id in LEVEL_OF


def computer_level(user_id: int) -> Level:
    """The level of the computer playing as ``user_id``.

    Raises:
        ValueError: the id is not the computer's.
    """
    try:
        return LEVEL_OF[user_id]
    except KeyError:
        raise ValueError(f"user {user_id} is not the computer") from None


def computer_label(user_id: int) -> Message:
    """The computer's name as a sentence to translate: ``"Computer (hard)"``, its level word
    in the reader's language (``"Komputer (trudny)"``)."""
    return _("Computer ({level})", level=Message(words_of(computer_level(user_id)).name))


def computer_name(user_id: int, locale: str = SOURCE) -> str:
    """How to show the computer in ``locale``: ``"Computer (hard)"``."""
    return translate(locale, computer_label(user_id))


# Its names in every language (a name in this set is the computer's, not a member's).
COMPUTER_NAMES = frozenset(
    computer_name(user_id, locale) for user_id in LEVEL_OF for locale in LOCALES
)


def move_seed(*, game_id: int, moves: int) -> int:
    """The search's seed for the move after ``moves`` actions of a game: a replay of the same
    game asks the same question with the same seed, so it gets the same answer."""
    return (game_id * 1_000_003 + moves) % 2**32


def _ignore_interrupts() -> None:
    """In a worker: ignore Ctrl-C. The terminal sends it to the worker too, which would die with
    a traceback; the parent decides what Ctrl-C means and stops the worker itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Thinker:
    """Runs the computer's search off the event loop.

    ``processes=True`` (the default) uses a process pool of ``workers`` processes created on
    first use (the 'spawn' start method: forking a process that runs aiosqlite's threads is
    unsafe), so the bot stays responsive while it thinks; ``processes=False`` a thread pool
    (tests, where starting a process costs more than the tiny searches). ``iterations``
    overrides every level's budget (tests). A worker that dies is replaced on the next call.
    Searches queue for a worker: with one worker, N games waiting on hard wait up to ~N x 2 s,
    which counts against the computer's move clock.
    """

    def __init__(
        self, *, processes: bool = True, iterations: int | None = None, workers: int = 1
    ) -> None:
        self.processes = processes
        self.iterations = iterations
        self.workers = workers
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = new_pool(
                processes=self.processes,
                workers=self.workers,
                name="computer",
                initializer=_ignore_interrupts,
            )
        return self._pool

    async def choose(
        self, record: Record, level: str, seed: int, *, cheap: bool = False
    ) -> ai.Decision:
        """The computer's decision for the player to move in ``record``'s game; ``cheap``: a
        short search in a thread instead of the pool (the last resort when the pool fails).

        Raises:
            GameOverError: the game is over.
            BrokenProcessPool: the worker died again after being replaced.
        """
        if cheap:
            iterations = min(self.iterations or CHEAP_ITERATIONS, CHEAP_ITERATIONS)
            return await asyncio.to_thread(
                ai.choose_from_record,
                record,
                level,
                seed,
                iterations=iterations,
                max_seconds=CHEAP_SECONDS,
            )
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), self._search(record, level, seed))
        except BrokenProcessPool:
            log.warning("the computer's worker process died; starting a new one")
            self.close()
            return await loop.run_in_executor(self._executor(), self._search(record, level, seed))

    def _search(self, record: Record, level: str, seed: int) -> Callable[[], ai.Decision]:
        """The picklable call a worker runs for one search."""
        return partial(ai.choose_from_record, record, level, seed, iterations=self.iterations)

    def close(self) -> None:
        """Stop the worker (a search under way is abandoned)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
