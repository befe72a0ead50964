"""The order of a game's posts: the computer's reply waits for the post of the move it answers."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger(__name__)

# How long the computer's post waits for the post of the move it answers.
POST_ORDER_WAIT = 10.0


class PostOrder:
    """Keeps a game's posts in the order of its actions.

    The computer's reply is searched as soon as the player's move is committed, so it may be
    ready before the player's move is posted. A handler that acts in a game marks it
    ``pending`` from before it calls the service until its post is sent (or failed); the
    computer's post waits while a game is pending, for ``POST_ORDER_WAIT`` seconds at most,
    so a lost post delays nothing for long.
    """

    def __init__(self, *, wait: float = POST_ORDER_WAIT) -> None:
        self.wait = wait
        self._pending: Counter[int] = Counter()
        self._idle: dict[int, asyncio.Event] = {}

    @contextmanager
    def pending(self, game_id: int) -> Iterator[None]:
        """Mark the game as having a post on its way for the duration of the block."""
        self._pending[game_id] += 1
        self._idle.setdefault(game_id, asyncio.Event())
        try:
            yield
        finally:
            self._pending[game_id] -= 1
            if self._pending[game_id] <= 0:
                del self._pending[game_id]
                self._idle.pop(game_id).set()

    def others(self, game_id: int) -> bool:
        """Whether, besides the caller's, another handler has the game ``game_id`` pending (a
        double submit: two moves of one player at once)."""
        return self._pending[game_id] > 1

    async def idle(self, game_id: int) -> None:
        """Wait until no post of this game is on its way (``wait`` seconds at most)."""
        event = self._idle.get(game_id)
        if event is None:
            return
        try:
            await asyncio.wait_for(event.wait(), self.wait)
        except TimeoutError:
            log.info("game %s: posting the computer's move without waiting", game_id)
