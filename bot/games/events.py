"""The game service's event bus: what happened, published once, to whoever listens.

The adapters listen for the events a player is shown (``TimedOut``, ``Reminder``,
``ChallengeExpired``, ``ComputerMoved``: the default of ``subscribe``); the background
services listen for their own kinds: ``bot.clocks.Clocks`` for ``ClockChange`` (a deadline
set, moved or cleared) and ``bot.computer_turns.ComputerTurns`` for ``ComputerToMove``. Both of
those are published under the game's lock, once committed.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.games.models import (
    ActionTaken,
    ChallengeCalledOff,
    ChallengeExpired,
    ComputerMoved,
    Reminder,
    TakebackAnswered,
    TakebackAsked,
    TimedOut,
)

log = logging.getLogger(__name__)

Listener = Callable[[Any], Awaitable[None] | None]

ADAPTER_EVENTS: tuple[type, ...] = (
    TimedOut,
    Reminder,
    ChallengeExpired,
    ComputerMoved,
    ActionTaken,
    ChallengeCalledOff,
    TakebackAnswered,
    TakebackAsked,
)
"""The events an adapter shows to players (``bot.games.models.Event``)."""


@dataclass(frozen=True, slots=True)
class ComputerToMove:
    """The computer is to move in game ``game_id`` (after a start where it is Pink, and after
    every committed action that leaves it to move)."""

    game_id: int


class EventBus:
    """Listeners by the kinds of event they want, called in the order they subscribed."""

    def __init__(self) -> None:
        self._listeners: list[tuple[tuple[type, ...], Listener]] = []

    def subscribe(self, listener: Listener, *kinds: type) -> None:
        """Call ``listener(event)`` for each published event of one of ``kinds`` (by default
        the adapter's events, ``ADAPTER_EVENTS``). A coroutine listener is awaited; a
        listener's exception is logged, never raised to the publisher."""
        self._listeners.append((kinds or ADAPTER_EVENTS, listener))

    async def publish(self, event: object) -> None:
        """Give ``event`` to every listener of its kind, in order."""
        for kinds, listener in list(self._listeners):
            if not isinstance(event, kinds):
                continue
            try:
                result = listener(event)
                if inspect.isawaitable(result):
                    await result
            except Exception:
                log.exception("event listener failed on %r", type(event).__name__)
