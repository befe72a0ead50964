"""The outbox: posts that must follow a committed change are not lost, nor doubled.

When a timer fires with ``Clocks(outbox=True)`` the change (a time-out, a reminder, a
challenge's expiry) and an ``outbox`` row are committed together (``bot.storage.timers``); so
are the computer's move and its post with ``ComputerTurns(outbox=True)``. The
service then publishes its event as always; the adapter delivers it inside ``delivering()``,
which gives each message it sends a nonce made from the row's id (``next_nonce``, used by
``bot.cogs.posts.send``) and deletes the row once the delivery is done. A process killed between
the commit and the post leaves the row: ``Outbox.start`` publishes its event again (rebuilt
from the database) with the same nonces, so Discord, which returns the message already made
with a nonce (``enforce_nonce``) for a few minutes, does not show it twice.

What a resent event shows: the game as it is when resent (a time-out's rating changes are not
repeated); a reminder whose turn is over is dropped, not sent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from bot.games import Event, GameService
from bot.games.deadlines import POSTS, rebuilt_event
from bot.storage import timers
from bot.storage.rows import PostRow
from bot.storage.timers import ALL_SHARDS, Shards

log = logging.getLogger(__name__)

# How long closing waits for the posts on their way before the database closes (seconds).
DRAIN_WAIT = 5.0


@dataclass(slots=True)
class _Delivery:
    post_id: int
    sent: int = 0  # messages sent so far: the next one's nonce


# (row id, kind) of the row whose event ``Outbox.start`` publishes again.
_resending: ContextVar[tuple[int, str] | None] = ContextVar("dots_resending", default=None)
_delivery: ContextVar[_Delivery | None] = ContextVar("dots_delivery", default=None)


def current_post(kind: str) -> int | None:
    """The outbox row of kind ``kind`` ("time_out", "reminder", "expired") owed by the change
    this task (or the task that started it) committed; None if none is owed.

    The kind keeps tasks apart that inherit a claim without delivering its post (the
    computer's turn started by a time-out posts its own move, not the time-out)."""
    resending = _resending.get()
    if resending is not None:
        return resending[0] if resending[1] == kind else None
    claim = timers.current_claim()
    if claim is None or claim.post != kind:
        return None
    return claim.post_id


def nonce(post_id: int, n: int) -> str:
    """The nonce of the ``n``-th message of outbox row ``post_id`` (at most 25 characters, as
    Discord requires)."""
    return f"d{post_id}.{n}"


def next_nonce() -> str | None:
    """The nonce for the next message this task sends, when it delivers an outbox row."""
    delivery = _delivery.get()
    if delivery is None:
        return None
    delivery.sent += 1
    return nonce(delivery.post_id, delivery.sent)


class Outbox:
    """The unsent posts of a GameService's shards: deleted once delivered, resent at start.

    Usage: ``outbox = Outbox(service)``; the adapter wraps each delivery in
    ``async with delivering(outbox)``; ``await outbox.start()`` once its listeners are in place.
    """

    def __init__(self, service: GameService, *, shards: Shards = ALL_SHARDS) -> None:
        self.service = service
        self.shards = shards
        self.resent = 0
        # The tasks delivering (``delivering``); once closing, those still going are
        # cancelled and their rows left in the outbox (resent at the next start, their nonces
        # keep them single).
        self._delivering: set[asyncio.Task[object]] = set()
        self._idle = asyncio.Event()
        self._idle.set()
        self._closing = False

    async def sent(self, post_id: int) -> None:
        """Forget a delivered post."""
        await self.service.timers.post_sent(post_id)

    async def drain(self, timeout: float | None = None) -> None:
        """Before the database closes: wait for the deliveries on their way (``timeout``
        seconds at most, ``DRAIN_WAIT`` by default); those still going then stay in the outbox
        for the next start."""
        try:
            await asyncio.wait_for(self._idle.wait(), DRAIN_WAIT if timeout is None else timeout)
        except TimeoutError:
            log.info(
                "%d posts still on their way at close: stopped, kept in the outbox",
                len(self._delivering),
            )
        self._closing = True
        # Stopped before the HTTP session closes under them (they would fail there, each with
        # a traceback): a cancelled delivery leaves its row for the next start.
        going = list(self._delivering)
        for task in going:
            task.cancel()
        await asyncio.gather(*going, return_exceptions=True)

    @asynccontextmanager
    async def _delivery_on_its_way(self) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if self._closing or task is None:
            # Closing: the post is not begun (its row stays for the next start). Cancelled
            # as ``drain`` cancels the deliveries under way (discord.py's listener tasks end
            # quietly on cancellation).
            raise asyncio.CancelledError
        self._delivering.add(task)
        self._idle.clear()
        try:
            yield
        finally:
            self._delivering.discard(task)
            if not self._delivering:
                self._idle.set()

    async def pending(self) -> list[PostRow]:
        """The posts of this process's shards not delivered yet, oldest first."""
        return await self.service.timers.unsent_posts(shards=self.shards)

    async def start(self) -> int:
        """Publish again the event of every undelivered post (a crash came between its commit
        and its post); how many. A post that no longer means anything is deleted."""
        count = 0
        for row in await self.pending():
            event = await self._event(row)
            if event is None:
                await self.sent(row.post_id)
                continue
            token = _resending.set((row.post_id, row.kind))
            try:
                await self.service.publish(event)
            finally:
                _resending.reset(token)
            count += 1
        self.resent += count
        return count

    async def _event(self, row: PostRow) -> Event | None:
        """The event of an outbox row, rebuilt from the database (its kind's entry in
        ``bot.games.deadlines.POSTS``); None if it is moot."""
        if row.kind not in POSTS:
            log.warning("outbox row %s of unknown kind %r", row.post_id, row.kind)
            return None
        return await rebuilt_event(self.service, row)


@asynccontextmanager
async def delivering(outbox: Outbox | None, kind: str) -> AsyncIterator[int | None]:
    """``async with delivering(bot.outbox, "time_out"):`` around an adapter's delivery of an
    event: the messages sent inside get the nonces of the outbox row of that kind, and the row
    is deleted when the block ends without an exception. Yields the row's id (None: nothing
    owed, nothing to delete)."""
    post_id = current_post(kind)
    if post_id is None or outbox is None:
        yield None
        return
    async with outbox._delivery_on_its_way():
        token = _delivery.set(_Delivery(post_id))
        try:
            yield post_id
        finally:
            _delivery.reset(token)
        if not outbox._closing:
            await outbox.sent(post_id)
